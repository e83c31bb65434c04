// The ledger's part in cluster mode: every hold is taken in Redis (cluster-holds.ts), where every node
// sees it, and mirrored in the node's own balance book, which still keeps the balances read from the
// database and what the node has not written yet. The writer calls it around each batch so Redis learns
// what moved into the database, and it remembers, per account, the counter read before each balance.
// Should Redis fail, a call is held in the node's book alone (as a single node does) and the node's
// pending is written again to Redis once it answers: overspend across nodes is then possible for as
// long as Redis is down, and /readyz reports it.
import type { BalanceBook, Kind } from './balance-book.js';
import type { Account, ClusterHolds, Move, Seen } from './cluster-holds.js';
import { accountKey } from './cluster-holds.js';
import type { Hold, HoldRequest, Settlement } from './ledger.js';

export interface ClusterLedger {
  reserve(req: HoldRequest): Promise<number | 'token' | 'user'>;
  grow(hold: Hold, extra: number, whole: boolean): Promise<number>;
  /**
   * This node's pending fell by `amount` (a settlement below its hold, a charge not written). Redis
   * hears of it with the next cycle (within a flush interval): until then the amount still counts as
   * held, on the safe side, and a call costs one round trip (its take).
   */
  release(hold: Hold, amount: number): void;
  /**
   * Before a batch: sends what was given back since the last cycle and reads the counters of the
   * accounts whose balances the batch reads.
   */
  beforeCommit(batch: readonly Settlement[], asked: Asked): Promise<Map<string, Seen> | undefined>;
  /** After a batch reached the database (or may have): its charges move to the counters. */
  afterCommit(
    batch: readonly Settlement[],
    asked: Asked,
    before: Map<string, Seen> | undefined,
  ): Promise<void>;
  /** Accounts to read again (another node committed since their last read). */
  takeRefresh(kind: Kind): number[];
  /** Writes this node's pending again when Redis may have lost it; only between batches. */
  resyncIfNeeded(): Promise<void>;
  close(): Promise<void>;
  /** Stops the heartbeat and says nothing (what a killed node does). */
  abandon(): void;
}

export interface Asked {
  users: number[];
  tokens: number[];
}

/** Tries a shrinking hold this many times when other nodes take the room between two tries. */
const TRIES = 3;
/** How long a node holds from its own book alone after Redis failed, before it asks Redis again. */
const RETRY_MS = 1_000;

export function createClusterLedger(
  holds: ClusterHolds,
  book: BalanceBook,
  options: {
    onError: (error: unknown) => void;
    /** Asks for a cycle soon (accounts to read again, a resync). */
    onRefresh: () => void;
    /** Resolves after a cycle that reads the accounts to refresh. */
    readAgain: () => Promise<void>;
  },
): ClusterLedger {
  const seen = new Map<string, Seen>();
  const refresh: Record<Kind, Set<number>> = { users: new Set(), tokens: new Set() };
  /** Takes sent to Redis and not answered yet: a resync must not overwrite them. */
  let inFlight = 0;
  let degraded = false;
  /** No take is sent to Redis before then (it just failed). */
  let retryAt = 0;
  /** Given back since the last cycle, by accountKey. */
  let back = new Map<string, Account & { amount: number }>();
  holds.onResyncNeeded(options.onRefresh);

  const giveBack = (kind: Kind, id: number, amount: number) => {
    const key = accountKey(kind, id);
    const entry = back.get(key);
    if (entry) entry.amount += amount;
    else back.set(key, { kind, id, amount });
  };
  const release = (userId: number, tokenId: number | null, amount: number) => {
    if (amount === 0) return;
    giveBack('users', userId, amount);
    if (tokenId !== null) giveBack('tokens', tokenId, amount);
    options.onRefresh();
  };

  const view = (kind: Kind, id: number) => ({
    base: book.base(kind, id) ?? 0,
    seen: seen.get(accountKey(kind, id)),
  });
  /** Whether the account's balance misses commits: then it is read again soon. */
  const note = (kind: Kind, id: number, now: Seen | undefined): boolean => {
    const known = seen.get(accountKey(kind, id));
    if (!now || (known && known.epoch === now.epoch && known.c === now.c)) return false;
    refresh[kind].add(id);
    options.onRefresh();
    return true;
  };

  async function take(req: HoldRequest, amount: number, partial: boolean) {
    // While Redis is failing, calls do not each wait for it to fail again: one try a second.
    if (Date.now() < retryAt) return undefined;
    inFlight++;
    try {
      const answer = await holds.take({
        userId: req.userId,
        tokenId: req.tokenId,
        tokenChecked: !req.unlimitedToken,
        amount,
        partial,
        user: view('users', req.userId),
        ...(req.tokenId !== null ? { token: view('tokens', req.tokenId) } : {}),
      });
      const userBehind = note('users', req.userId, answer.userNow);
      const tokenBehind = req.tokenId !== null && note('tokens', req.tokenId, answer.tokenNow);
      degraded = false;
      return { ...answer, behind: userBehind || tokenBehind };
    } catch (error) {
      if (!degraded) options.onError(error);
      degraded = true;
      retryAt = Date.now() + RETRY_MS;
      return undefined;
    } finally {
      inFlight--;
    }
  }

  /** The accounts of a batch and of its reads, with what the batch commits to each. */
  const accountsOf = (batch: readonly Settlement[], asked: Asked) => {
    const moves = new Map<string, Move>();
    const accounts: Account[] = [];
    const add = (kind: Kind, id: number, committed: number) => {
      const key = accountKey(kind, id);
      const move = moves.get(key);
      if (move) move.committed += committed;
      else {
        accounts.push({ kind, id });
        moves.set(key, { back: 0, committed });
      }
    };
    for (const s of batch) {
      add('users', s.hold.userId, s.quota);
      if (s.hold.tokenId !== null) add('tokens', s.hold.tokenId, s.quota);
    }
    for (const id of asked.users) add('users', id, 0);
    for (const id of asked.tokens) add('tokens', id, 0);
    return { accounts, moves };
  };

  return {
    async reserve(req) {
      let amount = req.amount;
      for (let i = 0; i < TRIES; i++) {
        const answer = await take(req, amount, false);
        // Redis did not answer: this node's own book decides.
        if (!answer) return book.reserve(req);
        const tokenShort = !req.unlimitedToken && req.tokenId !== null && answer.tokenRoom < amount;
        if (answer.granted) {
          const taken = book.reserve({ ...req, amount: answer.amount, fit: undefined });
          if (typeof taken === 'number') return taken;
          release(req.userId, req.tokenId, answer.amount);
          return taken;
        }
        // Refused while counting commits this node has not read (twice, on the safe side): read
        // the balances and ask again before refusing.
        if (answer.behind && i < TRIES - 1) {
          await options.readAgain();
          continue;
        }
        const room = Math.min(answer.userRoom, tokenShort ? answer.tokenRoom : answer.userRoom);
        const fitted = req.fit?.(Math.max(room, 0));
        if (fitted === undefined || fitted > room) return tokenShort ? 'token' : 'user';
        amount = fitted;
      }
      return 'user';
    },
    async grow(hold, extra, whole) {
      if (extra <= 0) return 0;
      const answer = await take(
        { ...hold, unlimitedToken: hold.unlimitedToken ?? false, amount: extra },
        extra,
        !whole,
      );
      if (!answer) return book.grow(hold, extra, whole);
      if (!answer.granted) return 0;
      const added = book.grow(hold, answer.amount);
      if (added < answer.amount) release(hold.userId, hold.tokenId, answer.amount - added);
      return added;
    },
    release: (hold, amount) => release(hold.userId, hold.tokenId, amount),
    async beforeCommit(batch, asked) {
      const { accounts, moves: read } = accountsOf(batch, asked);
      // Only what was given back moves now; the batch's charges move once it is committed.
      const moves = new Map<string, Move>();
      for (const [key, entry] of back) {
        if (!read.has(key)) accounts.push({ kind: entry.kind, id: entry.id });
        moves.set(key, { back: entry.amount, committed: 0 });
      }
      back = new Map();
      if (accounts.length === 0) return new Map();
      try {
        return await holds.counters(accounts, moves);
      } catch (error) {
        // What was given back stays counted as held: safe, and set right at the resync.
        options.onError(error);
        return undefined;
      }
    },
    async afterCommit(batch, asked, before) {
      const { accounts, moves } = accountsOf(batch, asked);
      try {
        await holds.counters(accounts, moves);
      } catch (error) {
        // The amounts stay counted as pending: safe, and written right at the resync.
        options.onError(error);
      }
      for (const { kind, id } of accounts) {
        const key = accountKey(kind, id);
        const read = before?.get(key);
        // The balance now includes this node's own charges, which the counter grew by.
        if (read) seen.set(key, { epoch: read.epoch, c: read.c + (moves.get(key)?.committed ?? 0) });
        else seen.delete(key);
      }
    },
    takeRefresh(kind) {
      const ids = [...refresh[kind]];
      refresh[kind].clear();
      return ids;
    },
    async resyncIfNeeded() {
      if (inFlight > 0 || !holds.needsResync()) return;
      // The book already counts what was given back: the resync writes it.
      back = new Map();
      await holds.resync(book.pending());
    },
    close: () => holds.close(),
    abandon: () => holds.abandon(),
  };
}
