import type { AppRoute } from '../../app/route-types';

const editPage = () => import('./edit-user-page').then((m) => m.EditUserPage);

export const userRoutes: AppRoute[] = [
  { path: '/user', access: 'admin', page: () => import('./users-page').then((m) => m.UsersPage) },
  { path: '/user/edit/:id', access: 'admin', page: editPage },
  { path: '/user/edit', access: 'user', page: editPage },
];
