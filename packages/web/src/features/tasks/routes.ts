import type { AppRoute } from '../../app/route-types';

export const taskRoutes: AppRoute[] = [
  { path: '/task', access: 'user', page: () => import('./tasks-page').then((m) => m.TasksPage) },
];
