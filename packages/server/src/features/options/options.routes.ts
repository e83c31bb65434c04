// Site settings (super admin) and the group list.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';

export async function registerOptionRoutes(_app: FastifyInstance, _ctx: AppContext): Promise<void> {}
