import type { AppRoute } from '../../app/route-types';

export const settingsRoutes: AppRoute[] = [
  { path: '/setting', access: 'user', page: () => import('./settings-page').then((m) => m.SettingsPage) },
];
