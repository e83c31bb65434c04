// The database being moved from: a one-api/new-api SQLite file, or a PostgreSQL or MySQL server.
// Opened read-only where the driver allows it, never migrated, read a page at a time.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect } from 'kysely';
import type { DialectName } from '../../db/create-db.js';
import { intOf } from './values.js';
import type { SourceRow } from './values.js';

/** Any table, any columns: what the source holds is discovered, not assumed. */
type SourceTables = Record<string, Record<string, unknown>>;

export interface Source {
  dialect: DialectName;
  /** Where it is, for messages: the file, or the DSN without its password. */
  label: string;
  /** The SQLite file, resolved; null for a server. */
  file: string | null;
  /** Every table (lower-case name) with its columns (lower-case). */
  tables(): Promise<ReadonlyMap<string, ReadonlySet<string>>>;
  /** Up to `limit` rows with an id above `afterId`, in id order. */
  page(table: string, afterId: number, limit: number): Promise<SourceRow[]>;
  /** A small table whole (options). */
  all(table: string): Promise<SourceRow[]>;
  /** The highest id in a table (0 when it is empty). */
  maxId(table: string): Promise<number>;
  close(): Promise<void>;
}

/**
 * one-api and new-api take MySQL as Go's DSN (`user:pass@tcp(host:3306)/db?…`); that form is accepted
 * too and read as the equivalent mysql:// URL.
 */
export function normaliseSourceDsn(spec: string): string {
  const go = /^([^:@/]*)(?::(.*))?@tcp\(([^)]+)\)\/([^?]*)(\?.*)?$/.exec(spec.trim());
  if (!go) return spec.trim();
  const [, user = '', password, host = '', database = ''] = go;
  const auth =
    password === undefined
      ? encodeURIComponent(user)
      : `${encodeURIComponent(user)}:${encodeURIComponent(password)}`;
  return `mysql://${auth}@${host}/${database}`;
}

export function sourceDialect(spec: string): DialectName {
  if (/^postgres(ql)?:\/\//i.test(spec)) return 'postgres';
  if (/^mysql:\/\//i.test(spec)) return 'mysql';
  return 'sqlite';
}

const withoutPassword = (dsn: string): string => {
  try {
    const url = new URL(dsn);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return dsn;
  }
};

async function openKysely(spec: string, dialect: DialectName): Promise<Kysely<SourceTables>> {
  if (dialect === 'postgres') {
    const pg = (await import('pg')).default;
    const pool = new pg.Pool({ connectionString: spec, max: 2 });
    return new Kysely<SourceTables>({ dialect: new PostgresDialect({ pool }) });
  }
  if (dialect === 'mysql') {
    const { createPool } = await import('mysql2');
    const pool = createPool({
      uri: spec,
      connectionLimit: 2,
      supportBigNumbers: true,
      bigNumberStrings: false,
    });
    return new Kysely<SourceTables>({ dialect: new MysqlDialect({ pool }) });
  }
  const sqlite = new SQLite(spec, { readonly: true, fileMustExist: true });
  return new Kysely<SourceTables>({ dialect: new SqliteDialect({ database: sqlite }) });
}

/** Opens a source given as a file path or a postgres:// / mysql:// DSN; throws a sentence when it cannot. */
export async function openSource(given: string): Promise<Source> {
  const spec = normaliseSourceDsn(given);
  if (spec === '') throw new Error('no source given: name a one-api/new-api SQLite file or a DSN');
  const dialect = sourceDialect(spec);
  const file = dialect === 'sqlite' ? resolve(spec) : null;
  if (file !== null && !existsSync(file)) throw new Error(`no such file: ${file}`);
  const db = await openKysely(file ?? spec, dialect);
  let tables: Map<string, Set<string>> | undefined;
  // Table names as the source spells them (PostgreSQL and MySQL may keep another case).
  const names = new Map<string, string>();

  const source: Source = {
    dialect,
    label: file ?? withoutPassword(spec),
    file,
    async tables() {
      if (tables) return tables;
      const found = await db.introspection.getTables();
      tables = new Map();
      for (const table of found) {
        if (dialect === 'postgres' && table.schema !== undefined && table.schema !== 'public') continue;
        const name = table.name.toLowerCase();
        names.set(name, table.name);
        tables.set(name, new Set(table.columns.map((c) => c.name.toLowerCase())));
      }
      return tables;
    },
    async page(table, afterId, limit) {
      const rows = await db
        .selectFrom(names.get(table) ?? table)
        .selectAll()
        .where('id', '>', afterId)
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map(lowerKeys);
    },
    async all(table) {
      const rows = await db
        .selectFrom(names.get(table) ?? table)
        .selectAll()
        .execute();
      return rows.map(lowerKeys);
    },
    async maxId(table) {
      const row = await db
        .selectFrom(names.get(table) ?? table)
        .select((eb) => eb.fn.max('id').as('top'))
        .executeTakeFirst();
      return intOf(row?.top, 0);
    },
    close: () => db.destroy(),
  };
  try {
    await source.tables();
  } catch (error) {
    await db.destroy().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`cannot read the source ${source.label}: ${reason}`, { cause: error });
  }
  return source;
}

function lowerKeys(row: Record<string, unknown>): SourceRow {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) out[key.toLowerCase()] = value;
  return out;
}
