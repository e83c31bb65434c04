// Log rows of relay calls keep the call's request id (the `x-request-id` its client got back), so one
// call can be followed from the client through the access log to its usage row; admins search by it.
// Rows written before, and rows that are not relay calls, have ''. No index: every relay call writes a
// log row, and a B-tree over random ids makes each of those inserts dearer; a search by request id
// reads the rows of the period asked for instead (an administrator's rare lookup). Frozen.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('logs')
    .addColumn('request_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('logs').dropColumn('request_id').execute();
}
