// Every console feature's routes, registered in one place (the relay's are registered beside them).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.js';
import { registerAuthRoutes } from './auth/auth.routes.js';
import { registerVerificationRoutes } from './auth/verification.routes.js';
import { registerChannelRoutes } from './channels/channels.routes.js';
import { registerOAuthRoutes } from './oauth/oauth.routes.js';
import { registerOptionRoutes } from './options/options.routes.js';
import { registerStatusRoutes } from './status/status.routes.js';
import { registerUserRoutes } from './users/users.routes.js';
import { registerDashboardRoutes } from './dashboard/dashboard.routes.js';
import { registerLogRoutes } from './logs/logs.routes.js';
import { registerPricingRoutes } from './pricing/pricing.routes.js';
import { registerReconcileRoutes } from './reconcile/reconcile.routes.js';
import { registerRedemptionRoutes } from './redemptions/redemptions.routes.js';
import { registerTaskRoutes } from './tasks/tasks.routes.js';
import { registerTokenRoutes } from './tokens/tokens.routes.js';
import { registerTopupRoutes } from './topup/topup.routes.js';

export async function registerFeatures(app: FastifyInstance, ctx: AppContext): Promise<void> {
  registerStatusRoutes(app, ctx);
  await registerAuthRoutes(app, ctx);
  await registerVerificationRoutes(app, ctx);
  await registerOAuthRoutes(app, ctx);
  await registerUserRoutes(app, ctx);
  await registerOptionRoutes(app, ctx);
  await registerChannelRoutes(app, ctx);
  registerTokenRoutes(app, ctx);
  registerRedemptionRoutes(app, ctx);
  await registerTopupRoutes(app, ctx);
  registerLogRoutes(app, ctx);
  registerDashboardRoutes(app, ctx);
  registerPricingRoutes(app, ctx);
  registerReconcileRoutes(app, ctx);
  registerTaskRoutes(app, ctx);
}
