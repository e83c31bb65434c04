import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { withStatementCache } from './create-db.js';

describe('SQLite statements kept by text', () => {
  let sqlite: SQLite.Database;
  afterEach(() => {
    if (sqlite.open) sqlite.close();
  });
  const open = (size?: number) => {
    sqlite = new SQLite(':memory:');
    sqlite.exec('CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3)');
    return withStatementCache(sqlite, size);
  };

  it('answers a query asked again while the same query is still being read', () => {
    const db = open();
    const text = 'SELECT x FROM t ORDER BY x';
    const seen: unknown[] = [];
    for (const row of db.prepare(text).iterate([])) {
      seen.push(row);
      expect(db.prepare(text).all([])).toEqual([{ x: 1 }, { x: 2 }, { x: 3 }]);
    }
    expect(seen).toEqual([{ x: 1 }, { x: 2 }, { x: 3 }]);
  });

  it('answers every query with the current data when more texts come by than it keeps', () => {
    const db = open(2);
    for (let round = 1; round <= 3; round++) {
      db.prepare('INSERT INTO t VALUES (?)').run([10 * round]);
      for (let limit = 1; limit <= 5; limit++) {
        const rows = db.prepare(`SELECT x FROM t ORDER BY x DESC LIMIT ${limit}`).all([]);
        expect(rows[0]).toEqual({ x: 10 * round });
        expect(rows).toHaveLength(Math.min(limit, 3 + round));
      }
    }
  });

  it('sees a column a migration added to a table it already read', () => {
    const db = open();
    expect(db.prepare('SELECT * FROM t LIMIT 1').all([])).toEqual([{ x: 1 }]);
    db.prepare("ALTER TABLE t ADD COLUMN y TEXT NOT NULL DEFAULT '-'").run([]);
    expect(db.prepare('SELECT * FROM t LIMIT 1').all([])).toEqual([{ x: 1, y: '-' }]);
  });

  it('serves Kysely, in and out of transactions, and closes with it', async () => {
    const db = new Kysely<{ t: { x: number } }>({ dialect: new SqliteDialect({ database: open() }) });
    const sum = async () => (await sql<{ s: number }>`SELECT SUM(x) AS s FROM t`.execute(db)).rows[0]?.s;
    for (let i = 0; i < 3; i++) {
      await db.transaction().execute((trx) => trx.insertInto('t').values({ x: 4 }).execute());
      await expect(
        db.transaction().execute(async (trx) => {
          await trx.insertInto('t').values({ x: 100 }).execute();
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
    }
    expect(await sum()).toBe(18);
    await db.destroy();
    expect(sqlite.open).toBe(false);
  });
});
