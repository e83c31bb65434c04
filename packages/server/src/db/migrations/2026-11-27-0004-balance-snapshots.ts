// Balance snapshots for reconciliation (billing/reconcile.ts): the balances of every user (quota,
// used quota, invite earnings) and token (used quota) as of a moment, so a later check compares the
// change since then with the log rows written since then — also after old logs were purged. One row
// per account with a balance; an account without a row had none. Frozen.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('balance_snapshots')
    .addColumn('as_of', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('quota', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('used_quota', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('aff_quota', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('pk_balance_snapshots', ['as_of', 'kind', 'account_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('balance_snapshots').execute();
}
