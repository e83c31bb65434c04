// What each user and token can still spend, kept in memory so a relay call reserves and settles
// without a database round-trip. Per account:
//   base      the balance last read from the database (after the batches this node wrote),
//   unflushed what settled calls charged that is not committed yet (negative),
//   held      what calls in flight have set aside,
// and the call may spend base + unflushed − held. When a batch commits, its charges move from
// `unflushed` into `base` (read back in the batch's own transaction, which also folds in what other
// nodes and the console wrote).
import type { Hold, HoldRequest, ReadBalances, Settlement } from './ledger.js';

interface Account {
  base: number;
  unflushed: number;
  held: number;
  /** Another writer changed the row: read it again. Cleared only by a read taken after the last mark. */
  stale: boolean;
  /** Bumped by every mark, so a read that started before a newer mark leaves the account stale. */
  mark: number;
  readMark: number;
}

export type Kind = 'users' | 'tokens';

export interface BalanceBook {
  /** Whether the accounts of a call are loaded (reserve needs them). */
  has(kind: Kind, id: number): boolean;
  available(kind: Kind, id: number): number | undefined;
  /** The balance last read from the database (undefined when not loaded). */
  base(kind: Kind, id: number): number | undefined;
  /** What this node holds and has charged without writing it yet, per account that has any. */
  pending(): Array<{ kind: Kind; id: number; amount: number }>;
  isStale(kind: Kind, id: number): boolean;
  /**
   * Takes the hold from memory and returns its amount — the request's, or the smaller one its `fit`
   * allows when the balance is tighter — or says whose balance is short. Accounts must be loaded.
   */
  reserve(req: HoldRequest): number | 'token' | 'user';
  /**
   * Adds up to `extra` to a hold in flight, as far as both balances allow (all of it or nothing when
   * `whole`); returns what it added.
   */
  grow(hold: Hold, extra: number, whole?: boolean): number;
  /** Replaces the hold by the charge (a charge of 0 gives the whole hold back). */
  settle(s: Settlement): void;
  /** Gives a charge back when it could not be written (the database never got it). */
  unsettle(s: Settlement): void;
  /** A batch committed: its charges are now in the balances read back. */
  committed(
    batch: readonly Settlement[],
    read: ReadBalances,
    asked: { users: number[]; tokens: number[] },
  ): void;
  markStale(kind: Kind, id?: number): void;
  /** Ids to read at the next batch (cleared: marks made after this call stay). */
  takeStale(kind: Kind): number[];
}

export function createBalanceBook(): BalanceBook {
  const books: Record<Kind, Map<number, Account>> = { users: new Map(), tokens: new Map() };
  const stale: Record<Kind, Set<number>> = { users: new Set(), tokens: new Set() };

  const account = (kind: Kind, id: number): Account | undefined => books[kind].get(id);
  const spendable = (a: Account) => a.base + a.unflushed - a.held;

  const move = (kind: Kind, id: number | null, held: number, charged: number) => {
    if (id === null) return;
    const a = account(kind, id);
    if (!a) return;
    a.held += held;
    a.unflushed -= charged;
  };

  const setBase = (kind: Kind, id: number, value: number | undefined) => {
    const a = account(kind, id);
    // A row that is gone (deleted user or token) can spend nothing.
    if (a) a.base = value ?? 0;
    else books[kind].set(id, { base: value ?? 0, unflushed: 0, held: 0, stale: false, mark: 0, readMark: 0 });
  };

  return {
    has: (kind, id) => books[kind].has(id),
    available(kind, id) {
      const a = account(kind, id);
      return a ? spendable(a) : undefined;
    },
    base: (kind, id) => account(kind, id)?.base,
    pending() {
      const out: Array<{ kind: Kind; id: number; amount: number }> = [];
      for (const kind of ['users', 'tokens'] as const) {
        for (const [id, a] of books[kind]) {
          if (a.held !== 0 || a.unflushed !== 0) out.push({ kind, id, amount: a.held - a.unflushed });
        }
      }
      return out;
    },
    isStale: (kind, id) => account(kind, id)?.stale === true,
    reserve(req) {
      const user = account('users', req.userId);
      const token = req.tokenId === null ? undefined : account('tokens', req.tokenId);
      if (!user || (req.tokenId !== null && !token)) throw new Error('balances are not loaded');
      // Checked and taken in one synchronous step, so calls in flight always see each other's holds.
      const tokenRoom = token && !req.unlimitedToken ? spendable(token) : Number.POSITIVE_INFINITY;
      const room = Math.min(tokenRoom, spendable(user));
      const amount = room >= req.amount ? req.amount : req.fit?.(Math.max(room, 0));
      if (amount === undefined || amount > room) return tokenRoom < req.amount ? 'token' : 'user';
      user.held += amount;
      if (token) token.held += amount;
      return amount;
    },
    grow(hold, extra, whole = false) {
      const user = account('users', hold.userId);
      const token = hold.tokenId === null ? undefined : account('tokens', hold.tokenId);
      if (!user || (hold.tokenId !== null && !token) || extra <= 0) return 0;
      const tokenRoom = token && !hold.unlimitedToken ? spendable(token) : Number.POSITIVE_INFINITY;
      const room = Math.max(0, Math.min(tokenRoom, spendable(user)));
      if (whole && room < extra) return 0;
      const added = Math.min(extra, room);
      user.held += added;
      if (token) token.held += added;
      hold.amount += added;
      return added;
    },
    settle(s) {
      const { hold } = s;
      move('users', hold.userId, -hold.amount, s.quota);
      move('tokens', hold.tokenId, -hold.amount, s.quota);
    },
    unsettle(s) {
      move('users', s.hold.userId, 0, -s.quota);
      move('tokens', s.hold.tokenId, 0, -s.quota);
    },
    committed(batch, read, asked) {
      const charged: Record<Kind, Map<number, number>> = { users: new Map(), tokens: new Map() };
      const sum = (kind: Kind, id: number | null, quota: number) => {
        if (id !== null) charged[kind].set(id, (charged[kind].get(id) ?? 0) + quota);
      };
      for (const s of batch) {
        sum('users', s.hold.userId, s.quota);
        sum('tokens', s.hold.tokenId, s.quota);
      }
      for (const kind of ['users', 'tokens'] as const) {
        for (const [id, quota] of charged[kind]) {
          const a = account(kind, id);
          if (a) a.unflushed += quota;
          setBase(kind, id, read[kind].get(id));
        }
        for (const id of asked[kind]) {
          if (!charged[kind].has(id)) setBase(kind, id, read[kind].get(id));
          const a = account(kind, id);
          if (a && a.mark === a.readMark) a.stale = false;
        }
      }
    },
    markStale(kind, id) {
      const ids = id === undefined ? [...books[kind].keys()] : [id];
      for (const one of ids) {
        const a = account(kind, one);
        if (!a) continue;
        a.stale = true;
        a.mark++;
        stale[kind].add(one);
      }
    },
    takeStale(kind) {
      const ids = [...stale[kind]];
      stale[kind].clear();
      for (const id of ids) {
        const a = account(kind, id);
        if (a) a.readMark = a.mark;
      }
      return ids;
    },
  };
}
