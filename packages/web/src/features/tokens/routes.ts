import type { AppRoute } from '../../app/route-types';

export const tokenRoutes: AppRoute[] = [
  { path: '/token', access: 'user', page: () => import('./tokens-page').then((m) => m.TokensPage) },
];
