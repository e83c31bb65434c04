// Every feature's routes, registered in one place.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.js';
import { registerStatusRoutes } from './status/status.routes.js';

export async function registerFeatures(app: FastifyInstance, ctx: AppContext): Promise<void> {
  registerStatusRoutes(app, ctx);
}
