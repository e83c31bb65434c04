// The database side of the quota ledger. Calls reserve and settle in memory (balance-book.ts); what
// they settled is written here in batches: one transaction per batch, one UPDATE per user, token and
// channel touched (SQL increments, never read-modify-write, so writers on other nodes are never
// overwritten) and one multi-row log insert. A batch is all or nothing, so the database always holds
// whole batches: the logs sum to what users, tokens and channels were charged.
import { sql } from 'kysely';
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { Database, LogsTable } from '../db/tables.js';

export type Trx = Transaction<Database>;

export interface HoldRequest {
  userId: number;
  /** Null for calls billed to the user directly (the console playground). */
  tokenId: number | null;
  /** An unlimited token is not checked (the user still is). */
  unlimitedToken: boolean;
  amount: number;
}

/** Quota a call has set aside in memory until it settles. */
export interface Hold {
  userId: number;
  tokenId: number | null;
  amount: number;
}

export type ReserveResult = { ok: true; hold: Hold } | { ok: false; short: 'token' | 'user' };

export interface Settlement {
  hold: Hold;
  /** What the call costs; 0 releases the whole hold. */
  quota: number;
  /** 0 when no channel answered. */
  channelId: number;
  /** Counts toward the user's request_count (a call that reached a model). */
  countRequest: boolean;
  log?: Insertable<LogsTable>;
  /** Unix seconds. */
  now: number;
}

/** Balances read back after a batch: user quota and token remain_quota by id. */
export interface ReadBalances {
  users: Map<number, number>;
  tokens: Map<number, number>;
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

/** Writes many settled calls: one UPDATE per row touched, whatever the number of calls. */
export async function applySettlements(trx: Trx, settlements: readonly Settlement[]): Promise<void> {
  // [charged] per token; [charged, requests] per user; [charged] per channel.
  const tokens = new Map<number, number[]>();
  const users = new Map<number, number[]>();
  const channels = new Map<number, number[]>();
  const accessed = new Map<number, number>();
  const logs: Insertable<LogsTable>[] = [];
  for (const s of settlements) {
    if (s.hold.tokenId !== null) {
      add(tokens, s.hold.tokenId, [s.quota]);
      accessed.set(s.hold.tokenId, Math.max(accessed.get(s.hold.tokenId) ?? 0, s.now));
    }
    add(users, s.hold.userId, [s.quota, s.countRequest ? 1 : 0]);
    if (s.channelId > 0 && s.quota !== 0) add(channels, s.channelId, [s.quota]);
    if (s.log) logs.push(s.log);
  }
  for (const [id, [used = 0]] of sorted(tokens)) {
    await trx
      .updateTable('tokens')
      .set({
        remain_quota: sql`remain_quota - ${used}`,
        used_quota: sql`used_quota + ${used}`,
        accessed_time: accessed.get(id) ?? 0,
      })
      .where('id', '=', id)
      .execute();
  }
  for (const [id, [used = 0, requests = 0]] of sorted(users)) {
    if (used === 0 && requests === 0) continue;
    await trx
      .updateTable('users')
      .set({
        quota: sql`quota - ${used}`,
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

/** The current balances of the given users and tokens (inside the batch's transaction: after it). */
export async function readBalances(
  trx: Trx | Kysely<Database>,
  userIds: readonly number[],
  tokenIds: readonly number[],
): Promise<ReadBalances> {
  const out: ReadBalances = { users: new Map(), tokens: new Map() };
  for (const ids of chunks([...userIds])) {
    const rows = await trx.selectFrom('users').select(['id', 'quota']).where('id', 'in', ids).execute();
    for (const row of rows) out.users.set(Number(row.id), Number(row.quota));
  }
  for (const ids of chunks([...tokenIds])) {
    const rows = await trx
      .selectFrom('tokens')
      .select(['id', 'remain_quota'])
      .where('id', 'in', ids)
      .execute();
    for (const row of rows) out.tokens.set(Number(row.id), Number(row.remain_quota));
  }
  return out;
}

/** One batch: the settlements, then the balances of every account touched or asked for. */
export const commitBatch = (
  db: Kysely<Database>,
  settlements: readonly Settlement[],
  read: { users: Iterable<number>; tokens: Iterable<number> },
): Promise<ReadBalances> =>
  inTransaction(db, async (trx) => {
    if (settlements.length > 0) await applySettlements(trx, settlements);
    const users = new Set(read.users);
    const tokens = new Set(read.tokens);
    for (const s of settlements) {
      users.add(s.hold.userId);
      if (s.hold.tokenId !== null) tokens.add(s.hold.tokenId);
    }
    return readBalances(trx, [...users], [...tokens]);
  });
