// Users get new-api's `setting` column (JSON text: the quota warning settings) and
// `quota_warned_at`, the unix time of the quota warning sent while the balance stays below the
// threshold (0 = none: the next fall below it warns), kept in the row so a restart or another node
// never sends the same warning twice. Frozen.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // Nullable: MySQL cannot give a TEXT column a default, and rows written before this have none.
  await db.schema.alterTable('users').addColumn('setting', 'text').execute();
  await db.schema
    .alterTable('users')
    .addColumn('quota_warned_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('quota_warned_at').execute();
  await db.schema.alterTable('users').dropColumn('setting').execute();
}
