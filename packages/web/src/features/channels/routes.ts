import type { AppRoute } from '../../app/route-types';

/**
 * One route for /channel, /channel/add and /channel/edit/:id: the list stays mounted (with its
 * selection and modes) while the drawer opens and closes over it.
 */
export const channelRoutes: AppRoute[] = [
  { path: '/channel/*', access: 'admin', page: () => import('./channels-page').then((m) => m.ChannelsPage) },
];
