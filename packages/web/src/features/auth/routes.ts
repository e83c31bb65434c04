import type { AppRoute } from '../../app/route-types';

export const authRoutes: AppRoute[] = [
  { path: '/login', access: 'public', page: () => import('./login-page').then((m) => m.LoginPage) },
  { path: '/register', access: 'public', page: () => import('./register-page').then((m) => m.RegisterPage) },
  { path: '/reset', access: 'public', page: () => import('./reset-page').then((m) => m.ResetPage) },
  {
    path: '/user/reset',
    access: 'public',
    page: () => import('./reset-confirm-page').then((m) => m.ResetConfirmPage),
  },
  {
    path: '/oauth/:provider',
    access: 'public',
    page: () => import('./oauth-callback-page').then((m) => m.OAuthCallbackPage),
  },
];
