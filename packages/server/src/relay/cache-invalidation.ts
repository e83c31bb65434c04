// What writers elsewhere call after changing a token, a user, a channel or an option, so every node's
// relay caches drop the stale copy (locally, and over Redis in cluster mode).
import type { CacheBus } from '../platform/cache-bus.js';

/** After a token row changed (status, quota, limits, group, key) or was deleted; no id = all tokens. */
export const invalidateTokenCache = (bus: CacheBus, tokenId?: number): void =>
  bus.publish('tokens', tokenId === undefined ? undefined : String(tokenId));

/** After a user's status, role, group or deletion changed; no id = all users. */
export const invalidateUserCache = (bus: CacheBus, userId?: number): void =>
  bus.publish('users', userId === undefined ? undefined : String(userId));

/** After any channel or ability write: the relay rebuilds its channel index. */
export const invalidateChannelCache = (bus: CacheBus): void => bus.publish('channels');
