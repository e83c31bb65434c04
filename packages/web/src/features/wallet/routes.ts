import type { AppRoute } from '../../app/route-types';

export const walletRoutes: AppRoute[] = [
  { path: '/topup', access: 'user', page: () => import('./wallet-page').then((m) => m.WalletPage) },
];
