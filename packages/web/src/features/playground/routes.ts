import type { AppRoute } from '../../app/route-types';

export const playgroundRoutes: AppRoute[] = [
  {
    path: '/playground',
    access: 'user',
    page: () => import('./playground-page').then((m) => m.PlaygroundPage),
  },
];
