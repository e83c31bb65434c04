// Where ledger batches are written: through Kysely on this thread (PostgreSQL, MySQL, in-memory
// SQLite), or, for a SQLite file, by a worker thread with its own connection. A batch
// inserts a log row per call into a table with several indexes and its WAL pages reach the disk:
// done on the relay's event loop, that was the largest cost of a call. The worker takes the planned
// statements (ledger-sql.ts) and runs them in one immediate transaction; the main thread only plans
// and posts. WAL mode lets the two connections share the file: the main connection's writes wait
// for a worker commit (a few milliseconds at most) through the busy timeout, and its transactions
// begin immediate (db/create-db.ts) so they never see a snapshot go stale under them.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.js';
import { balancesFrom, commitBatch, withRetries } from './ledger.js';
import type { LedgerStore, ReadBalances, Settlement } from './ledger.js';
import { planBatch } from './ledger-sql.js';
import type { SqlStep } from './ledger-sql.js';

// Plain JavaScript, run with `eval`, so it needs no build step (the tests run the sources).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
db.pragma('journal_mode = WAL');
db.pragma('busy_timeout = ' + workerData.busyTimeoutMs);
db.pragma('synchronous = NORMAL');
db.pragma('cache_size = ' + workerData.cacheSize);
const statements = new Map();
const prepare = (text) => {
  let statement = statements.get(text);
  if (!statement) statements.set(text, (statement = db.prepare(text)));
  return statement;
};
const runBatch = db.transaction((steps) =>
  steps.map((step) => (step.reads ? prepare(step.sql).all(step.args) : (prepare(step.sql).run(step.args), null))),
);
parentPort.on('message', (message) => {
  if (message.close) {
    db.close();
    parentPort.close();
    return;
  }
  try {
    parentPort.postMessage({ id: message.id, rows: runBatch.immediate(message.steps) });
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: { message: String(error && error.message), code: error && error.code } });
  }
});
`;

interface Reply {
  id: number;
  rows?: Array<unknown[] | null>;
  error?: { message: string; code?: string };
}

/** The SQLite busy timeout of the worker's connection, as the main connection's. */
const BUSY_TIMEOUT_MS = 5000;
/**
 * The worker's page cache (negative: KiB). better-sqlite3 is built with a 16 MB default; a connection
 * that only appends log rows and updates a few balance rows touches few pages, and with the default
 * its cache filled up under load and held 16 MB more resident memory than it needed.
 */
const WRITER_CACHE_SIZE = -2048;

export const kyselyLedgerStore = (db: Kysely<Database>): LedgerStore => ({
  commit: (settlements, read) => commitBatch(db, settlements, read),
  close: async () => undefined,
});

/** The store for a database: a writer thread for a SQLite file, this thread otherwise. */
export const createLedgerStore = (db: { db: Kysely<Database>; sqliteFile: string | null }): LedgerStore =>
  db.sqliteFile ? sqliteLedgerStore(db.db, db.sqliteFile) : kyselyLedgerStore(db.db);

/** Raised when the writer thread died during a batch: it may or may not have committed. */
export class LedgerOutcomeUnknown extends Error {
  readonly outcomeUnknown = true;
}

type Waiting = { resolve: (rows: Array<unknown[] | null>) => void; reject: (e: Error) => void };

export function sqliteLedgerStore(db: Kysely<Database>, path: string): LedgerStore {
  let worker: Worker | undefined;
  let closed = false;
  const pending = new Map<number, Waiting>();
  let next = 0;

  /** The writer thread, started on first use and again after it died. */
  const thread = (): Worker => {
    if (worker) return worker;
    const started = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        path,
        driver: createRequire(import.meta.url).resolve('better-sqlite3'),
        busyTimeoutMs: BUSY_TIMEOUT_MS,
        cacheSize: WRITER_CACHE_SIZE,
      },
      // It keeps little between batches: a small young generation keeps its memory small too.
      resourceLimits: { maxYoungGenerationSizeMb: 4 },
    });
    started.on('message', (reply: Reply) => {
      const waiting = pending.get(reply.id);
      if (!waiting) return;
      pending.delete(reply.id);
      if (pending.size === 0) started.unref();
      if (reply.error) {
        waiting.reject(Object.assign(new Error(reply.error.message), { code: reply.error.code }));
      } else waiting.resolve(reply.rows ?? []);
    });
    started.on('error', () => undefined); // 'exit' follows and says what matters
    started.on('exit', () => {
      if (worker === started) worker = undefined;
      const lost = new LedgerOutcomeUnknown('the ledger writer thread stopped during a batch');
      for (const { reject } of pending.values()) reject(lost);
      pending.clear();
    });
    // Only a batch in flight keeps the process alive; an idle ledger does not.
    started.unref();
    worker = started;
    return started;
  };

  const send = (steps: SqlStep[]): Promise<Array<unknown[] | null>> => {
    if (closed) return Promise.reject(new Error('the ledger writer thread is stopped'));
    const target = thread();
    const id = next++;
    if (pending.size === 0) target.ref();
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      target.postMessage({ id, steps });
    });
  };

  return {
    async commit(settlements: readonly Settlement[], read): Promise<ReadBalances> {
      const steps = planBatch(db, settlements, read);
      return balancesFrom(steps, await withRetries(() => send(steps)));
    },
    pending: () => pending.size,
    async close() {
      closed = true;
      const running = worker;
      if (!running) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.ref();
      running.postMessage({ close: true });
      await exited;
    },
  };
}
