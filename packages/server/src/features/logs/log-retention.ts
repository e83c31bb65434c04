// Deletes logs older than LogRetentionDays (0 keeps them forever), hourly, on one node at a time.
import type { AppContext } from '../../app-context.js';
import { deleteLogsBefore } from './logs.repository.js';

export const LOG_RETENTION_JOB = 'log-retention';
const HOUR_MS = 3600 * 1000;

export async function purgeExpiredLogs(ctx: AppContext): Promise<number> {
  const days = ctx.options.get('LogRetentionDays');
  if (days <= 0) return 0;
  return deleteLogsBefore(ctx.db, ctx.clock.now() - days * 86400);
}

export function scheduleLogRetention(ctx: AppContext): void {
  ctx.scheduler.every(LOG_RETENTION_JOB, HOUR_MS, async () => {
    await purgeExpiredLogs(ctx);
  });
}
