// Every feature's pages. Adding a section is one line here; adding a page is one entry in the
// feature's routes.ts.
import { authRoutes } from '../features/auth/routes';
import { chatRoutes } from '../features/chat/routes';
import { homeRoutes } from '../features/home/routes';
import { playgroundRoutes } from '../features/playground/routes';
import { pricingRoutes } from '../features/pricing/routes';
import { settingsRoutes } from '../features/settings/routes';
import { userRoutes } from '../features/users/routes';
import { tokenRoutes } from '../features/tokens/routes';
import { redemptionRoutes } from '../features/redemptions/routes';
import { walletRoutes } from '../features/wallet/routes';
import { dashboardRoutes } from '../features/dashboard/routes';
import { drawingRoutes } from '../features/drawing/routes';
import { logRoutes } from '../features/logs/routes';
import { taskRoutes } from '../features/tasks/routes';
import { channelRoutes } from '../features/channels/routes';
import type { AppRoute } from './route-types';

export const routeModules: AppRoute[][] = [
  homeRoutes,
  authRoutes,
  settingsRoutes,
  userRoutes,
  tokenRoutes,
  redemptionRoutes,
  walletRoutes,
  pricingRoutes,
  playgroundRoutes,
  chatRoutes,
  logRoutes,
  dashboardRoutes,
  drawingRoutes,
  taskRoutes,
  channelRoutes,
];
