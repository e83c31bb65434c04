// Test databases: a temporary SQLite file always, plus a fresh PostgreSQL/MySQL database when
// TEST_PG_DSN / TEST_MYSQL_DSN name a server. Each call gets its own database, dropped on close.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import pg from 'pg';
import { createDb } from '../db/create-db.js';
import type { Db, DialectName } from '../db/create-db.js';
import { randomString } from '../platform/random.js';

export interface TestDb extends Db {
  /** Where a server process finds the same database (SQL_DSN); '' for SQLite. */
  dsn: string;
  /** Drops the database and closes the pool. */
  dispose(): Promise<void>;
}

export function testDialects(): DialectName[] {
  const list: DialectName[] = ['sqlite'];
  if (process.env.TEST_PG_DSN) list.push('postgres');
  if (process.env.TEST_MYSQL_DSN) list.push('mysql');
  return list;
}

const withDatabase = (dsn: string, name: string): string => {
  const url = new URL(dsn);
  url.pathname = `/${name}`;
  return url.toString();
};

export async function createTestDb(dialect: DialectName = 'sqlite'): Promise<TestDb> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-test-'));
    const db = await createDb({ sqlDsn: '', sqlitePath: join(dir, 'test.db') });
    return {
      ...db,
      dsn: '',
      async dispose() {
        await db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `sluice_t_${randomString(10, 'abcdefghijklmnopqrstuvwxyz0123456789')}`;
  if (dialect === 'postgres') {
    const admin = process.env.TEST_PG_DSN as string;
    const run = async (sql: string) => {
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    };
    await run(`CREATE DATABASE ${name}`);
    const dsn = withDatabase(admin, name);
    const db = await createDb({ sqlDsn: dsn, sqlitePath: '' });
    return {
      ...db,
      dsn,
      async dispose() {
        await db.close();
        // Without FORCE: terminating the pool's last connections would surface as unhandled errors.
        // A connection may still be closing for a moment after the pool ends, hence the retries.
        for (let attempt = 0; ; attempt++) {
          try {
            await run(`DROP DATABASE IF EXISTS ${name}`);
            return;
          } catch (error) {
            if (attempt >= 20) throw error;
            await new Promise((r) => setTimeout(r, 100));
          }
        }
      },
    };
  }
  const admin = process.env.TEST_MYSQL_DSN as string;
  const run = async (sql: string) => {
    const conn = await createConnection({ uri: admin });
    try {
      await conn.query(sql);
    } finally {
      await conn.end();
    }
  };
  await run(`CREATE DATABASE ${name} CHARACTER SET utf8mb4`);
  const dsn = withDatabase(admin, name);
  const db = await createDb({ sqlDsn: dsn, sqlitePath: '' });
  return {
    ...db,
    dsn,
    async dispose() {
      await db.close();
      await run(`DROP DATABASE IF EXISTS ${name}`);
    },
  };
}
