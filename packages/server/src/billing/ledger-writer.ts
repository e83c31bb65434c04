// Group commit for the ledger: holds and settlements that arrive while a transaction is running wait
// and then go together in the next one, so a busy node pays one commit (and one UPDATE per user,
// token and channel) for many calls. Each caller still waits for its own commit, so nothing a client
// was told is lost on a crash; calls cut off before settling leave holds that the sweep refunds.
import type { Kysely } from 'kysely';
import type { DialectName } from '../db/create-db.js';
import type { Database } from '../db/tables.js';
import { applyReserve, applySettlements, inTransaction } from './ledger.js';
import type { HoldRequest, ReserveResult, Settlement } from './ledger.js';

interface Pending<I, O> {
  input: I;
  resolve(value: O): void;
  reject(error: unknown): void;
}

export interface LedgerWriter {
  reserve(req: HoldRequest): Promise<ReserveResult>;
  settle(settlement: Settlement): Promise<void>;
  /** Resolves when everything queued so far is committed. */
  drain(): Promise<void>;
}

/** Calls per transaction at most, so one commit never grows without bound. */
const MAX_BATCH = 500;

export function createLedgerWriter(db: Kysely<Database>, dialect: DialectName): LedgerWriter {
  let reserves: Pending<HoldRequest, ReserveResult>[] = [];
  let settles: Pending<Settlement, void>[] = [];
  let running: Promise<void> | undefined;

  async function commit(
    r: Pending<HoldRequest, ReserveResult>[],
    s: Pending<Settlement, void>[],
  ): Promise<void> {
    try {
      const results = await inTransaction(db, async (trx) => {
        // Settlements first: money coming back can only help the holds behind it.
        await applySettlements(
          trx,
          s.map((p) => p.input),
        );
        const out: ReserveResult[] = [];
        for (const p of r) out.push(await applyReserve(trx, dialect, p.input));
        return out;
      });
      s.forEach((p) => p.resolve());
      r.forEach((p, i) => p.resolve(results[i] as ReserveResult));
    } catch (error) {
      if (r.length + s.length === 1) {
        r.forEach((p) => p.reject(error));
        s.forEach((p) => p.reject(error));
        return;
      }
      // One bad entry must not sink the others: commit each on its own.
      await Promise.all([...r.map((p) => commit([p], [])), ...s.map((p) => commit([], [p]))]);
    }
  }

  async function run(): Promise<void> {
    // Let the calls of this event-loop turn join the first batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (reserves.length > 0 || settles.length > 0) {
      const s = settles.slice(0, MAX_BATCH);
      const r = reserves.slice(0, MAX_BATCH - s.length);
      settles = settles.slice(s.length);
      reserves = reserves.slice(r.length);
      await commit(r, s);
    }
    running = undefined;
  }

  const start = () => {
    running ??= run();
  };

  return {
    reserve(input) {
      return new Promise((resolve, reject) => {
        reserves.push({ input, resolve, reject });
        start();
      });
    },
    settle(input) {
      return new Promise((resolve, reject) => {
        settles.push({ input, resolve, reject });
        start();
      });
    },
    async drain() {
      while (running) await running;
    },
  };
}
