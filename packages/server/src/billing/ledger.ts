// The database side of the quota ledger. Calls reserve and settle in memory (balance-book.ts); what
// they settled is written in batches (ledger-writer.ts), each one transaction planned by
// ledger-sql.ts and run by a ledger store: on this thread through Kysely (PostgreSQL, MySQL), or on a
// SQLite file by a worker thread with its own connection (sqlite-ledger-store.ts), so the relay's
// event loop never waits for the disk. A batch is all or nothing, so the database always holds whole
// batches: the logs sum to what users, tokens and channels were charged.
import { CompiledQuery } from 'kysely';
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { Database, LogsTable } from '../db/tables.js';
import { planBatch } from './ledger-sql.js';
import type { SqlStep } from './ledger-sql.js';

export type Trx = Transaction<Database>;

export interface HoldRequest {
  userId: number;
  /** Null for calls billed to the user directly (the console playground). */
  tokenId: number | null;
  /** An unlimited token is not checked (the user still is). */
  unlimitedToken: boolean;
  amount: number;
  /**
   * When the balance left is below `amount`: the smaller hold the call can still run on (its output
   * is then capped to it), or undefined to refuse. Called inside the atomic reserve step.
   */
  fit?: (available: number) => number | undefined;
}

/** Quota a call has set aside in memory until it settles. */
export interface Hold {
  userId: number;
  tokenId: number | null;
  /** The token's own balance is not checked, when it grows either. */
  unlimitedToken?: boolean;
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
    e?.code === 'SQLITE_BUSY' ||
    e?.code === 'SQLITE_BUSY_SNAPSHOT'
  );
}

/** Runs `work` again (up to five times, with a short pause) while it fails with a retryable error. */
export async function withRetries<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= 5 || !isRetryable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, attempt * 5 + Math.random() * 10));
    }
  }
}

/**
 * Runs a transaction that moves money, again while it fails with a deadlock or a serialization
 * failure (it then had no effect). Such transactions lock the rows they change in one order: users,
 * then tokens, then channels, each in id order (a ledger batch's plan in ledger-sql.ts, a task's
 * charge and refund in task-ledger.ts), so no two of them wait on each other in a cycle.
 */
export const inTransaction = <T>(db: Kysely<Database>, work: (trx: Trx) => Promise<T>): Promise<T> =>
  withRetries(() => db.transaction().execute(work));

/** Writes batches: the settlements, then the balances of every account touched or asked for. */
export interface LedgerStore {
  commit(
    settlements: readonly Settlement[],
    read: { users: Iterable<number>; tokens: Iterable<number> },
  ): Promise<ReadBalances>;
  close(): Promise<void>;
  /** Batches handed to a writer thread and not answered yet (stores with one). */
  pending?(): number;
}

/** The balances in the rows of a batch's read steps. */
export function balancesFrom(steps: readonly SqlStep[], rows: ReadonlyArray<unknown[] | null>): ReadBalances {
  const out: ReadBalances = { users: new Map(), tokens: new Map() };
  steps.forEach((s, i) => {
    if (!s.reads) return;
    for (const row of (rows[i] ?? []) as Array<Record<string, unknown>>) {
      if (s.reads === 'users') out.users.set(Number(row.id), Number(row.quota));
      else out.tokens.set(Number(row.id), Number(row.remain_quota));
    }
  });
  return out;
}

/** One batch in one transaction through Kysely, on this thread. */
export const commitBatch = (
  db: Kysely<Database>,
  settlements: readonly Settlement[],
  read: { users: Iterable<number>; tokens: Iterable<number> },
): Promise<ReadBalances> => {
  const steps = planBatch(db, settlements, read);
  return inTransaction(db, async (trx) => {
    const rows: Array<unknown[] | null> = [];
    for (const s of steps) {
      const result = await trx.executeQuery(CompiledQuery.raw(s.sql, s.args));
      rows.push(s.reads ? (result.rows as unknown[]) : null);
    }
    return balancesFrom(steps, rows);
  });
};
