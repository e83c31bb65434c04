// Console sessions kept in the database, so they survive restarts and every node can check them.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables.js';
import type { Clock } from '../../platform/clock.js';

export interface SessionStore {
  create(userId: number): Promise<string>;
  /** The user id of a live session, or null. */
  lookup(sessionId: string): Promise<number | null>;
  revoke(sessionId: string): Promise<void>;
  /** Ends every session of a user (ban, deletion, password change). */
  revokeUser(userId: number, exceptSessionId?: string): Promise<void>;
}

export function createSessionStore(db: Kysely<Database>, clock: Clock, ttlSeconds: number): SessionStore {
  return {
    async create(userId) {
      const id = randomBytes(32).toString('base64url');
      const now = clock.now();
      await db
        .insertInto('sessions')
        .values({ id, user_id: userId, created_at: now, expires_at: now + ttlSeconds })
        .execute();
      return id;
    },
    async lookup(sessionId) {
      const row = await db
        .selectFrom('sessions')
        .select(['user_id', 'expires_at'])
        .where('id', '=', sessionId)
        .executeTakeFirst();
      if (!row) return null;
      if (row.expires_at <= clock.now()) {
        await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
        return null;
      }
      return Number(row.user_id);
    },
    async revoke(sessionId) {
      await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
    },
    async revokeUser(userId, exceptSessionId) {
      let q = db.deleteFrom('sessions').where('user_id', '=', userId);
      if (exceptSessionId) q = q.where('id', '!=', exceptSessionId);
      await q.execute();
    },
  };
}
