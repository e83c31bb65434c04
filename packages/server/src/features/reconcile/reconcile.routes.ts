// Reconciliation for root (billing/reconcile.ts; `npm run reconcile` prints the same report):
// GET /api/reconcile?start_timestamp=&end_timestamp= checks a period — from the latest snapshot at or
// before start_timestamp (0: from the beginning; absent: from the latest snapshot) to the first
// snapshot at or after end_timestamp (absent, or none taken since: now); GET /api/reconcile/snapshots
// lists the snapshots; POST /api/reconcile/snapshot {accept} takes one when the period since the last
// reconciles, or regardless with accept.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { listSnapshots, reconcile, takeSnapshot } from '../../billing/reconcile.js';
import { ok, parseInput } from '../../http/envelope.js';

/** Unix seconds as a query string; blank is absent. */
const timestamp = (name: string) =>
  z
    .preprocess(
      (v) => (v === '' ? undefined : v),
      z
        .string()
        .regex(/^\d{1,12}$/, { error: `${name} must be a unix time in seconds` })
        .transform(Number)
        .optional(),
    )
    .optional();

const periodQuery = z.object({
  start_timestamp: timestamp('start_timestamp'),
  end_timestamp: timestamp('end_timestamp'),
});

const snapshotBody = z.object({ accept: z.boolean({ error: 'accept must be true or false' }).optional() });

export function registerReconcileRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/reconcile', { config: { auth: 'root' } }, async (req) => {
    const q = parseInput(periodQuery, req.query);
    return ok(
      await reconcile(ctx.db, ctx.dialect, {
        ...(q.start_timestamp !== undefined ? { start: q.start_timestamp } : {}),
        end: q.end_timestamp ?? null,
        now: ctx.clock.now(),
      }),
    );
  });
  app.get('/api/reconcile/snapshots', { config: { auth: 'root' } }, async () =>
    ok(await listSnapshots(ctx.db)),
  );
  app.post('/api/reconcile/snapshot', { config: { auth: 'root' } }, async (req) => {
    const { accept } = parseInput(snapshotBody, req.body);
    return ok(await takeSnapshot(ctx.db, ctx.dialect, { now: ctx.clock.now(), accept: accept ?? false }));
  });
}
