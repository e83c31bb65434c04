import type { AppRoute } from '../../app/route-types';

export const drawingRoutes: AppRoute[] = [
  { path: '/midjourney', access: 'user', page: () => import('./drawing-page').then((m) => m.DrawingPage) },
];
