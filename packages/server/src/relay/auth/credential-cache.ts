// Tokens by key and users by id, held in memory so a relay call reads no database row. Filled on
// first use; dropped when a writer publishes 'tokens' or 'users' on the cache bus (payload: the id,
// or nothing for everything). Balances are the ledger's (billing/balance-book.ts): `remainQuota` here
// is the row as loaded, used only until the ledger has read the token.
import type { Kysely } from 'kysely';
import { recordsIpLog } from '@sluice/shared';
import type { Database } from '../../db/tables.js';
import type { CacheBus } from '../../platform/cache-bus.js';
import { parseAllowIps } from './allow-ips.js';
import type { IpAllowList } from './allow-ips.js';

export interface CachedToken {
  id: number;
  userId: number;
  key: string;
  name: string;
  status: number;
  /** Unix seconds; -1 never expires. */
  expiredTime: number;
  /** As loaded; the ledger keeps the live balance. */
  remainQuota: number;
  unlimited: boolean;
  /** The models the token may call, when model_limits_enabled is on. */
  modelLimits?: ReadonlySet<string>;
  allowIps?: IpAllowList;
  group: string;
}

export interface CachedUser {
  id: number;
  username: string;
  role: number;
  status: number;
  group: string;
  deleted: boolean;
  /** The user's settings let logs keep the caller's IP address (record_ip_log). */
  recordIpLog: boolean;
}

export interface CredentialCache {
  token(key: string): Promise<CachedToken | undefined>;
  user(id: number): Promise<CachedUser | undefined>;
  setTokenStatus(tokenId: number, status: number): void;
  dropToken(tokenId: number): void;
  close(): void;
}

/** Keys that did not exist are remembered too, so a stream of bad keys does not reach the database. */
const MAX_UNKNOWN = 10_000;
const MAX_ENTRIES = 200_000;

function splitCsv(value: string): Set<string> {
  return new Set(
    value
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  );
}

export function createCredentialCache(db: Kysely<Database>, bus: CacheBus): CredentialCache {
  const tokens = new Map<string, CachedToken>();
  const tokenKeyById = new Map<number, string>();
  const unknownKeys = new Set<string>();
  const users = new Map<number, CachedUser | null>();
  const loading = new Map<string, Promise<CachedToken | undefined>>();
  const loadingUsers = new Map<number, Promise<CachedUser | undefined>>();
  // Bumped on every invalidation so a load that started before it is not cached after it.
  let generation = 0;

  const dropToken = (id: number) => {
    const key = tokenKeyById.get(id);
    if (key !== undefined) tokens.delete(key);
    tokenKeyById.delete(id);
  };

  const unsubscribeTokens = bus.subscribe('tokens', (payload) => {
    generation++;
    unknownKeys.clear();
    const id = payload === undefined ? Number.NaN : Number(payload);
    if (Number.isInteger(id)) dropToken(id);
    else {
      tokens.clear();
      tokenKeyById.clear();
    }
  });
  const unsubscribeUsers = bus.subscribe('users', (payload) => {
    generation++;
    const id = payload === undefined ? Number.NaN : Number(payload);
    if (Number.isInteger(id)) users.delete(id);
    else users.clear();
  });

  async function loadToken(key: string): Promise<CachedToken | undefined> {
    const started = generation;
    const row = await db
      .selectFrom('tokens')
      .selectAll()
      .where('key', '=', key)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) {
      if (started === generation) {
        if (unknownKeys.size >= MAX_UNKNOWN) unknownKeys.clear();
        unknownKeys.add(key);
      }
      return undefined;
    }
    const allowIps = parseAllowIps(row.allow_ips);
    const token: CachedToken = {
      id: Number(row.id),
      userId: Number(row.user_id),
      key: row.key,
      name: row.name,
      status: row.status,
      expiredTime: Number(row.expired_time),
      remainQuota: Number(row.remain_quota),
      unlimited: row.unlimited_quota === 1,
      ...(row.model_limits_enabled === 1 ? { modelLimits: splitCsv(row.model_limits) } : {}),
      ...(allowIps ? { allowIps } : {}),
      group: row.group,
    };
    if (started === generation) {
      if (tokens.size >= MAX_ENTRIES) {
        tokens.clear();
        tokenKeyById.clear();
      }
      tokens.set(key, token);
      tokenKeyById.set(token.id, key);
    }
    return token;
  }

  async function loadUser(id: number): Promise<CachedUser | undefined> {
    const started = generation;
    const row = await db
      .selectFrom('users')
      .select(['id', 'username', 'role', 'status', 'group', 'deleted_at', 'setting'])
      .where('id', '=', id)
      .executeTakeFirst();
    const user: CachedUser | null = row
      ? {
          id: Number(row.id),
          username: row.username,
          role: row.role,
          status: row.status,
          group: row.group,
          deleted: row.deleted_at !== null,
          recordIpLog: recordsIpLog(row.setting),
        }
      : null;
    if (started === generation) {
      if (users.size >= MAX_ENTRIES) users.clear();
      users.set(id, user);
    }
    return user ?? undefined;
  }

  /** One database read per key however many calls miss at once. */
  function once<K, V>(inflight: Map<K, Promise<V>>, key: K, load: () => Promise<V>): Promise<V> {
    const pending = inflight.get(key);
    if (pending) return pending;
    const promise = load().finally(() => inflight.delete(key));
    inflight.set(key, promise);
    return promise;
  }

  return {
    async token(key) {
      const hit = tokens.get(key);
      if (hit) return hit;
      if (unknownKeys.has(key)) return undefined;
      return once(loading, key, () => loadToken(key));
    },
    async user(id) {
      const hit = users.get(id);
      if (hit !== undefined) return hit ?? undefined;
      return once(loadingUsers, id, () => loadUser(id));
    },
    setTokenStatus(tokenId, status) {
      const key = tokenKeyById.get(tokenId);
      const token = key === undefined ? undefined : tokens.get(key);
      if (token) token.status = status;
    },
    dropToken,
    close() {
      unsubscribeTokens();
      unsubscribeUsers();
    },
  };
}
