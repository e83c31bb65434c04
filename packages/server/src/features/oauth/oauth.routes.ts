// Third-party sign-in and account binding.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';

export async function registerOAuthRoutes(_app: FastifyInstance, _ctx: AppContext): Promise<void> {}
