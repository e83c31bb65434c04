// Quota movements, each in one transaction with SQL increments (never read-modify-write), so
// concurrent calls on any node cannot lose an update. A call holds quota before it goes upstream
// (reserve) and then settles to the exact amount, writing its log row in the same transaction:
// the logs always sum to what the user, the token and the channel were charged. Each hold is also a
// quota_holds row until it settles, so a crash mid-call cannot keep quota: stale holds are refunded.
import { sql } from 'kysely';
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { DialectName } from '../db/create-db.js';
import { insertId } from '../db/insert-id.js';
import type { Database, LogsTable } from '../db/tables.js';

type Trx = Transaction<Database>;

export interface HoldRequest {
  userId: number;
  /** Null for calls billed to the user directly (the console playground). */
  tokenId: number | null;
  amount: number;
}

export interface Hold extends HoldRequest {
  /** The quota_holds row; null when nothing was held (a free call). */
  id: number | null;
}

export type ReserveResult = { ok: true; hold: Hold } | { ok: false; short: 'token' | 'user' };

class Short extends Error {
  constructor(readonly short: 'token' | 'user') {
    super(`not enough ${short} quota`);
  }
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

async function inTransaction<T>(db: Kysely<Database>, work: (trx: Trx) => Promise<T>): Promise<T> {
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
export async function reserveQuota(
  db: Kysely<Database>,
  dialect: DialectName,
  hold: HoldRequest,
  now: number,
): Promise<ReserveResult> {
  if (hold.amount <= 0) return { ok: true, hold: { ...hold, id: null } };
  try {
    const id = await inTransaction(db, async (trx) => {
      // Rows are locked in one order everywhere (hold, token, user, channel) so calls never deadlock.
      const row = { user_id: hold.userId, token_id: hold.tokenId ?? 0, amount: hold.amount, created_at: now };
      const holdId = await insertId(trx.insertInto('quota_holds').values(row), dialect);
      if (hold.tokenId !== null) {
        const token = await trx
          .updateTable('tokens')
          .set({ remain_quota: sql`remain_quota - ${hold.amount}` })
          .where('id', '=', hold.tokenId)
          .where((eb) => eb.or([eb('unlimited_quota', '=', 1), eb('remain_quota', '>=', hold.amount)]))
          .executeTakeFirst();
        if (Number(token.numUpdatedRows) === 0) throw new Short('token');
      }
      const user = await trx
        .updateTable('users')
        .set({ quota: sql`quota - ${hold.amount}` })
        .where('id', '=', hold.userId)
        .where('quota', '>=', hold.amount)
        .executeTakeFirst();
      if (Number(user.numUpdatedRows) === 0) throw new Short('user');
      return holdId;
    });
    return { ok: true, hold: { ...hold, id } };
  } catch (error) {
    if (error instanceof Short) return { ok: false, short: error.short };
    throw error;
  }
}

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

/** Replaces the hold by the final charge on token, user and channel, and writes the log row. */
export async function settleQuota(db: Kysely<Database>, s: Settlement): Promise<void> {
  await inTransaction(db, async (trx) => {
    // A hold the stale-hold sweep already refunded is no longer there to replace.
    let held = 0;
    if (s.hold.id !== null) {
      const gone = await trx.deleteFrom('quota_holds').where('id', '=', s.hold.id).executeTakeFirst();
      if (Number(gone.numDeletedRows) > 0) held = s.hold.amount;
    }
    const delta = s.quota - held;
    if (s.hold.tokenId !== null && (delta !== 0 || s.quota !== 0)) {
      await trx
        .updateTable('tokens')
        .set({
          remain_quota: sql`remain_quota - ${delta}`,
          used_quota: sql`used_quota + ${s.quota}`,
          accessed_time: s.now,
        })
        .where('id', '=', s.hold.tokenId)
        .execute();
    }
    if (delta !== 0 || s.quota !== 0 || s.countRequest) {
      await trx
        .updateTable('users')
        .set({
          quota: sql`quota - ${delta}`,
          used_quota: sql`used_quota + ${s.quota}`,
          request_count: sql`request_count + ${s.countRequest ? 1 : 0}`,
        })
        .where('id', '=', s.hold.userId)
        .execute();
    }
    if (s.channelId > 0 && s.quota !== 0) {
      await trx
        .updateTable('channels')
        .set({ used_quota: sql`used_quota + ${s.quota}` })
        .where('id', '=', s.channelId)
        .execute();
    }
    if (s.log) await trx.insertInto('logs').values(s.log).execute();
  });
}

/**
 * Refunds holds older than `before` (unix seconds): calls that a crash or a kill cut off before they
 * settled. A call that is still running just settles without its hold. Returns how many were refunded.
 */
export async function refundStaleHolds(db: Kysely<Database>, before: number): Promise<number> {
  const stale = await db.selectFrom('quota_holds').selectAll().where('created_at', '<', before).limit(1000).execute();
  let refunded = 0;
  for (const row of stale) {
    const hold: Hold = {
      id: Number(row.id),
      userId: Number(row.user_id),
      tokenId: Number(row.token_id) === 0 ? null : Number(row.token_id),
      amount: Number(row.amount),
    };
    await inTransaction(db, async (trx) => {
      const gone = await trx.deleteFrom('quota_holds').where('id', '=', row.id).executeTakeFirst();
      if (Number(gone.numDeletedRows) === 0) return;
      if (hold.tokenId !== null) {
        await trx
          .updateTable('tokens')
          .set({ remain_quota: sql`remain_quota + ${hold.amount}` })
          .where('id', '=', hold.tokenId)
          .execute();
      }
      await trx
        .updateTable('users')
        .set({ quota: sql`quota + ${hold.amount}` })
        .where('id', '=', hold.userId)
        .execute();
      refunded++;
    });
  }
  return refunded;
}
