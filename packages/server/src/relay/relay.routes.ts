// The relay: /v1/* and /pg/* calls forwarded to upstream channels.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.js';

export async function registerRelayRoutes(_app: FastifyInstance, _ctx: AppContext): Promise<void> {}
