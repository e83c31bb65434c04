// The /api/user/* routes: user management (admin) and the caller's own account.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';

export async function registerUserRoutes(_app: FastifyInstance, _ctx: AppContext): Promise<void> {}
