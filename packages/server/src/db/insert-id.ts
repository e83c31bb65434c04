// The id of a freshly inserted row in all three dialects (PostgreSQL needs RETURNING; SQLite and
// MySQL report it in the insert result).
import { sql } from 'kysely';
import type { InsertQueryBuilder, InsertResult } from 'kysely';
import type { DialectName } from './create-db.js';

export async function insertId<DB, TB extends keyof DB & string>(
  query: InsertQueryBuilder<DB, TB, InsertResult>,
  dialect: DialectName,
): Promise<number> {
  if (dialect === 'postgres') {
    const row: unknown = await query.returning(sql<number>`id`.as('id')).executeTakeFirstOrThrow();
    return Number((row as { id: number | string }).id);
  }
  const result = await query.executeTakeFirstOrThrow();
  return Number(result.insertId);
}
