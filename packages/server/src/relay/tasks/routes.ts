// The task relays' client routes: the midjourney-proxy API under /mj (and its mode prefixes) and the
// Suno API under /suno. Keyed by the caller's Sluice token like every relay route, callable from
// browsers (the key is the credential, not a cookie), each platform answering in its own shape.
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { RelayRuntime } from '../pipeline/relay-runtime.js';
import { registerMidjourneyRoutes } from './midjourney/routes.js';
import { registerSunoRoutes } from './suno/routes.js';

const PREFLIGHT_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type, mj-api-secret, x-requested-with',
  'access-control-max-age': '86400',
};

const TASK_PREFIXES = ['/mj', '/fast/mj', '/turbo/mj', '/relax/mj', '/suno'];

export async function registerTaskRelayRoutes(app: FastifyInstance, rt: RelayRuntime): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook('onRequest', (_req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
      reply.raw.setHeader('access-control-allow-origin', '*');
      done();
    });
    for (const prefix of TASK_PREFIXES) {
      scope.options(`${prefix}/*`, (_req, reply) => reply.code(204).headers(PREFLIGHT_HEADERS).send());
    }
    await scope.register(async (mj) => registerMidjourneyRoutes(mj, rt));
    await scope.register(async (suno) => registerSunoRoutes(suno, rt));
  });
}
