// Usage per model over time, from the hourly quota_data buckets, re-bucketed by hour, day or week.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DashboardGranularity, DashboardRow } from '@sluice/shared';
import type { Database } from '../../db/tables.js';

const HOUR = 3600;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
/** 1970-01-05 00:00 UTC, a Monday: weeks start on Mondays. */
const FIRST_MONDAY = 4 * DAY;

export interface DashboardScope {
  userId?: number;
  username?: string;
  start: number;
  end: number;
  granularity: DashboardGranularity;
  /** Seconds east of UTC; day and week buckets start at local midnight. */
  utcOffset: number;
}

/** Start of the bucket holding `t`, as arithmetic every dialect evaluates the same way. */
function bucketStart(granularity: DashboardGranularity, utcOffset: number) {
  const size = granularity === 'week' ? WEEK : granularity === 'day' ? DAY : HOUR;
  const shift = utcOffset - (granularity === 'week' ? FIRST_MONDAY : 0);
  // ((t + shift) mod size + size) mod size keeps the remainder non-negative in every dialect.
  // The numbers are validated integers, inlined as literals so GROUP BY sees one expression.
  const t = sql.ref('created_at');
  return sql<number>`${t} - (((${t} + ${sql.lit(shift)}) % ${sql.lit(size)} + ${sql.lit(size)}) % ${sql.lit(size)})`;
}

export async function usageByModel(db: Kysely<Database>, scope: DashboardScope): Promise<DashboardRow[]> {
  const bucket = bucketStart(scope.granularity, scope.utcOffset);
  let q = db
    .selectFrom('quota_data')
    .where('created_at', '>=', scope.start)
    .where('created_at', '<=', scope.end);
  if (scope.userId !== undefined) q = q.where('user_id', '=', scope.userId);
  if (scope.username !== undefined) q = q.where('username', '=', scope.username);
  const rows = await q
    .select((eb) => [
      'model_name',
      bucket.as('bucket'),
      eb.fn.sum<number>('count').as('count'),
      eb.fn.sum<number>('quota').as('quota'),
      eb.fn.sum<number>('token_used').as('token_used'),
    ])
    .groupBy(['model_name', bucket])
    .orderBy('bucket', 'asc')
    .orderBy('model_name', 'asc')
    .execute();
  return rows.map((r) => ({
    model_name: r.model_name,
    created_at: Number(r.bucket),
    count: Number(r.count),
    quota: Number(r.quota),
    token_used: Number(r.token_used),
  }));
}
