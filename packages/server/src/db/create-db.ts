// Opens the database named by the configuration (SQLite file, PostgreSQL or MySQL) and migrates it.
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely, Migrator, MysqlDialect, PostgresDialect, SqliteDialect } from 'kysely';
import type { CustomTypesConfig } from 'pg';
import type { DatabaseConnection, Driver, Migration, MigrationProvider, SqliteDatabase } from 'kysely';
import { restrictToOwner } from '../platform/owner-only.js';
import * as initial from './migrations/2026-11-21-0001-initial.js';
import * as midjourneyTimesInMs from './migrations/2026-11-25-0001-midjourney-times-in-ms.js';
import * as userSetting from './migrations/2026-11-25-0002-user-setting.js';
import * as taskRelayColumns from './migrations/2026-11-27-0001-task-relay-columns.js';
import * as passwordChangeRequired from './migrations/2026-11-27-0002-password-change-required.js';
import * as logRequestId from './migrations/2026-11-27-0003-log-request-id.js';
import * as balanceSnapshots from './migrations/2026-11-27-0004-balance-snapshots.js';
import type { Database } from './tables.js';

export type DialectName = 'sqlite' | 'postgres' | 'mysql';

export interface Db {
  db: Kysely<Database>;
  dialect: DialectName;
  /** The database file, for SQLite on a file (a second connection may open it); null otherwise. */
  sqliteFile: string | null;
  /** The connection pool's counts (PostgreSQL, MySQL); SQLite has one connection and no pool. */
  poolStats?: () => PoolStats;
  close(): Promise<void>;
}

/** Connections open, idle ones among them, and queries waiting for one. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/** A length the driver keeps on an internal queue, or 0 when it is not there (another version). */
const lengthOf = (queue: unknown): number => {
  const length = (queue as { length?: unknown } | null | undefined)?.length;
  return typeof length === 'number' ? length : 0;
};

/** Migrations in the order they run; names are dated and never change. */
const MIGRATIONS: Record<string, Migration> = {
  '2026-11-21-0001-initial': initial,
  '2026-11-25-0001-midjourney-times-in-ms': midjourneyTimesInMs,
  '2026-11-25-0002-user-setting': userSetting,
  '2026-11-27-0001-task-relay-columns': taskRelayColumns,
  '2026-11-27-0002-password-change-required': passwordChangeRequired,
  '2026-11-27-0003-log-request-id': logRequestId,
  '2026-11-27-0004-balance-snapshots': balanceSnapshots,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export function dialectFromDsn(dsn: string): DialectName {
  if (dsn === '') return 'sqlite';
  if (/^postgres(ql)?:\/\//i.test(dsn)) return 'postgres';
  if (/^mysql:\/\//i.test(dsn)) return 'mysql';
  throw new Error('SQL_DSN must start with postgres:// or mysql://');
}

/** Prepared statements kept per connection; enough for every query text the server runs often. */
const STATEMENT_CACHE = 256;

/**
 * The SQLite handle as Kysely sees it, with prepared statements kept by SQL text (least recently
 * used dropped first): Kysely's driver prepares every query it runs, and preparing cost more than
 * running the small queries of the relay. A statement still being iterated is never handed out
 * again; that caller gets a fresh one.
 */
export function withStatementCache(sqlite: SQLite.Database, size = STATEMENT_CACHE): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text) {
      const kept = statements.get(text);
      if (kept !== undefined) {
        if (kept.busy) return sqlite.prepare(text);
        // Map order is insertion order: moving the hit to the end keeps the oldest first.
        statements.delete(text);
        statements.set(text, kept);
        return kept;
      }
      const statement = sqlite.prepare(text);
      statements.set(text, statement);
      if (statements.size > size) statements.delete(statements.keys().next().value as string);
      return statement;
    },
  };
}

/**
 * SQLite whose transactions begin immediate: they take the write lock at their start (waiting
 * through the busy timeout) instead of at their first write, where a commit by another connection
 * (the ledger's writer thread) would make them fail with a stale snapshot.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection: DatabaseConnection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    };
    return driver;
  }
}

// The driver of the dialect in use is loaded, not the others: each costs memory the relay can use.
async function openKysely(
  dsn: string,
  sqlitePath: string,
  dialect: DialectName,
): Promise<{ db: Kysely<Database>; poolStats?: () => PoolStats }> {
  if (dialect === 'postgres') {
    const pg = (await import('pg')).default;
    // 64-bit integers (COUNT, SUM, bigint columns) come back as JS numbers; quotas stay far below 2^53.
    const pgTypes = {
      getTypeParser(oid: number, format?: 'text' | 'binary') {
        if (oid === 20 /* int8 */ || oid === 1700 /* numeric */) return (v: string) => Number(v);
        return pg.types.getTypeParser(oid, format);
      },
    };
    const pool = new pg.Pool({ connectionString: dsn, max: 20, types: pgTypes as CustomTypesConfig });
    return {
      db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }),
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    };
  }
  if (dialect === 'mysql') {
    const { createPool: createMysqlPool } = await import('mysql2');
    const pool = createMysqlPool({
      uri: dsn,
      connectionLimit: 20,
      // SUM() and DECIMAL come back as numbers, like the other dialects.
      decimalNumbers: true,
      supportBigNumbers: true,
      bigNumberStrings: false,
      timezone: 'Z',
    });
    // mysql2 publishes no counts; its pool keeps them as the lengths of three queues.
    const queues = pool as unknown as Record<
      '_allConnections' | '_freeConnections' | '_connectionQueue',
      unknown
    >;
    return {
      db: new Kysely<Database>({ dialect: new MysqlDialect({ pool }) }),
      poolStats: () => ({
        total: lengthOf(queues._allConnections),
        idle: lengthOf(queues._freeConnections),
        waiting: lengthOf(queues._connectionQueue),
      }),
    };
  }
  if (sqlitePath !== ':memory:') {
    mkdirSync(dirname(sqlitePath), { recursive: true });
    // The file holds password hashes and channel keys: readable by its owner only. SQLite gives the
    // -wal and -shm files it creates the database file's mode; files left by an earlier start keep
    // theirs, so those are tightened too.
    closeSync(openSync(sqlitePath, 'a', 0o600));
    for (const file of [sqlitePath, `${sqlitePath}-wal`, `${sqlitePath}-shm`]) restrictToOwner(file);
  }
  const sqlite = new SQLite(sqlitePath);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  return {
    db: new Kysely<Database>({
      dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }),
    }),
  };
}

/** The migrator of Sluice's migrations (tests step it down and up again). */
export const migrator = (db: Kysely<Database>): Migrator => new Migrator({ db, provider });

export async function migrate(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? failed?.migrationName);
    throw new Error(`database migration failed: ${reason}`);
  }
}

export async function createDb(opts: { sqlDsn: string; sqlitePath: string }): Promise<Db> {
  const dialect = dialectFromDsn(opts.sqlDsn);
  const { db, poolStats } = await openKysely(opts.sqlDsn, opts.sqlitePath, dialect);
  await migrate(db);
  const sqliteFile = dialect === 'sqlite' && opts.sqlitePath !== ':memory:' ? opts.sqlitePath : null;
  return { db, dialect, sqliteFile, ...(poolStats ? { poolStats } : {}), close: () => db.destroy() };
}
