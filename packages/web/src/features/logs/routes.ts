import type { AppRoute } from '../../app/route-types';

export const logRoutes: AppRoute[] = [
  { path: '/log', access: 'user', page: () => import('./logs-page').then((m) => m.LogsPage) },
];
