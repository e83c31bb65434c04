// Probes for load balancers and orchestrators: GET /healthz says the process answers; GET /readyz
// says it can serve — the database answers and, in cluster mode, Redis does — else 503 naming what
// is down. Cheap enough to poll every second: one `select 1` (and one PING), shared by the probes
// that arrive while it runs, with a short deadline so a hung database reads as "not ready".
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { AppContext } from '../app-context.js';

/** A check that takes longer than this counts as failed. */
const CHECK_TIMEOUT_MS = 2_000;

type CheckState = 'ok' | 'down';

export interface Readiness {
  ready: boolean;
  database: CheckState;
  redis: CheckState | 'off';
}

function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

const state = (work: Promise<unknown>): Promise<CheckState> =>
  within(work, CHECK_TIMEOUT_MS).then(
    () => 'ok' as const,
    () => 'down' as const,
  );

export function registerHealthRoutes(app: FastifyInstance, ctx: AppContext, redis?: Redis): void {
  let running: Promise<Readiness> | undefined;
  const check = async (): Promise<Readiness> => {
    const [database, cache] = await Promise.all([
      state(sql`select 1`.execute(ctx.db)),
      redis ? state(redis.ping()) : Promise.resolve('off' as const),
    ]);
    return { ready: database === 'ok' && cache !== 'down', database, redis: cache };
  };

  app.get('/healthz', { config: { auth: 'public' } }, async (_req, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'ok' }),
  );
  app.get('/readyz', { config: { auth: 'public' } }, async (_req, reply) => {
    running ??= check().finally(() => {
      running = undefined;
    });
    const result = await running;
    return reply
      .status(result.ready ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({ status: result.ready ? 'ok' : 'unavailable', database: result.database, redis: result.redis });
  });
}
