// The data dashboard: usage per model and time bucket, for everyone (admin) or oneself.
import type { FastifyInstance } from 'fastify';
import { dashboardQuery } from '@sluice/shared';
import type { DashboardQuery } from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import { currentUser } from '../../http/auth-guard.js';
import { ok, parseInput } from '../../http/envelope.js';
import { withAndWithoutSlash } from '../logs/list-helpers.js';
import { usageByModel } from './dashboard.repository.js';
import type { DashboardScope } from './dashboard.repository.js';

const DEFAULT_RANGE = 30 * 24 * 3600;

export function registerDashboardRoutes(app: FastifyInstance, ctx: AppContext): void {
  const scopeOf = (q: DashboardQuery): DashboardScope => {
    const end = q.end_timestamp ?? ctx.clock.now();
    return {
      start: q.start_timestamp ?? Math.max(0, end - DEFAULT_RANGE),
      end,
      granularity: q.granularity ?? ctx.options.get('DataExportDefaultTime'),
      utcOffset: q.utc_offset * 60,
    };
  };

  for (const url of withAndWithoutSlash('/api/data/')) {
    app.get(url, { config: { auth: 'admin' } }, async (req) => {
      const q = parseInput(dashboardQuery, req.query);
      const scope = scopeOf(q);
      return ok(
        await usageByModel(ctx.db, q.username === undefined ? scope : { ...scope, username: q.username }),
      );
    });
  }
  for (const url of withAndWithoutSlash('/api/data/self/')) {
    app.get(url, { config: { auth: 'user' } }, async (req) => {
      const q = parseInput(dashboardQuery, req.query);
      return ok(await usageByModel(ctx.db, { ...scopeOf(q), userId: currentUser(req).id }));
    });
  }
}
