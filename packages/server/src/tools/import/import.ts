// Moves a one-api/new-api database into Sluice's: table by table, each in one transaction, read a page
// at a time, every row keeping its source id (a row already there under that id is replaced, so a
// second run changes nothing), the channel index rebuilt with Sluice's own code as channels arrive.
// Afterwards new ids start past the imported ones (PostgreSQL's sequences do not move by themselves),
// and past the source's log ids even when the logs stay behind, so that a later --with-logs run never
// meets a log row Sluice wrote meanwhile.
import { resolve } from 'node:path';
import { sql } from 'kysely';
import type { Kysely, Transaction } from 'kysely';
import { ROLE } from '@sluice/shared';
import { syncAbilities } from '../../db/abilities.js';
import type { Db, DialectName } from '../../db/create-db.js';
import type { Database } from '../../db/tables.js';
import { ROOT_USERNAME } from '../../features/users/root-user.js';
import { sortOptions, writeOptions } from './options.js';
import type { OptionsReport } from './options.js';
import type { Source } from './sources.js';
import { CHANNELS, USERS } from './account-tables.js';
import { isSkip } from './table-spec.js';
import type { ConvertContext, SourceKind, TableSpec } from './table-spec.js';
import { TABLES } from './tables.js';
import { intOf, textOf } from './values.js';

/** The target seen with every table holding any columns: the generic writer's view. */
type LooseTables = Record<string, Record<string, unknown>>;
type Row = Record<string, unknown>;

export interface ImportOptions {
  source: Source;
  /** Where `logs` lives when the source kept it in another database (new-api's LOG_SQL_DSN). */
  logsSource?: Source;
  target: Db;
  /** Import into a target that already has users (other than a fresh root), tokens or channels. */
  force?: boolean;
  /** Also the usage logs and the hourly statistics (quota_data). */
  withLogs?: boolean;
  /** Detected from the source's columns when not given. */
  kind?: SourceKind;
  /** Rows read from the source at a time. */
  pageSize?: number;
  /** After each page: the table and the rows read from it so far. */
  onProgress?: (table: string, rowsRead: number) => void;
  /** Unix seconds (tests). */
  now?: number;
}

export interface TableReport {
  table: string;
  /** `missing`: the source has no such table; `not-requested`: logs without --with-logs. */
  state: 'imported' | 'missing' | 'not-requested';
  read: number;
  written: number;
  skipped: { reason: string; count: number; ids: number[] }[];
  /** Source columns Sluice has no place for. */
  dropped: string[];
  notes: { text: string; count: number }[];
  /** Target rows removed because an incoming row held their username or key under another id. */
  replaced: number;
}

export interface ImportReport {
  kind: SourceKind;
  tables: TableReport[];
  options: OptionsReport | null;
  /** Rows in the rebuilt channel index. */
  abilities: number;
  warnings: string[];
}

/** The target already holds data and --force was not given. */
export class TargetNotEmptyError extends Error {}

const PAGE_SIZE = 500;
/** Rows per INSERT: well inside every driver's limit on bound parameters. */
const INSERT_CHUNK = 100;
/** Ids listed per skip reason in the report. */
const LISTED_IDS = 10;

export function detectKind(tables: ReadonlyMap<string, ReadonlySet<string>>): SourceKind {
  const users = tables.get('users');
  const channels = tables.get('channels');
  if (!users || !channels || !tables.has('tokens')) {
    throw new Error('this is not a one-api or new-api database: it has no users, tokens and channels tables');
  }
  // new-api added invitations, channel tags and drawings early; one-api has none of them.
  return users.has('aff_count') || channels.has('other_info') || tables.has('midjourneys')
    ? 'new-api'
    : 'one-api';
}

interface TargetState {
  users: number;
  tokens: number;
  channels: number;
  /** The root account Sluice creates on its first start, still untouched; null when there is none. */
  freshRootId: number | null;
}

async function countOf(db: Kysely<Database>, table: 'users' | 'tokens' | 'channels'): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function inspectTarget(db: Kysely<Database>): Promise<TargetState> {
  const [users, tokens, channels] = await Promise.all([
    countOf(db, 'users'),
    countOf(db, 'tokens'),
    countOf(db, 'channels'),
  ]);
  let freshRootId: number | null = null;
  if (users === 1 && tokens === 0) {
    const only = await db
      .selectFrom('users')
      .select(['id', 'username', 'role', 'request_count', 'used_quota'])
      .executeTakeFirstOrThrow();
    const untouched = Number(only.request_count) === 0 && Number(only.used_quota) === 0;
    if (only.username === ROOT_USERNAME && only.role === ROLE.root && untouched)
      freshRootId = Number(only.id);
  }
  return { users, tokens, channels, freshRootId };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Why the target does not count as empty, or null when it does. */
function nonEmptyReason(state: TargetState): string | null {
  const users = state.freshRootId === null ? state.users : 0;
  if (users === 0 && state.tokens === 0 && state.channels === 0) return null;
  const held = [
    users > 0 ? plural(users, 'user') : '',
    state.tokens > 0 ? plural(state.tokens, 'token') : '',
    state.channels > 0 ? plural(state.channels, 'channel') : '',
  ].filter((s) => s !== '');
  return held.join(', ');
}

export async function importDatabase(opts: ImportOptions): Promise<ImportReport> {
  const { source, target } = opts;
  if (source.file !== null && target.sqliteFile !== null && source.file === resolve(target.sqliteFile)) {
    throw new Error('the source is the target database itself');
  }
  const tables = await source.tables();
  const kind = opts.kind ?? detectKind(tables);
  const state = await inspectTarget(target.db);
  const held = nonEmptyReason(state);
  if (held !== null && !opts.force) {
    throw new TargetNotEmptyError(
      `the target database is not empty (it has ${held}). Run again with --force to import over it: ` +
        'rows with the same ids as the source rows are replaced, the others are kept',
    );
  }

  const report: ImportReport = { kind, tables: [], options: null, abilities: 0, warnings: [] };
  const run = {
    kind,
    now: opts.now ?? Math.floor(Date.now() / 1000),
    pageSize: opts.pageSize ?? PAGE_SIZE,
    onProgress: opts.onProgress,
  };

  if (tables.has('options')) {
    const rows = await source.all('options');
    const { values, report: optionsReport } = sortOptions(rows);
    await target.db.transaction().execute((trx) => writeOptions(trx, values));
    report.options = optionsReport;
    opts.onProgress?.('options', rows.length);
  }

  /** Per table, the lowest id Sluice may hand out next. */
  const nextIds = new Map<string, number>();
  for (const spec of TABLES) {
    const from = spec.name === 'logs' ? (opts.logsSource ?? source) : source;
    if (spec.withLogs && !opts.withLogs) {
      report.tables.push({ ...emptyReport(spec.name), state: 'not-requested' });
      // The source's log ids stay free, so a later run with --with-logs cannot meet Sluice's own rows.
      if ((await from.tables()).has(spec.name)) nextIds.set(spec.name, (await from.maxId(spec.name)) + 1);
      continue;
    }
    // Sluice's first-start root gives way to the source's accounts (it owns nothing yet).
    const freshRoot = spec === USERS ? state.freshRootId : null;
    const done = await importTable(spec, from, target, run, freshRoot);
    report.tables.push(done);
    // PostgreSQL's sequences do not move for explicit ids; SQLite and MySQL move past them themselves.
    if (done.state === 'imported' && target.dialect === 'postgres') nextIds.set(spec.name, 1);
  }
  for (const [table, next] of nextIds) await keepIdsFrom(target, table, next);

  report.abilities = Number(
    (
      await target.db
        .selectFrom('abilities')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

  const admins = await target.db
    .selectFrom('users')
    .select('id')
    .where('role', '>=', ROLE.root)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!admins)
    report.warnings.push('no super admin (role 100) among the users: nobody can change the settings');
  return report;
}

function emptyReport(table: string): TableReport {
  return { table, state: 'imported', read: 0, written: 0, skipped: [], dropped: [], notes: [], replaced: 0 };
}

interface Run {
  kind: SourceKind;
  now: number;
  pageSize: number;
  onProgress: ((table: string, rowsRead: number) => void) | undefined;
}

async function importTable(
  spec: TableSpec,
  source: Source,
  target: Db,
  run: Run,
  freshRootId: number | null,
): Promise<TableReport> {
  const report = emptyReport(spec.name);
  const columns = (await source.tables()).get(spec.name);
  if (!columns) return { ...report, state: 'missing' };
  if (!columns.has('id')) throw new Error(`the source's ${spec.name} table has no id column`);
  report.dropped = [...columns].filter((c) => c !== 'id' && !spec.reads.includes(c)).sort();

  const notes = new Map<string, number>();
  const skipped = new Map<string, { count: number; ids: number[] }>();
  const ctx: ConvertContext = {
    kind: run.kind,
    now: run.now,
    note: (text) => notes.set(text, (notes.get(text) ?? 0) + 1),
  };

  await target.db.transaction().execute(async (trx) => {
    for (let after = 0; ;) {
      const page = await source.page(spec.name, after, run.pageSize);
      if (page.length === 0) break;
      if (after === 0 && freshRootId !== null) {
        await trx.deleteFrom('sessions').where('user_id', '=', freshRootId).execute();
        // Its one log row (the initial quota) goes with it: the source's root comes with its own balance.
        await trx.deleteFrom('logs').where('user_id', '=', freshRootId).execute();
        await trx.deleteFrom('users').where('id', '=', freshRootId).execute();
      }
      const last = intOf(page[page.length - 1]?.id, Number.NaN);
      if (!(last > after)) throw new Error(`the source's ${spec.name} ids are not increasing whole numbers`);
      after = last;
      report.read += page.length;
      const rows: Row[] = [];
      for (const row of page) {
        const out = spec.convert(row, ctx);
        if (!isSkip(out)) {
          rows.push(out);
          continue;
        }
        const entry = skipped.get(out.skip) ?? { count: 0, ids: [] };
        entry.count++;
        if (entry.ids.length < LISTED_IDS) entry.ids.push(intOf(row.id, 0));
        skipped.set(out.skip, entry);
      }
      report.written += await writeRows(trx, target.dialect, spec, rows, report, ctx);
      run.onProgress?.(spec.name, report.read);
    }
  });

  report.skipped = [...skipped].map(([reason, entry]) => ({ reason, ...entry }));
  report.notes = [...notes].map(([text, count]) => ({ text, count }));
  return report;
}

const idsOf = (rows: readonly Row[]): number[] => rows.map((r) => Number(r.id));

/** Distinct non-empty values of a column among the rows. */
const valuesOf = (rows: readonly Row[], column: string): string[] => [
  ...new Set(rows.map((r) => r[column]).filter((v): v is string => typeof v === 'string' && v !== '')),
];

async function writeRows(
  trx: Transaction<Database>,
  dialect: DialectName,
  spec: TableSpec,
  rows: Row[],
  report: TableReport,
  ctx: ConvertContext,
): Promise<number> {
  if (rows.length === 0) return 0;
  const loose = trx as unknown as Transaction<LooseTables>;
  const ids = idsOf(rows);
  if (spec.mergeOn) return mergeRows(loose, dialect, spec.name, spec.mergeOn, rows, ids);

  for (const [column, renew] of Object.entries(spec.renew ?? {})) {
    const values = valuesOf(rows, column);
    if (values.length === 0) continue;
    const holders = await loose
      .selectFrom(spec.name)
      .select(['id', column])
      .where(column, 'in', values)
      .execute();
    const owner = new Map(holders.map((h) => [textOf(h[column], ''), intOf(h.id, 0)]));
    for (const row of rows) {
      const held = owner.get(textOf(row[column], ''));
      if (held === undefined || held === row.id) continue;
      const fresh = renew();
      row[column] = fresh;
      ctx.note(
        `whose ${column} another row already had (${fresh === null ? 'left without one' : 'given a new one'})`,
      );
    }
  }
  const removed: number[] = [];
  for (const column of spec.replaceOn ?? []) {
    const values = valuesOf(rows, column);
    if (values.length === 0) continue;
    const holders = await loose
      .selectFrom(spec.name)
      .select('id')
      .where(column, 'in', values)
      .where('id', 'not in', ids)
      .execute();
    if (holders.length === 0) continue;
    const holderIds = holders.map((h) => intOf(h.id, 0));
    await loose.deleteFrom(spec.name).where('id', 'in', holderIds).execute();
    removed.push(...holderIds);
    report.replaced += holderIds.length;
  }
  await loose.deleteFrom(spec.name).where('id', 'in', ids).execute();
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await loose
      .insertInto(spec.name)
      .values(rows.slice(i, i + INSERT_CHUNK))
      .execute();
  }

  if (spec === USERS) {
    // A session of whoever had these ids before must not open the imported account.
    await trx
      .deleteFrom('sessions')
      .where('user_id', 'in', [...ids, ...removed])
      .execute();
  }
  if (spec === CHANNELS) {
    for (const row of rows) {
      await syncAbilities(trx, {
        id: Number(row.id),
        group: textOf(row.group, ''),
        models: textOf(row.models, ''),
        status: intOf(row.status, 0),
        priority: intOf(row.priority, 0),
        weight: intOf(row.weight, 0),
        tag: textOf(row.tag, ''),
      });
    }
  }
  return rows.length;
}

/**
 * Hourly statistics: rows of one bucket (user, model, hour) are summed; a bucket already in the target
 * under an earlier source id of this run takes the sum. The page's own ids are removed first, so a
 * second run rebuilds the same totals instead of adding to them.
 */
async function mergeRows(
  loose: Transaction<LooseTables>,
  dialect: DialectName,
  table: string,
  mergeOn: readonly string[],
  rows: readonly Row[],
  ids: number[],
): Promise<number> {
  const buckets = new Map<string, Row>();
  for (const row of rows) {
    const key = mergeOn.map((c) => String(row[c])).join('\u0000');
    const bucket = buckets.get(key);
    if (!bucket) {
      buckets.set(key, { ...row });
      continue;
    }
    for (const c of ['token_used', 'count', 'quota']) bucket[c] = intOf(bucket[c], 0) + intOf(row[c], 0);
  }
  await loose.deleteFrom(table).where('id', 'in', ids).execute();
  const merged = [...buckets.values()];
  for (let i = 0; i < merged.length; i += INSERT_CHUNK) {
    const insert = loose.insertInto(table).values(merged.slice(i, i + INSERT_CHUNK));
    if (dialect === 'mysql') {
      await insert
        .onDuplicateKeyUpdate({
          token_used: sql`token_used + values(token_used)`,
          count: sql`count + values(count)`,
          quota: sql`quota + values(quota)`,
        })
        .execute();
    } else {
      await insert
        .onConflict((oc) =>
          oc.columns([...mergeOn]).doUpdateSet({
            token_used: sql`${sql.ref(`${table}.token_used`)} + excluded.token_used`,
            count: sql`${sql.ref(`${table}.count`)} + excluded.count`,
            quota: sql`${sql.ref(`${table}.quota`)} + excluded.quota`,
          }),
        )
        .execute();
    }
  }
  return merged.length;
}

/** Makes the table hand out ids from `next` on (or past its highest id, if that is higher). */
async function keepIdsFrom(target: Db, table: string, next: number): Promise<void> {
  const { db, dialect } = target;
  const top = await sql<{
    top: number | string | null;
  }>`select max(id) as top from ${sql.table(table)}`.execute(db);
  const at = Math.max(next, intOf(top.rows[0]?.top, 0) + 1);
  if (dialect === 'postgres') {
    await sql`select setval(pg_get_serial_sequence(${table}, 'id'), ${at}, false)`.execute(db);
  } else if (dialect === 'mysql') {
    await sql`alter table ${sql.table(table)} auto_increment = ${sql.lit(at)}`.execute(db);
  } else {
    // AUTOINCREMENT tables keep their counter in sqlite_sequence (a row once the table had one).
    const moved =
      await sql`update sqlite_sequence set seq = max(seq, ${at - 1}) where name = ${table}`.execute(db);
    if (Number(moved.numAffectedRows ?? 0) === 0) {
      await sql`insert into sqlite_sequence (name, seq) values (${table}, ${at - 1})`.execute(db);
    }
  }
}
