// One-time codes kept in the database (so every node can check them): email verification,
// password reset, OAuth state, binding codes. A code is consumed by deleting its row, which
// succeeds for exactly one caller.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables.js';
import type { Clock } from '../../platform/clock.js';

export type CodePurpose = 'email_verify' | 'password_reset' | 'oauth_state';

export interface VerificationCodes {
  /** Stores a code for (purpose, target), replacing any earlier one. */
  issue(purpose: CodePurpose, target: string, code: string, ttlSeconds: number): Promise<void>;
  /** Seconds since the newest live code for (purpose, target) was issued, or null when none. */
  ageOfLatest(purpose: CodePurpose, target: string): Promise<number | null>;
  /** True when the code matches and is live; without `consume` the code stays usable. */
  check(purpose: CodePurpose, target: string, code: string, opts?: { consume?: boolean }): Promise<boolean>;
  /**
   * Consumes the live code stored for (purpose, target) and returns what was stored with it
   * (the OAuth state keeps its invite code there), or null when there is none. Exactly one caller wins.
   */
  take(purpose: CodePurpose, target: string): Promise<string | null>;
  /** How many live codes of this purpose exist. */
  countLive(purpose: CodePurpose): Promise<number>;
}

export function createVerificationCodes(db: Kysely<Database>, clock: Clock): VerificationCodes {
  const normalise = (target: string) => target.trim().toLowerCase();
  return {
    async issue(purpose, target, code, ttlSeconds) {
      const now = clock.now();
      const t = normalise(target);
      await db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('verification_codes')
          .where('purpose', '=', purpose)
          .where('target', '=', t)
          .execute();
        await trx
          .insertInto('verification_codes')
          .values({ purpose, target: t, code, created_at: now, expires_at: now + ttlSeconds })
          .execute();
      });
      // Expired rows of every kind are cleared as new ones come in.
      await db.deleteFrom('verification_codes').where('expires_at', '<', now).execute();
    },
    async ageOfLatest(purpose, target) {
      const row = await db
        .selectFrom('verification_codes')
        .select('created_at')
        .where('purpose', '=', purpose)
        .where('target', '=', normalise(target))
        .where('expires_at', '>', clock.now())
        .orderBy('created_at', 'desc')
        .executeTakeFirst();
      return row ? clock.now() - Number(row.created_at) : null;
    },
    async check(purpose, target, code, opts = {}) {
      if (!code) return false;
      const t = normalise(target);
      const row = await db
        .selectFrom('verification_codes')
        .select('id')
        .where('purpose', '=', purpose)
        .where('target', '=', t)
        .where('code', '=', code)
        .where('expires_at', '>', clock.now())
        .executeTakeFirst();
      if (!row) return false;
      if (!opts.consume) return true;
      const deleted = await db.deleteFrom('verification_codes').where('id', '=', row.id).executeTakeFirst();
      return Number(deleted.numDeletedRows) === 1;
    },
    async countLive(purpose) {
      const row = await db
        .selectFrom('verification_codes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('purpose', '=', purpose)
        .where('expires_at', '>', clock.now())
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    async take(purpose, target) {
      const row = await db
        .selectFrom('verification_codes')
        .select(['id', 'code'])
        .where('purpose', '=', purpose)
        .where('target', '=', normalise(target))
        .where('expires_at', '>', clock.now())
        .executeTakeFirst();
      if (!row) return null;
      const deleted = await db.deleteFrom('verification_codes').where('id', '=', row.id).executeTakeFirst();
      return Number(deleted.numDeletedRows) === 1 ? row.code : null;
    },
  };
}
