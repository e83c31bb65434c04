// The ledger of a node: holds and settlements in memory (balance-book.ts), written to the database
// in batches (group commit). A settled call is queued and its client answered at once; every
// FLUSH_MS (or as soon as MAX_BATCH calls wait) the queue goes to the database in one transaction.
// Crash bound: a SIGKILL loses the calls settled since the last commit (at most one flush interval
// plus the commit running) — they are not charged; nothing is ever charged twice, and the database
// holds whole batches only. Holds are never written: a call cut off by a crash leaves nothing behind.
// Balances are read in the writer's own loop (never while one of its batches commits), so a read is
// always exactly "everything committed" and the queued charges are counted on top of it.
import type { CacheBus } from '../platform/cache-bus.js';
import { createBalanceBook } from './balance-book.js';
import type { Kind } from './balance-book.js';
import type { ClusterHolds } from './cluster-holds.js';
import { createClusterLedger } from './cluster-ledger.js';
import type { Hold, HoldRequest, LedgerStore, ReadBalances, ReserveResult, Settlement } from './ledger.js';

export interface LedgerWriter {
  /** Sets quota aside in memory (reads the balances from the database on first use only). */
  reserve(req: HoldRequest): Promise<ReserveResult>;
  /**
   * Takes up to `extra` more for a call in flight (a stream that produced more than it held), as far
   * as the balances allow (all of it or nothing when `whole`), in one atomic step; returns what it
   * took. A hold of 0 cannot grow.
   */
  extend(hold: Hold, extra: number, whole?: boolean): Promise<number>;
  /** Charges the call in memory and queues the write; the caller does not wait for it. */
  settle(settlement: Settlement): void;
  /** What the token can still spend, when it is loaded. */
  tokenAvailable(tokenId: number): number | undefined;
  /** Resolves when everything settled so far is committed. */
  drain(): Promise<void>;
  /**
   * Waits (up to CLOSE_WAIT_MS) for calls still holding quota to settle — at shutdown their clients
   * were just cut off and they are settling what they produced — then drains, stops listening to the
   * cache bus and closes the store.
   */
  close(): Promise<void>;
  /** Stops without writing what is queued — what a SIGKILL does (for the crash-bound test). */
  abandon(): void;
  /** Settled calls not written yet. */
  queued(): number;
  /** Batches the store's writer thread has not answered yet; undefined for a store without one. */
  writerPending(): number | undefined;
  /**
   * Calls `listener` after every committed batch, in the writer's loop (never on a request's path).
   * It must return at once: slow work goes on its own queue. Returns the function that stops it.
   */
  onCommitted(listener: CommitListener): () => void;
}

/** What a committed batch tells listeners (the quota warning, for one). */
export interface CommittedBatch {
  /** Users whose quota the batch charged (more than 0). */
  charged: ReadonlySet<number>;
  /** User quotas read in the batch's transaction: the charged users' and any re-read ones. */
  userBalances: ReadonlyMap<number, number>;
}

export type CommitListener = (batch: CommittedBatch) => void;

export interface LedgerWriterOptions {
  bus?: CacheBus;
  /** Cluster mode: holds are taken where every node sees them (cluster-holds.ts). */
  cluster?: ClusterHolds;
  flushMs?: number;
  onError?: (error: unknown, settlement?: Settlement) => void;
  /** After each committed batch of calls: how many, and how long ago the oldest was settled. */
  onBatch?: (calls: number, lagMs: number) => void;
}

export const FLUSH_MS = 25;
/** Calls per transaction at most, so one commit never grows without bound. */
const MAX_BATCH = 1000;
/** The longest close waits for calls in flight to settle. */
const CLOSE_WAIT_MS = 5_000;

export function createLedgerWriter(store: LedgerStore, options: LedgerWriterOptions = {}): LedgerWriter {
  const flushMs = options.flushMs ?? FLUSH_MS;
  const onError = options.onError ?? (() => undefined);
  const onBatch = options.onBatch;
  const book = createBalanceBook();
  let queue: Settlement[] = [];
  /** When each queued call was settled (Date.now()), in queue order: a batch's lag is its first's. */
  let settledAt: number[] = [];
  const loads: Record<Kind, Set<number>> = { users: new Set(), tokens: new Set() };
  /** Resolved at the end of the next cycle that starts. */
  let waiters: Array<() => void> = [];
  let running = false;
  /** The cycle in progress. */
  let current: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const listeners = new Set<CommitListener>();
  const shared = options.cluster
    ? createClusterLedger(options.cluster, book, {
        onError: (error) => onError(error),
        onRefresh: () => schedule(false),
        readAgain: () => nextCycle(),
      })
    : undefined;

  /** The book takes the committed balances, then the listeners hear of them. */
  function committed(
    batch: readonly Settlement[],
    read: ReadBalances,
    asked: { users: number[]; tokens: number[] },
  ): void {
    book.committed(batch, read, asked);
    if (listeners.size === 0 || read.users.size === 0) return;
    const charged = new Set<number>();
    for (const s of batch) if (s.quota > 0) charged.add(s.hold.userId);
    for (const listener of listeners) {
      try {
        listener({ charged, userBalances: read.users });
      } catch {
        // A listener's failure is its own; the ledger goes on.
      }
    }
  }

  async function cycle(): Promise<void> {
    const batch = queue.length > MAX_BATCH ? queue.splice(0, MAX_BATCH) : queue;
    const oldestMs = settledAt[0] ?? 0;
    if (batch === queue) {
      queue = [];
      settledAt = [];
    } else settledAt.splice(0, MAX_BATCH);
    await shared?.resyncIfNeeded();
    const asked = {
      users: [
        ...new Set([...loads.users, ...book.takeStale('users'), ...(shared?.takeRefresh('users') ?? [])]),
      ],
      tokens: [
        ...new Set([...loads.tokens, ...book.takeStale('tokens'), ...(shared?.takeRefresh('tokens') ?? [])]),
      ],
    };
    loads.users.clear();
    loads.tokens.clear();
    const done = waiters;
    waiters = [];
    try {
      if (batch.length === 0 && asked.users.length === 0 && asked.tokens.length === 0) {
        // Nothing to write or read; in cluster mode, holds given back still go to Redis.
        await shared?.beforeCommit(batch, asked);
        return;
      }
      const before = await shared?.beforeCommit(batch, asked);
      try {
        committed(batch, await store.commit(batch, asked), asked);
        await shared?.afterCommit(batch, asked, before);
        if (onBatch && batch.length > 0) onBatch(batch.length, Date.now() - oldestMs);
      } catch (error) {
        if ((error as { outcomeUnknown?: boolean }).outcomeUnknown) {
          // The batch may or may not be in the database, so it is not written again (never twice):
          // memory forgets its charges and reads the balances again, which then hold the truth. Other
          // nodes are told it was committed (the safe side): they read the balances again too.
          await shared?.afterCommit(batch, { users: [], tokens: [] }, undefined);
          for (const s of batch) {
            book.unsettle(s);
            book.markStale('users', s.hold.userId);
            if (s.hold.tokenId !== null) book.markStale('tokens', s.hold.tokenId);
          }
          onError(error, batch[0]);
          return;
        }
        if (batch.length <= 1) throw error;
        // One bad entry must not sink the others: write each on its own, then read the balances.
        for (const s of batch) {
          try {
            committed([s], await store.commit([s], { users: [], tokens: [] }), {
              users: [],
              tokens: [],
            });
          } catch (err) {
            book.unsettle(s);
            shared?.release(s.hold, s.quota);
            onError(err, s);
            continue;
          }
          await shared?.afterCommit([s], { users: [], tokens: [] }, undefined);
        }
        const again = await shared?.beforeCommit([], asked);
        committed([], await store.commit([], asked), asked);
        await shared?.afterCommit([], asked, again);
      }
    } catch (error) {
      if (batch.length === 1) {
        book.unsettle(batch[0] as Settlement);
        shared?.release(batch[0]!.hold, batch[0]!.quota);
      }
      onError(error, batch[0]);
    } finally {
      for (const resolve of done) resolve();
    }
  }

  async function run(): Promise<void> {
    timer = undefined;
    if (running || stopped) return;
    running = true;
    try {
      // Loads and full queues go at once; a short queue waits for the next tick of the timer.
      do {
        current = cycle();
        await current;
      } while (!stopped && (queue.length >= MAX_BATCH || waiters.length > 0));
    } finally {
      running = false;
      current = undefined;
      if (queue.length > 0) schedule(false);
    }
  }

  function schedule(now: boolean): void {
    if (stopped || running) return;
    if (now) {
      clearTimeout(timer);
      timer = setTimeout(() => void run(), 0);
    } else {
      timer ??= setTimeout(() => void run(), flushMs);
    }
  }

  /** Resolves after a whole cycle that starts after this call. */
  const nextCycle = (): Promise<void> =>
    new Promise((resolve) => {
      waiters.push(resolve);
      schedule(true);
    });

  const unsubscribe = [
    options.bus?.subscribe('users', (id) => stale('users', id)),
    options.bus?.subscribe('tokens', (id) => stale('tokens', id)),
  ];
  function stale(kind: Kind, payload: string | undefined): void {
    const id = payload === undefined ? Number.NaN : Number(payload);
    book.markStale(kind, Number.isInteger(id) ? id : undefined);
    schedule(true);
  }

  async function ensureLoaded(req: HoldRequest): Promise<void> {
    for (let i = 0; i < 3; i++) {
      const missingUser = !book.has('users', req.userId);
      const missingToken = req.tokenId !== null && !book.has('tokens', req.tokenId);
      if (!missingUser && !missingToken) return;
      if (missingUser) loads.users.add(req.userId);
      if (missingToken && req.tokenId !== null) loads.tokens.add(req.tokenId);
      await nextCycle();
    }
    throw new Error('could not read the balances of the caller');
  }

  async function drain(): Promise<void> {
    while (queue.length > 0) await nextCycle();
    // What the last cycle took may still be committing.
    await current;
  }

  /** Holds taken and not yet settled: calls in flight. */
  let open = 0;
  let onSettled: (() => void) | undefined;
  async function settledInFlight(): Promise<void> {
    const deadline = Date.now() + CLOSE_WAIT_MS;
    while (open > 0 && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        onSettled = resolve;
        setTimeout(resolve, 50);
      });
    }
    onSettled = undefined;
  }

  const stalled = (req: HoldRequest) =>
    book.isStale('users', req.userId) || (req.tokenId !== null && book.isStale('tokens', req.tokenId));

  return {
    async reserve(req) {
      const hold: Hold = {
        userId: req.userId,
        tokenId: req.tokenId,
        unlimitedToken: req.unlimitedToken,
        amount: req.amount,
      };
      if (req.amount <= 0) return { ok: true, hold };
      await ensureLoaded(req);
      // A balance someone else changed (a top-up, a redemption, an admin edit) is read again first.
      if (stalled(req)) await nextCycle();
      const taken = shared ? await shared.reserve(req) : book.reserve(req);
      if (typeof taken !== 'number') return { ok: false, short: taken };
      hold.amount = taken;
      // Counted as settle uncounts it: by a hold of more than 0.
      if (taken > 0) open++;
      return { ok: true, hold };
    },
    // Only a hold already counted as open can grow: settle uncounts holds of more than 0.
    extend: async (hold, extra, whole = false) => {
      if (hold.amount <= 0) return 0;
      return shared ? shared.grow(hold, extra, whole) : book.grow(hold, extra, whole);
    },
    settle(settlement) {
      book.settle(settlement);
      // What the call was charged stays pending in Redis until its batch is committed.
      shared?.release(settlement.hold, settlement.hold.amount - settlement.quota);
      if (settlement.hold.amount > 0) {
        open--;
        if (open === 0) onSettled?.();
      }
      if (settlement.quota === 0 && !settlement.log && !settlement.countRequest) return;
      queue.push(settlement);
      if (onBatch) settledAt.push(Date.now());
      schedule(queue.length >= MAX_BATCH);
    },
    tokenAvailable: (tokenId) => book.available('tokens', tokenId),
    onCommitted(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    drain,
    async close() {
      await settledInFlight();
      for (const stop of unsubscribe) stop?.();
      await drain();
      stopped = true;
      clearTimeout(timer);
      await shared?.close();
      await store.close();
    },
    queued: () => queue.length,
    writerPending: () => store.pending?.(),
    abandon() {
      stopped = true;
      clearTimeout(timer);
      queue = [];
      settledAt = [];
      for (const stop of unsubscribe) stop?.();
      void store.close();
      // A killed node says nothing: its pending in Redis goes when its heartbeat stops.
      shared?.abandon();
    },
  };
}
