import type { AppRoute } from '../../app/route-types';

export const redemptionRoutes: AppRoute[] = [
  {
    path: '/redemption',
    access: 'admin',
    page: () => import('./redemptions-page').then((m) => m.RedemptionsPage),
  },
];
