// Holds across nodes (cluster mode): what every node has set aside and charged but not yet written is
// kept in Redis, so a hold is checked and taken in one atomic step that every node sees.
//
// Per account (user or token), one Redis hash `sluice:hold:{u|t}:{id}`:
//   n:<node>  that node's pending amount: its holds in flight plus what it settled and has not
//             committed to the database yet;
//   c         committed: a counter that grows by what any node moves from its pending into the database
//             (after the commit), so a node knows how much of the database's balance it has not read;
//   e         the hash's epoch, set when it is created (a Redis that lost its data starts a new one).
// A node keeps, per account, the balance it last read from the database (`base`) and the counter `c` it
// read just before that read (`seen`). What the account may still spend, everywhere:
//   base − (c − seen) − Σ pending of live nodes
// A node commits to the database first and moves the amount from pending to `c` after, so between the
// two the amount counts twice (safe) and never zero times. A commit read into `base` after `seen` was
// read counts twice too, until the next read (the ledger reads again when it sees `c` moved).
// Nodes register in the sorted set `sluice:nodes` (score: Redis time of their last heartbeat, every
// HEARTBEAT_MS). A node silent for longer than its TTL is dead: the next take on an account drops its
// pending there and adds it to `c` (what it had committed counts as unread; what it had not is lost,
// as the crash bound says). A node that finds itself dropped writes its pending again (`resync`).
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Kind } from './balance-book.js';

const HEARTBEAT_MS = 2_000;
const NODE_TTL_MS = 10_000;
/** The longest a closing node waits for Redis to take its entries out. */
const CLOSE_WAIT_MS = 1_000;

// Shared by the scripts: the live pending of one hash (dropping dead nodes' into `c`), its epoch and c.
const OPEN = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local function open(key, ttl)
  local h = redis.call('HGETALL', key)
  local epoch, c, pending = false, 0, 0
  for i = 1, #h, 2 do
    local f, v = h[i], h[i + 1]
    if f == 'e' then epoch = v
    elseif f == 'c' then c = c + tonumber(v)
    else
      local amount = tonumber(v)
      local beat = redis.call('ZSCORE', KEYS[1], string.sub(f, 3))
      if beat and now - tonumber(beat) <= ttl then
        if amount > 0 then pending = pending + amount end
      else
        redis.call('HDEL', key, f)
        if amount > 0 then
          c = c + amount
          redis.call('HINCRBY', key, 'c', amount)
        end
      end
    end
  end
  if not epoch then
    epoch = t[1] .. '.' .. t[2]
    redis.call('HSET', key, 'e', epoch)
  end
  return epoch, c, pending
end
`;

// KEYS: nodes, user hash, token hash (when ARGV[5] ~= '0')
// ARGV: node, ttl, amount, partial, token mode (0 none, 1 checked, 2 tracked only),
//       user base, user epoch, user seen, token base, token epoch, token seen
// Returns: granted (0/1), amount taken, user room, token room, user epoch, user c, token epoch, token c
const TAKE = `${OPEN}
local ttl = tonumber(ARGV[2])
local function room(key, base, epoch, seen)
  local e, c, pending = open(key, ttl)
  local unseen = c - tonumber(seen)
  if e ~= epoch then unseen = c end
  if unseen < 0 then unseen = 0 end
  return tonumber(base) - unseen - pending, e, c
end
local amount = tonumber(ARGV[3])
local mode = ARGV[5]
local ur, ue, uc = room(KEYS[2], ARGV[6], ARGV[7], ARGV[8])
local tr, te, tc = 0, '', 0
local r = ur
if mode ~= '0' then
  tr, te, tc = room(KEYS[3], ARGV[9], ARGV[10], ARGV[11])
  if mode == '1' and tr < r then r = tr end
end
local take = amount
local granted = 1
if r < amount then
  if ARGV[4] == '1' then
    take = math.max(0, r)
  else
    take = 0
    granted = 0
  end
end
if take > 0 then
  redis.call('HINCRBY', KEYS[2], 'n:' .. ARGV[1], take)
  if mode ~= '0' then redis.call('HINCRBY', KEYS[3], 'n:' .. ARGV[1], take) end
end
return { granted, take, ur, tr, ue, uc, te, tc }
`;

// KEYS: nodes, then account hashes. ARGV: node, then per hash two amounts: what the node gives back
// (off its pending) and what it committed (from its pending to c). Returns each hash's epoch and c as
// they were before.
const COMMIT = `${OPEN}
local out = {}
local field = 'n:' .. ARGV[1]
for i = 2, #KEYS do
  local e, c = open(KEYS[i], 1e15)
  local back = tonumber(ARGV[2 * i - 2])
  local moved = tonumber(ARGV[2 * i - 1])
  if back + moved ~= 0 then redis.call('HINCRBY', KEYS[i], field, -(back + moved)) end
  if moved ~= 0 then redis.call('HINCRBY', KEYS[i], 'c', moved) end
  out[#out + 1] = e
  out[#out + 1] = c
end
return out
`;

// KEYS: nodes. ARGV: node. Returns 1 when the node was not registered (new, or dropped as dead).
const HEARTBEAT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local added = redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - 100 * tonumber(ARGV[2]))
return added
`;

/** What a node read of an account's counter just before reading its balance. */
export interface Seen {
  epoch: string;
  c: number;
}

export interface TakeRequest {
  userId: number;
  tokenId: number | null;
  /** The token's room is checked (false: an unlimited token, whose pending is still kept). */
  tokenChecked: boolean;
  amount: number;
  /** Take what there is, up to `amount`, rather than all or nothing. */
  partial: boolean;
  user: { base: number; seen: Seen | undefined };
  token?: { base: number; seen: Seen | undefined };
}

export interface TakeResult {
  granted: boolean;
  amount: number;
  /** What each account could still spend, before this take. */
  userRoom: number;
  tokenRoom: number;
  /** The counters now: a node whose `seen` differs reads the balance again. */
  userNow: Seen;
  tokenNow?: Seen;
}

export interface ClusterHolds {
  readonly node: string;
  take(req: TakeRequest): Promise<TakeResult>;
  /**
   * Reads the counters of accounts (before their balances are read), and applies this node's moves
   * (by accountKey): amounts given back off its pending (holds settled for less, charges not written),
   * and amounts committed, which move from its pending to the counter (after the commit).
   */
  counters(accounts: Account[], moves?: ReadonlyMap<string, Move>): Promise<Map<string, Seen>>;
  /** Sets this node's pending of each account to what it knows (after Redis lost it). */
  resync(pending: Array<{ kind: Kind; id: number; amount: number }>): Promise<void>;
  /** True when this node's pending in Redis may be wrong and must be written again. */
  needsResync(): boolean;
  /** Called when that becomes true (the ledger then runs a cycle, which writes it). */
  onResyncNeeded(listener: () => void): void;
  close(): Promise<void>;
  /** Stops the heartbeat without a word, as a killed node would (tests of the crash bound). */
  abandon(): void;
}

export interface Account {
  kind: Kind;
  id: number;
}

export interface Move {
  back: number;
  committed: number;
}

/** An account's name among the ledger's maps (the Redis key less the deployment's prefix). */
export const accountKey = (kind: Kind, id: number): string => `${kind === 'users' ? 'u' : 't'}:${id}`;

interface Commands {
  sluiceTake(...args: Array<string | number>): Promise<Array<string | number>>;
  sluiceCommit(...args: Array<string | number>): Promise<Array<string | number>>;
  sluiceBeat(...args: Array<string | number>): Promise<number>;
}

export interface ClusterHoldsOptions {
  /** Prefix of the keys (config.redisPrefix); tests give each suite its own. */
  prefix?: string;
  /** How long a node may stay silent before its pending is dropped (tests shorten it). */
  nodeTtlMs?: number;
  heartbeatMs?: number;
  onError?: (error: unknown) => void;
}

export function createClusterHolds(redis: Redis, options: ClusterHoldsOptions = {}): ClusterHolds {
  const node = randomUUID();
  const prefix = options.prefix ?? 'sluice:';
  const NODES = `${prefix}nodes`;
  const keyOf = (kind: Kind, id: number) => `${prefix}hold:${accountKey(kind, id)}`;
  const ttl = options.nodeTtlMs ?? NODE_TTL_MS;
  const onError = options.onError ?? (() => undefined);
  const field = `n:${node}`;
  if (!('sluiceTake' in redis)) {
    redis.defineCommand('sluiceTake', { lua: TAKE });
    redis.defineCommand('sluiceCommit', { lua: COMMIT });
    redis.defineCommand('sluiceBeat', { lua: HEARTBEAT });
  }
  const r = redis as unknown as Redis & Commands;
  let dirty = false;
  let resyncListener: () => void = () => undefined;
  /** Accounts whose hash may have this node's field: for the resync and the cleanup at close. */
  const touched = new Set<string>();

  const markDirty = () => {
    if (dirty) return;
    dirty = true;
    resyncListener();
  };
  const failed = (error: unknown) => {
    markDirty();
    onError(error);
  };
  const beat = async () => {
    try {
      // Registered anew after the first beat: dropped as dead, or Redis lost its data.
      if ((await r.sluiceBeat(1, NODES, node, ttl)) === 1 && started) markDirty();
    } catch (error) {
      failed(error);
    }
  };
  // Sent first on the connection, so Redis knows the node before its first take.
  let started = false;
  void beat().then(() => (started = true));
  const timer = setInterval(() => void beat(), options.heartbeatMs ?? HEARTBEAT_MS);
  timer.unref();

  const seenArgs = (a: { base: number; seen: Seen | undefined } | undefined) =>
    a ? [a.base, a.seen?.epoch ?? '', a.seen?.c ?? 0] : [0, '', 0];

  return {
    node,
    async take(req) {
      const tracked = req.tokenId !== null;
      const keys = [NODES, keyOf('users', req.userId), ...(tracked ? [keyOf('tokens', req.tokenId!)] : [])];
      const mode = !tracked ? '0' : req.tokenChecked ? '1' : '2';
      // A take that fails may still have run: this node's pending is written again.
      const out = await r
        .sluiceTake(
          keys.length,
          ...keys,
          node,
          ttl,
          req.amount,
          req.partial ? '1' : '0',
          mode,
          ...seenArgs(req.user),
          ...seenArgs(req.token),
        )
        .catch((error: unknown) => {
          markDirty();
          throw error;
        });
      const [granted, amount, userRoom, tokenRoom, ue, uc, te, tc] = out;
      for (const key of keys.slice(1)) touched.add(key);
      return {
        granted: Number(granted) === 1,
        amount: Number(amount),
        userRoom: Number(userRoom),
        tokenRoom: Number(tokenRoom),
        userNow: { epoch: String(ue), c: Number(uc) },
        ...(tracked ? { tokenNow: { epoch: String(te), c: Number(tc) } } : {}),
      };
    },
    async counters(accounts, moves) {
      const names = accounts.map((a) => accountKey(a.kind, a.id));
      const keys = names.map((name) => prefix + 'hold:' + name);
      const out = new Map<string, Seen>();
      if (keys.length === 0) return out;
      const amounts = names.flatMap((name) => {
        const move = moves?.get(name);
        return [move?.back ?? 0, move?.committed ?? 0];
      });
      keys.forEach((key, i) => {
        if (amounts[2 * i] !== 0 || amounts[2 * i + 1] !== 0) touched.add(key);
      });
      const answer = await r
        .sluiceCommit(keys.length + 1, NODES, ...keys, node, ...amounts)
        .catch((error: unknown) => {
          markDirty();
          throw error;
        });
      names.forEach((name, i) =>
        out.set(name, { epoch: String(answer[2 * i]), c: Number(answer[2 * i + 1]) }),
      );
      return out;
    },
    async resync(pending) {
      dirty = false;
      try {
        const batch = r.multi();
        const now = new Set(pending.map((p) => keyOf(p.kind, p.id)));
        for (const p of pending) batch.hset(keyOf(p.kind, p.id), field, p.amount);
        for (const key of touched) if (!now.has(key)) batch.hdel(key, field);
        await batch.exec();
        // This node's entries are now exactly the pending ones.
        touched.clear();
        for (const key of now) touched.add(key);
      } catch (error) {
        failed(error);
      }
    },
    needsResync: () => dirty,
    onResyncNeeded: (listener) => (resyncListener = listener),
    abandon: () => clearInterval(timer),
    async close() {
      clearInterval(timer);
      const batch = r.multi();
      for (const key of touched) batch.hdel(key, field);
      batch.zrem(NODES, node);
      // A Redis that does not answer must not hold the shutdown: the entries then go with the
      // heartbeat, as a killed node's do.
      let wait: NodeJS.Timeout | undefined;
      await Promise.race([
        batch.exec().catch(onError),
        new Promise((resolve) => (wait = setTimeout(resolve, CLOSE_WAIT_MS))),
      ]);
      clearTimeout(wait);
    },
  };
}
