import type { AppRoute } from '../../app/route-types';

const chatPage = () => import('./chat-page').then((m) => m.ChatPage);

export const chatRoutes: AppRoute[] = [
  { path: '/chat', access: 'user', page: chatPage },
  { path: '/chat/:id', access: 'user', page: chatPage },
  { path: '/chat2link', access: 'user', page: () => import('./chat2link-page').then((m) => m.Chat2LinkPage) },
];
