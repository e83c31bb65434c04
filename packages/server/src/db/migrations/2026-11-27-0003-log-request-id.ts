// Log rows of relay calls keep the call's request id (the `x-request-id` its client got back), so one
// call can be followed from the client through the access log to its usage row; admins search by it.
// Rows written before, and rows that are not relay calls, have ''. Frozen.
import { MysqlAdapter } from 'kysely';
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('logs')
    .addColumn('request_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('idx_logs_request_id').on('logs').column('request_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  // Only MySQL names the table in DROP INDEX (PostgreSQL and SQLite refuse `on`).
  const drop = db.schema.dropIndex('idx_logs_request_id');
  await (db.getExecutor().adapter instanceof MysqlAdapter ? drop.on('logs') : drop).execute();
  await db.schema.alterTable('logs').dropColumn('request_id').execute();
}
