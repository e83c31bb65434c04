// Email verification codes and password reset.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';

export async function registerVerificationRoutes(_app: FastifyInstance, _ctx: AppContext): Promise<void> {}
