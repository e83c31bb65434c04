import type { AppRoute } from '../../app/route-types';

export const dashboardRoutes: AppRoute[] = [
  { path: '/detail', access: 'user', page: () => import('./dashboard-page').then((m) => m.DashboardPage) },
];
