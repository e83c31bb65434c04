import type { AppRoute } from '../../app/route-types';

export const homeRoutes: AppRoute[] = [
  { path: '/', access: 'public', page: () => import('./home-page').then((m) => m.HomePage) },
  { path: '/about', access: 'public', page: () => import('./about-page').then((m) => m.AboutPage) },
];
