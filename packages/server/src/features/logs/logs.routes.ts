// Usage logs: all users' (admin) and one's own (user), their stats, and the purge (root).
import type { FastifyInstance } from 'fastify';
import { logFilterQuery, logListQuery, logPurgeQuery } from '@sluice/shared';
import type { LogItem, Page } from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import { currentUser } from '../../http/auth-guard.js';
import { ok, parseInput } from '../../http/envelope.js';
import { pageOf, withAndWithoutSlash } from './list-helpers.js';
import { scheduleLogRetention } from './log-retention.js';
import { channelNamesOf, deleteLogsBefore, listLogs, logStat, toLogItem } from './logs.repository.js';
import type { LogScope } from './logs.repository.js';

export function registerLogRoutes(app: FastifyInstance, ctx: AppContext): void {
  const list = async (query: unknown, self: number | null): Promise<Page<LogItem>> => {
    const q = parseInput(logListQuery, query);
    const scope: LogScope = self === null ? q : selfScope(q, self);
    const { rows, total } = await listLogs(ctx.db, scope, {
      offset: (q.p - 1) * q.page_size,
      limit: q.page_size,
    });
    const channelNames = self === null ? await channelNamesOf(ctx.db, rows) : null;
    return pageOf(
      rows.map((r) => toLogItem(r, channelNames)),
      q.p,
      q.page_size,
      total,
    );
  };

  const stat = async (query: unknown, self: number | null) => {
    const q = parseInput(logFilterQuery, query);
    return logStat(ctx.db, self === null ? q : selfScope(q, self), ctx.clock.now());
  };

  for (const url of withAndWithoutSlash('/api/log/')) {
    app.get(url, { config: { auth: 'admin' } }, async (req) => ok(await list(req.query, null)));
    app.delete(url, { config: { auth: 'root' } }, async (req) => {
      const { target_timestamp } = parseInput(logPurgeQuery, req.query);
      return ok(await deleteLogsBefore(ctx.db, target_timestamp));
    });
  }
  for (const url of withAndWithoutSlash('/api/log/self/')) {
    app.get(url, { config: { auth: 'user' } }, async (req) => ok(await list(req.query, currentUser(req).id)));
  }
  app.get('/api/log/stat', { config: { auth: 'admin' } }, async (req) => ok(await stat(req.query, null)));
  app.get('/api/log/self/stat', { config: { auth: 'user' } }, async (req) =>
    ok(await stat(req.query, currentUser(req).id)),
  );

  scheduleLogRetention(ctx);
}

/** A user's own rows only; the admin-only filters are dropped. */
function selfScope(filter: LogScope, userId: number): LogScope {
  const { username: _u, channel: _c, ...rest } = filter;
  return { ...rest, userId };
}
