// Every feature's routes, registered in one place.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.js';
import { registerRelayRoutes } from '../relay/relay.routes.js';
import { registerAuthRoutes } from './auth/auth.routes.js';
import { registerVerificationRoutes } from './auth/verification.routes.js';
import { registerChannelRoutes } from './channels/channels.routes.js';
import { registerOAuthRoutes } from './oauth/oauth.routes.js';
import { registerOptionRoutes } from './options/options.routes.js';
import { registerStatusRoutes } from './status/status.routes.js';
import { registerUserRoutes } from './users/users.routes.js';

export async function registerFeatures(app: FastifyInstance, ctx: AppContext): Promise<void> {
  registerStatusRoutes(app, ctx);
  await registerAuthRoutes(app, ctx);
  await registerVerificationRoutes(app, ctx);
  await registerOAuthRoutes(app, ctx);
  await registerUserRoutes(app, ctx);
  await registerOptionRoutes(app, ctx);
  await registerChannelRoutes(app, ctx);
  await registerRelayRoutes(app, ctx);
}
