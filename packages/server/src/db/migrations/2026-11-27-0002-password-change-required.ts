// Users get `password_change_required`: 1 while the account must choose a new password before the
// console lets it do anything else — root created on the first start with the default password
// 123456. Changing the password clears it. Frozen.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('password_change_required', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('password_change_required').execute();
}
