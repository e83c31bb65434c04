// Password sign-in, sign-out and registration.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';

export async function registerAuthRoutes(_app: FastifyInstance, _ctx: AppContext): Promise<void> {}
