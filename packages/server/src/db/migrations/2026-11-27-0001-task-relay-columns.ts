// Task relays keep the upstream's own task id beside Sluice's (`mj_id` / `task_id` is the id clients
// see), the token a task was charged to (its refund goes back there too) and, for drawings, the
// client's notify hook (Sluice calls it; the upstream never sees it). Rows imported from new-api have
// an empty `upstream_task_id`: their id is the upstream's. On MySQL, where TEXT holds 64 kB, the
// upstream's answers (a task's clips, a drawing's buttons and properties) get LONGTEXT. Frozen.
import { MysqlAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

const LARGE_ANSWERS: ReadonlyArray<[string, string]> = [
  ['tasks', 'data'],
  ['tasks', 'properties'],
  ['midjourneys', 'buttons'],
  ['midjourneys', 'properties'],
];

async function resizeAnswers(db: Kysely<any>, type: 'longtext' | 'text'): Promise<void> {
  if (!(db.getExecutor().adapter instanceof MysqlAdapter)) return;
  for (const [table, column] of LARGE_ANSWERS) {
    await sql`alter table ${sql.table(table)} modify ${sql.ref(column)} ${sql.raw(type)} not null`.execute(
      db,
    );
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['midjourneys', 'tasks']) {
    await db.schema
      .alterTable(table)
      .addColumn('upstream_task_id', 'varchar(191)', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema
      .alterTable(table)
      .addColumn('token_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  // Nullable: MySQL cannot give a TEXT column a default.
  await db.schema.alterTable('midjourneys').addColumn('notify_hook', 'text').execute();
  await db.schema.createIndex('idx_midjourneys_status').on('midjourneys').column('status').execute();
  await db.schema.createIndex('idx_tasks_status').on('tasks').column('status').execute();
  await resizeAnswers(db, 'longtext');
}

export async function down(db: Kysely<any>): Promise<void> {
  await resizeAnswers(db, 'text');
  // MySQL names the table of an index to drop; PostgreSQL and SQLite refuse that.
  const mysql = db.getExecutor().adapter instanceof MysqlAdapter;
  for (const [index, table] of [
    ['idx_tasks_status', 'tasks'],
    ['idx_midjourneys_status', 'midjourneys'],
  ] as const) {
    const drop = db.schema.dropIndex(index);
    await (mysql ? drop.on(table) : drop).execute();
  }
  await db.schema.alterTable('midjourneys').dropColumn('notify_hook').execute();
  for (const table of ['midjourneys', 'tasks']) {
    await db.schema.alterTable(table).dropColumn('token_id').execute();
    await db.schema.alterTable(table).dropColumn('upstream_task_id').execute();
  }
}
