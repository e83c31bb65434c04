// Quota movements in SQL increments (never read-modify-write), so concurrent calls on any node cannot
// lose an update. A call holds quota before it goes upstream (reserve) and then settles to the exact
// amount, its log row written in the same transaction: the logs always sum to what the user, the token
// and the channel were charged. Each hold is a quota_holds row until it settles, so a crash mid-call
// cannot keep quota: stale holds are refunded. Many calls share one transaction (ledger-writer.ts).
import { sql } from 'kysely';
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { DialectName } from '../db/create-db.js';
import { insertId } from '../db/insert-id.js';
import type { Database, LogsTable } from '../db/tables.js';

export type Trx = Transaction<Database>;

export interface HoldRequest {
  userId: number;
  /** Null for calls billed to the user directly (the console playground). */
  tokenId: number | null;
  amount: number;
  /** Unix seconds. */
  now: number;
}

export interface Hold {
  userId: number;
  tokenId: number | null;
  amount: number;
  /** The quota_holds row; null when nothing was held (a free call). */
  id: number | null;
}

export type ReserveResult = { ok: true; hold: Hold } | { ok: false; short: 'token' | 'user' };

export interface Settlement {
  hold: Hold;
  /** What the call costs; 0 refunds the whole hold. */
  quota: number;
  /** 0 when no channel answered. */
  channelId: number;
  /** Counts toward the user's request_count (a call that reached a model). */
  countRequest: boolean;
  log?: Insertable<LogsTable>;
  now: number;
}

/** Deadlocks and serialization failures are retried: the transaction had no effect. */
function isRetryable(error: unknown): boolean {
  const e = error as { code?: unknown; errno?: unknown };
  return (
    e?.code === '40P01' ||
    e?.code === '40001' ||
    e?.errno === 1213 ||
    e?.errno === 1205 ||
    e?.code === 'SQLITE_BUSY'
  );
}

export async function inTransaction<T>(db: Kysely<Database>, work: (trx: Trx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      if (attempt >= 5 || !isRetryable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, attempt * 5 + Math.random() * 10));
    }
  }
}

/** Takes `amount` from the token (unless unlimited) and from the user, or from neither. */
export async function applyReserve(trx: Trx, dialect: DialectName, req: HoldRequest): Promise<ReserveResult> {
  const base = { userId: req.userId, tokenId: req.tokenId, amount: req.amount };
  if (req.amount <= 0) return { ok: true, hold: { ...base, id: null } };
  if (req.tokenId !== null) {
    const token = await trx
      .updateTable('tokens')
      .set({ remain_quota: sql`remain_quota - ${req.amount}` })
      .where('id', '=', req.tokenId)
      .where((eb) => eb.or([eb('unlimited_quota', '=', 1), eb('remain_quota', '>=', req.amount)]))
      .executeTakeFirst();
    if (Number(token.numUpdatedRows) === 0) return { ok: false, short: 'token' };
  }
  const user = await trx
    .updateTable('users')
    .set({ quota: sql`quota - ${req.amount}` })
    .where('id', '=', req.userId)
    .where('quota', '>=', req.amount)
    .executeTakeFirst();
  if (Number(user.numUpdatedRows) === 0) {
    // Give the token back its part: the transaction also carries other calls, so no rollback.
    if (req.tokenId !== null) {
      await trx
        .updateTable('tokens')
        .set({ remain_quota: sql`remain_quota + ${req.amount}` })
        .where('id', '=', req.tokenId)
        .execute();
    }
    return { ok: false, short: 'user' };
  }
  const row = { user_id: req.userId, token_id: req.tokenId ?? 0, amount: req.amount, created_at: req.now };
  const id = await insertId(trx.insertInto('quota_holds').values(row), dialect);
  return { ok: true, hold: { ...base, id } };
}

const CHUNK = 500;
const chunks = <T>(items: T[]): T[][] =>
  Array.from({ length: Math.ceil(items.length / CHUNK) }, (_, i) => items.slice(i * CHUNK, (i + 1) * CHUNK));

function add<K>(map: Map<K, number[]>, key: K, values: number[]): void {
  const sums = map.get(key);
  if (!sums) map.set(key, [...values]);
  else values.forEach((v, i) => (sums[i] = (sums[i] ?? 0) + v));
}

/** Id order everywhere, so transactions of different nodes lock rows in the same order. */
const sorted = <V>(map: Map<number, V>): [number, V][] => [...map].sort((a, b) => a[0] - b[0]);

/**
 * Replaces holds by final charges on tokens, users and channels and writes the log rows, for many
 * calls at once: one UPDATE per row touched, whatever the number of calls.
 */
export async function applySettlements(trx: Trx, settlements: readonly Settlement[]): Promise<void> {
  // A hold the stale-hold sweep already refunded is no longer there to replace.
  const holdIds = settlements.flatMap((s) => (s.hold.id === null ? [] : [s.hold.id]));
  const present = new Set<number>();
  for (const ids of chunks(holdIds)) {
    const rows = await trx.selectFrom('quota_holds').select('id').where('id', 'in', ids).execute();
    for (const row of rows) present.add(Number(row.id));
    await trx.deleteFrom('quota_holds').where('id', 'in', ids).execute();
  }
  // [remain delta, used] per token; [quota delta, used, requests] per user; [used] per channel.
  const tokens = new Map<number, number[]>();
  const users = new Map<number, number[]>();
  const channels = new Map<number, number[]>();
  const accessed = new Map<number, number>();
  const logs: Insertable<LogsTable>[] = [];
  for (const s of settlements) {
    const held = s.hold.id !== null && present.has(s.hold.id) ? s.hold.amount : 0;
    const delta = s.quota - held;
    if (s.hold.tokenId !== null) {
      add(tokens, s.hold.tokenId, [delta, s.quota]);
      accessed.set(s.hold.tokenId, Math.max(accessed.get(s.hold.tokenId) ?? 0, s.now));
    }
    add(users, s.hold.userId, [delta, s.quota, s.countRequest ? 1 : 0]);
    if (s.channelId > 0 && s.quota !== 0) add(channels, s.channelId, [s.quota]);
    if (s.log) logs.push(s.log);
  }
  for (const [id, [delta = 0, used = 0]] of sorted(tokens)) {
    if (delta === 0 && used === 0) continue;
    await trx
      .updateTable('tokens')
      .set({
        remain_quota: sql`remain_quota - ${delta}`,
        used_quota: sql`used_quota + ${used}`,
        accessed_time: accessed.get(id) ?? 0,
      })
      .where('id', '=', id)
      .execute();
  }
  for (const [id, [delta = 0, used = 0, requests = 0]] of sorted(users)) {
    if (delta === 0 && used === 0 && requests === 0) continue;
    await trx
      .updateTable('users')
      .set({
        quota: sql`quota - ${delta}`,
        used_quota: sql`used_quota + ${used}`,
        request_count: sql`request_count + ${requests}`,
      })
      .where('id', '=', id)
      .execute();
  }
  for (const [id, [used = 0]] of sorted(channels)) {
    await trx
      .updateTable('channels')
      .set({ used_quota: sql`used_quota + ${used}` })
      .where('id', '=', id)
      .execute();
  }
  for (const rows of chunks(logs)) await trx.insertInto('logs').values(rows).execute();
}

/** One hold, in its own transaction. */
export const reserveQuota = (
  db: Kysely<Database>,
  dialect: DialectName,
  req: HoldRequest,
): Promise<ReserveResult> => inTransaction(db, (trx) => applyReserve(trx, dialect, req));

/** One settlement, in its own transaction. */
export const settleQuota = (db: Kysely<Database>, s: Settlement): Promise<void> =>
  inTransaction(db, (trx) => applySettlements(trx, [s]));

/**
 * Refunds holds older than `before` (unix seconds): calls that a crash or a kill cut off before they
 * settled. A call that is still running just settles without its hold. Returns how many were refunded.
 */
export async function refundStaleHolds(db: Kysely<Database>, before: number): Promise<number> {
  const stale = await db
    .selectFrom('quota_holds')
    .selectAll()
    .where('created_at', '<', before)
    .limit(1000)
    .execute();
  let refunded = 0;
  for (const row of stale) {
    await inTransaction(db, async (trx) => {
      const gone = await trx.deleteFrom('quota_holds').where('id', '=', row.id).executeTakeFirst();
      if (Number(gone.numDeletedRows) === 0) return;
      const amount = Number(row.amount);
      if (Number(row.token_id) !== 0) {
        await trx
          .updateTable('tokens')
          .set({ remain_quota: sql`remain_quota + ${amount}` })
          .where('id', '=', Number(row.token_id))
          .execute();
      }
      await trx
        .updateTable('users')
        .set({ quota: sql`quota + ${amount}` })
        .where('id', '=', Number(row.user_id))
        .execute();
      refunded++;
    });
  }
  return refunded;
}
