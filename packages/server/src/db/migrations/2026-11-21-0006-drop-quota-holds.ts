// Holds now live in the relay's memory (billing/balance-book.ts): a call cut off by a crash never wrote
// one, so there is nothing to sweep and the table goes.
import { MysqlAdapter, PostgresAdapter } from 'kysely';
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('quota_holds').ifExists().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const adapter = db.getExecutor().adapter;
  const table = db.schema.createTable('quota_holds');
  const withId =
    adapter instanceof PostgresAdapter
      ? table.addColumn('id', 'bigserial', (c) => c.primaryKey())
      : adapter instanceof MysqlAdapter
        ? table.addColumn('id', 'bigint', (c) => c.primaryKey().autoIncrement())
        : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  await withId
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('token_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idx_quota_holds_created').on('quota_holds').column('created_at').execute();
}
