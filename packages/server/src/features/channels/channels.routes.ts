// Channel management (admin).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';

export async function registerChannelRoutes(_app: FastifyInstance, _ctx: AppContext): Promise<void> {}
