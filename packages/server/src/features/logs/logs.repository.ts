// Reading, summing and purging the logs table. Every filter is an equality on an indexed column
// (each index is <column, created_at>), and rows come newest first by created_at, so a page is read
// straight off one index. (A request id has none — every relay call's row would pay for it — so that
// rare lookup reads the rows of the period and filters.)
import { sql } from 'kysely';
import type { Kysely, SelectQueryBuilder, Transaction } from 'kysely';
import { LOG_TYPE } from '@sluice/shared';
import type { LogFilter, LogItem, LogStat } from '@sluice/shared';
import type { Database, LogRow } from '../../db/tables.js';

type Executor = Kysely<Database> | Transaction<Database>;

/** The filters of a list or stat call; `userId` pins the self routes to the caller. */
export interface LogScope extends LogFilter {
  userId?: number;
}

function filtered<O>(q: SelectQueryBuilder<Database, 'logs', O>, f: LogScope) {
  let out = q;
  if (f.userId !== undefined) out = out.where('user_id', '=', f.userId);
  if (f.type) {
    // A handful of types cover every row, so the type index is the worst choice whenever a
    // per-user, token, model or channel filter is present; without table statistics SQLite may
    // still pick it (measured: a user's stat scanned all consumption rows). `type + 0` keeps the
    // condition but takes the type index out of the running in every dialect.
    const narrower =
      f.userId !== undefined ||
      f.username !== undefined ||
      f.token_name !== undefined ||
      f.model_name !== undefined ||
      f.channel !== undefined ||
      f.request_id !== undefined;
    out = narrower
      ? out.where(sql<number>`${sql.ref('type')} + 0`, '=', f.type)
      : out.where('type', '=', f.type);
  }
  if (f.username !== undefined) out = out.where('username', '=', f.username);
  if (f.token_name !== undefined) out = out.where('token_name', '=', f.token_name);
  if (f.model_name !== undefined) out = out.where('model_name', '=', f.model_name);
  if (f.channel !== undefined) out = out.where('channel_id', '=', f.channel);
  if (f.request_id !== undefined) out = out.where('request_id', '=', f.request_id);
  if (f.start_timestamp !== undefined) out = out.where('created_at', '>=', f.start_timestamp);
  if (f.end_timestamp !== undefined) out = out.where('created_at', '<=', f.end_timestamp);
  return out;
}

export async function listLogs(
  db: Kysely<Database>,
  scope: LogScope,
  page: { offset: number; limit: number },
): Promise<{ rows: LogRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    filtered(db.selectFrom('logs').selectAll(), scope)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    filtered(db.selectFrom('logs'), scope)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst(),
  ]);
  return { rows, total: Number(count?.n ?? 0) };
}

/**
 * Consumption within the filters: total quota, and requests (rpm) and tokens (tpm) of the last 60
 * seconds. Only type 2 rows count, whatever type the filter names.
 */
export async function logStat(db: Kysely<Database>, scope: LogScope, now: number): Promise<LogStat> {
  const consume: LogScope = { ...scope, type: LOG_TYPE.consume };
  const [total, recent] = await Promise.all([
    filtered(db.selectFrom('logs'), consume)
      .select((eb) => eb.fn.sum<number | null>('quota').as('quota'))
      .executeTakeFirst(),
    filtered(db.selectFrom('logs'), consume)
      .where('created_at', '>=', now - 60)
      .select((eb) => [
        eb.fn.countAll<number>().as('rpm'),
        sql<number | null>`SUM(${sql.ref('prompt_tokens')} + ${sql.ref('completion_tokens')})`.as('tpm'),
      ])
      .executeTakeFirst(),
  ]);
  return {
    quota: Number(total?.quota ?? 0),
    rpm: Number(recent?.rpm ?? 0),
    tpm: Number(recent?.tpm ?? 0),
  };
}

/**
 * Deletes logs created before `before` (unix seconds) in batches, so a purge of millions of rows
 * never holds the write lock long enough to stall the relay's own log writes. Returns rows removed.
 */
export async function deleteLogsBefore(db: Kysely<Database>, before: number, batch = 5000): Promise<number> {
  let removed = 0;
  for (;;) {
    const ids = await db
      .selectFrom('logs')
      .select('id')
      .where('created_at', '<', before)
      .limit(batch)
      .execute();
    if (ids.length === 0) break;
    const result = await db
      .deleteFrom('logs')
      .where(
        'id',
        'in',
        ids.map((r) => Number(r.id)),
      )
      .executeTakeFirst();
    removed += Number(result.numDeletedRows);
    if (ids.length < batch) break;
  }
  return removed;
}

/**
 * The current names of the channels a page of rows names, by id: admins see which channel served a
 * call by name, as the classic console shows it. A deleted channel has no entry.
 */
export async function channelNamesOf(
  db: Kysely<Database>,
  rows: readonly LogRow[],
): Promise<Map<number, string>> {
  const ids = [...new Set(rows.map((r) => Number(r.channel_id)).filter((id) => id > 0))];
  if (ids.length === 0) return new Map();
  const channels = await db.selectFrom('channels').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(channels.map((c) => [Number(c.id), c.name]));
}

/**
 * A log row as the console receives it. Admins get the channel's id and current name (`channelNames`
 * from channelNamesOf); users never see the channel or other.admin_info.
 */
export function toLogItem(row: LogRow, channelNames: ReadonlyMap<number, string> | null): LogItem {
  const asAdmin = channelNames !== null;
  const item: LogItem = {
    id: Number(row.id),
    user_id: Number(row.user_id),
    created_at: Number(row.created_at),
    type: row.type,
    content: row.content,
    username: row.username,
    token_name: row.token_name,
    token_id: Number(row.token_id),
    model_name: row.model_name,
    quota: Number(row.quota),
    prompt_tokens: row.prompt_tokens,
    completion_tokens: row.completion_tokens,
    use_time: row.use_time,
    is_stream: row.is_stream === 1,
    group: row.group,
    ip: row.ip,
    other: asAdmin ? row.other : withoutAdminInfo(row.other),
    request_id: row.request_id,
  };
  if (asAdmin) {
    item.channel = Number(row.channel_id);
    item.channel_name = channelNames.get(item.channel) ?? '';
  }
  return item;
}

function withoutAdminInfo(other: string): string {
  if (other.trim() === '') return other;
  let parsed: unknown;
  try {
    parsed = JSON.parse(other);
  } catch {
    // Unreadable details may hide anything; a user gets none rather than a leak.
    return '';
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return other;
  const { admin_info: _hidden, ...rest } = parsed as Record<string, unknown>;
  return JSON.stringify(rest);
}

export interface NewLogEntry {
  userId: number;
  username: string;
  type: number;
  content: string;
  createdAt: number;
  quota?: number;
  /** The row's facts as JSON (log-text.ts). */
  other?: string;
}

/** Writes a non-consumption log row (top-ups, admin and system events). */
export async function recordLog(db: Executor, entry: NewLogEntry): Promise<void> {
  await db
    .insertInto('logs')
    .values({
      user_id: entry.userId,
      username: entry.username,
      created_at: entry.createdAt,
      type: entry.type,
      content: entry.content,
      quota: entry.quota ?? 0,
      other: entry.other ?? '',
    })
    .execute();
}
