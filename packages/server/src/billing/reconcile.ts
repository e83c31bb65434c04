// Reconciliation: for every user (quota, used quota, invite earnings) and token (used quota), the
// change of its balance over a period against the sum of the log rows that moved it. Every write that
// moves money writes its log row in the same transaction, stating the signed change: a consumption
// row (type 2) by its `quota` column (spent), every other row by `other.quota_delta`,
// `other.used_quota_delta` (also the token's, when the row names one) and `other.aff_quota_delta`
// (docs/relay-design.md, "Billing guarantees"). A difference is money that moved without its row (or
// a row without its money): a bug, a lost write, a hand edit of the database.
//
// A period runs from a snapshot (the balances as of a moment, stored in balance_snapshots) or from
// the beginning (every balance 0), to a later snapshot or to now. The check is exact: balances and log
// sums are read in one consistent read, so a batch committing meanwhile is either wholly in it or not.
// A snapshot is taken as of SNAPSHOT_MARGIN_S before the read (its balances are the read's, less what
// the rows created since then moved), so rows written late — a batch commits after the moment its
// calls ended — still fall on the right side of it. A snapshot is only taken when the period up to it
// reconciles (or when told to accept the differences, which then become the new starting point).
import { LOG_TYPE, parseOptionValue } from '@sluice/shared';
import type { OptionKey, OptionValue } from '@sluice/shared';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DialectName } from '../db/create-db.js';
import type { Database } from '../db/tables.js';
import { changeOfRow, zero } from './log-amounts.js';
import type { Amounts, Category, Field, RowChange } from './log-amounts.js';

/** How long before the read a snapshot is taken as of: longer than any row takes to commit. */
export const SNAPSHOT_MARGIN_S = 300;

/** Rows read per query when the log rows other than consumption are walked. */
const PAGE = 5000;
/** Snapshot rows per insert statement. */
const INSERT_ROWS = 500;

/** What the log rows of a period moved, per account, with the part of each category. */
interface Movement {
  total: Amounts;
  by: Map<Category, Amounts>;
}

interface Movements {
  users: Map<number, Movement>;
  tokens: Map<number, Movement>;
  /** Log rows that moved money. */
  rows: number;
}

function add(map: Map<number, Movement>, id: number, change: RowChange): void {
  let m = map.get(id);
  if (!m) map.set(id, (m = { total: zero(), by: new Map() }));
  let part = m.by.get(change.category);
  if (!part) m.by.set(change.category, (part = zero()));
  for (const field of ['quota', 'used_quota', 'aff_quota'] as const) {
    m.total[field] += change[field];
    part[field] += change[field];
  }
}

/** Created at or after `from` and before `to` (either open). */
interface Range {
  from: number | null;
  to: number | null;
}

async function logMovements(q: Kysely<Database>, range: Range): Promise<Movements> {
  const out: Movements = { users: new Map(), tokens: new Map(), rows: 0 };
  let consumption = q.selectFrom('logs').where('type', '=', LOG_TYPE.consume).where('quota', '!=', 0);
  if (range.from !== null) consumption = consumption.where('created_at', '>=', range.from);
  if (range.to !== null) consumption = consumption.where('created_at', '<', range.to);
  const [byUser, byToken] = await Promise.all([
    consumption
      .select((eb) => ['user_id', eb.fn.sum<number>('quota').as('spent'), eb.fn.countAll<number>().as('n')])
      .groupBy('user_id')
      .execute(),
    consumption
      .where('token_id', '>', 0)
      .select((eb) => ['token_id', eb.fn.sum<number>('quota').as('spent')])
      .groupBy('token_id')
      .execute(),
  ]);
  for (const r of byUser) {
    const spent = Number(r.spent);
    add(out.users, Number(r.user_id), {
      category: 'consumption',
      quota: -spent,
      used_quota: spent,
      aff_quota: 0,
    });
    out.rows += Number(r.n);
  }
  for (const r of byToken) {
    const spent = Number(r.spent);
    add(out.tokens, Number(r.token_id), {
      category: 'consumption',
      quota: -spent,
      used_quota: spent,
      aff_quota: 0,
    });
  }

  // Everything else (top-ups, admin changes, grants, transfers, refunds) states its change in `other`.
  for (let after = 0; ;) {
    let page = q
      .selectFrom('logs')
      .select(['id', 'user_id', 'token_id', 'type', 'other'])
      .where('type', 'not in', [LOG_TYPE.consume, LOG_TYPE.error])
      .where('id', '>', after);
    if (range.from !== null) page = page.where('created_at', '>=', range.from);
    if (range.to !== null) page = page.where('created_at', '<', range.to);
    const rows = await page.orderBy('id').limit(PAGE).execute();
    for (const row of rows) {
      const change = changeOfRow({ type: Number(row.type), other: row.other ?? '' });
      if (!change) continue;
      out.rows++;
      add(out.users, Number(row.user_id), change);
      const tokenId = Number(row.token_id);
      if (tokenId > 0 && change.used_quota !== 0) add(out.tokens, tokenId, change);
    }
    if (rows.length < PAGE) break;
    after = Number(rows[rows.length - 1]?.id);
  }
  return out;
}

interface UserBalance extends Amounts {
  name: string;
}
interface TokenBalance {
  name: string;
  userId: number;
  used_quota: number;
}

interface Accounts {
  users: Map<number, UserBalance>;
  tokens: Map<number, TokenBalance>;
}

async function liveBalances(q: Kysely<Database>): Promise<Accounts> {
  const [users, tokens] = await Promise.all([
    q.selectFrom('users').select(['id', 'username', 'quota', 'used_quota', 'aff_quota']).execute(),
    q.selectFrom('tokens').select(['id', 'user_id', 'name', 'used_quota']).execute(),
  ]);
  return {
    users: new Map(
      users.map((u) => [
        Number(u.id),
        {
          name: u.username,
          quota: Number(u.quota),
          used_quota: Number(u.used_quota),
          aff_quota: Number(u.aff_quota),
        },
      ]),
    ),
    tokens: new Map(
      tokens.map((t) => [
        Number(t.id),
        { name: t.name, userId: Number(t.user_id), used_quota: Number(t.used_quota) },
      ]),
    ),
  };
}

/** The balances a snapshot stored: users' and tokens' by id (accounts without a row had 0). */
interface SnapshotBalances {
  users: Map<number, Amounts>;
  tokens: Map<number, number>;
}

async function snapshotBalances(q: Kysely<Database>, asOf: number): Promise<SnapshotBalances> {
  const rows = await q
    .selectFrom('balance_snapshots')
    .select(['kind', 'account_id', 'quota', 'used_quota', 'aff_quota'])
    .where('as_of', '=', asOf)
    .execute();
  const out: SnapshotBalances = { users: new Map(), tokens: new Map() };
  for (const r of rows) {
    if (r.kind === 'token') out.tokens.set(Number(r.account_id), Number(r.used_quota));
    else {
      out.users.set(Number(r.account_id), {
        quota: Number(r.quota),
        used_quota: Number(r.used_quota),
        aff_quota: Number(r.aff_quota),
      });
    }
  }
  return out;
}

/** Snapshot times, oldest first. */
export async function listSnapshots(db: Kysely<Database>): Promise<number[]> {
  const rows = await db.selectFrom('balance_snapshots').select('as_of').distinct().orderBy('as_of').execute();
  return rows.map((r) => Number(r.as_of));
}

/**
 * Runs `work` on one consistent view of the database. SQLite: a deferred transaction on the one
 * connection — a read snapshot that never takes the write lock, so the ledger's writer thread is
 * never held up; PostgreSQL and MySQL: a repeatable-read transaction.
 */
async function consistentRead<T>(
  db: Kysely<Database>,
  dialect: DialectName,
  work: (q: Kysely<Database>) => Promise<T>,
): Promise<T> {
  if (dialect !== 'sqlite') return db.transaction().setIsolationLevel('repeatable read').execute(work);
  return db.connection().execute(async (conn) => {
    await sql`begin deferred`.execute(conn);
    try {
      const out = await work(conn);
      await sql`commit`.execute(conn);
      return out;
    } catch (error) {
      await sql`rollback`.execute(conn);
      throw error;
    }
  });
}

async function storedOption<K extends OptionKey>(
  q: Kysely<Database>,
  key: K,
): Promise<OptionValue<K> | undefined> {
  const row = await q.selectFrom('options').select('value').where('key', '=', key).executeTakeFirst();
  if (!row) return undefined;
  const parsed = parseOptionValue(key, row.value);
  return parsed.ok ? parsed.value : undefined;
}

export interface Difference {
  kind: 'user' | 'token';
  id: number;
  /** The username, or the token's name. */
  name: string;
  /** A token's user. */
  user_id?: number;
  field: Field;
  /** The balance at the start of the period and at its end. */
  start: number;
  end: number;
  /** What the log rows of the period moved. */
  logged: number;
  /** (end − start) − logged: moved without a log row when positive or negative. */
  difference: number;
  /** The logged change by category. */
  by: Partial<Record<Category, number>>;
}

export interface ReconcileReport {
  /** The snapshot the period starts from (unix seconds), or null: the beginning, every balance 0. */
  from: number | null;
  /** The snapshot the period ends at, or null: now (`checked_at`). */
  to: number | null;
  checked_at: number;
  users: number;
  tokens: number;
  /** Log rows of the period that moved money. */
  log_rows: number;
  /** What the period's rows moved across all users, by category. */
  totals: Partial<Record<Category, Amounts>>;
  differences: Difference[];
  /** Why the check may not be exact for this period (consumption logging off, purged logs…). */
  warnings: string[];
}

/** Balances at one end of the period. */
interface Side {
  users: Map<number, Amounts>;
  tokens: Map<number, number>;
}

const USER_FIELDS: readonly Field[] = ['quota', 'used_quota', 'aff_quota'];

function compare(
  accounts: Accounts,
  start: Side,
  end: Side,
  moved: Movements,
): { differences: Difference[]; totals: ReconcileReport['totals'] } {
  const differences: Difference[] = [];
  const byField = (m: Movement | undefined, field: Field) => {
    const by: Partial<Record<Category, number>> = {};
    for (const [category, part] of m?.by ?? []) if (part[field] !== 0) by[category] = part[field];
    return by;
  };
  for (const [id, user] of accounts.users) {
    const a = start.users.get(id) ?? zero();
    const b = end.users.get(id) ?? zero();
    const m = moved.users.get(id);
    for (const field of USER_FIELDS) {
      const logged = m?.total[field] ?? 0;
      const difference = b[field] - a[field] - logged;
      if (difference !== 0) {
        differences.push({
          kind: 'user',
          id,
          name: user.name,
          field,
          start: a[field],
          end: b[field],
          logged,
          difference,
          by: byField(m, field),
        });
      }
    }
  }
  for (const [id, token] of accounts.tokens) {
    const a = start.tokens.get(id) ?? 0;
    const b = end.tokens.get(id) ?? 0;
    const m = moved.tokens.get(id);
    const logged = m?.total.used_quota ?? 0;
    const difference = b - a - logged;
    if (difference !== 0) {
      differences.push({
        kind: 'token',
        id,
        name: token.name,
        user_id: token.userId,
        field: 'used_quota',
        start: a,
        end: b,
        logged,
        difference,
        by: byField(m, 'used_quota'),
      });
    }
  }
  const totals: ReconcileReport['totals'] = {};
  for (const m of moved.users.values()) {
    for (const [category, part] of m.by) {
      const sum = (totals[category] ??= zero());
      for (const field of USER_FIELDS) sum[field] += part[field];
    }
  }
  return { differences, totals };
}

const liveSide = (accounts: Accounts): Side => ({
  users: accounts.users,
  tokens: new Map([...accounts.tokens].map(([id, t]) => [id, t.used_quota])),
});

async function warningsFor(q: Kysely<Database>, from: number | null, now: number): Promise<string[]> {
  const warnings: string[] = [];
  if ((await storedOption(q, 'LogConsumeEnabled')) === false) {
    warnings.push(
      'LogConsumeEnabled is off: calls are charged without a consumption row, so their charges show as differences',
    );
  }
  const days = (await storedOption(q, 'LogRetentionDays')) ?? 0;
  if (days > 0 && (from === null || from < now - days * 86400)) {
    warnings.push(
      `LogRetentionDays is ${days}: rows older than that may have been deleted; reconcile from a snapshot taken within the last ${days} days`,
    );
  }
  return warnings;
}

export interface PeriodInput {
  /** undefined: from the latest snapshot; 0 or null: from the beginning; else the latest snapshot at or before it. */
  start?: number | null;
  /** undefined or null: to now; else the first snapshot at or after it (now when there is none). */
  end?: number | null;
}

/** The snapshots a period runs between, from the ones taken. */
export function resolvePeriod(
  snapshots: readonly number[],
  input: PeriodInput,
): { from: number | null; to: number | null } {
  const to = input.end == null ? null : (snapshots.find((s) => s >= (input.end as number)) ?? null);
  const before = snapshots.filter((s) => to === null || s < to);
  let from: number | null;
  if (input.start === undefined) from = before[before.length - 1] ?? null;
  else if (input.start === null || input.start === 0) from = null;
  else from = before.filter((s) => s <= (input.start as number)).pop() ?? null;
  return { from, to };
}

/** The check over the period, on one consistent read. */
export async function reconcile(
  db: Kysely<Database>,
  dialect: DialectName,
  opts: PeriodInput & { now: number },
): Promise<ReconcileReport> {
  const period = resolvePeriod(await listSnapshots(db), opts);
  return consistentRead(db, dialect, async (q) => check(q, period, opts.now, await liveBalances(q)));
}

async function check(
  q: Kysely<Database>,
  period: { from: number | null; to: number | null },
  now: number,
  accounts: Accounts,
): Promise<ReconcileReport> {
  const start =
    period.from === null ? { users: new Map(), tokens: new Map() } : await snapshotBalances(q, period.from);
  const end = period.to === null ? liveSide(accounts) : await snapshotBalances(q, period.to);
  const moved = await logMovements(q, { from: period.from, to: period.to });
  const { differences, totals } = compare(accounts, start, end, moved);
  const missing = [...moved.users.keys()].filter((id) => !accounts.users.has(id)).length;
  const warnings = await warningsFor(q, period.from, now);
  if (missing > 0) warnings.push(`log rows name ${missing} user(s) that are no longer in the database`);
  return {
    from: period.from,
    to: period.to,
    checked_at: now,
    users: accounts.users.size,
    tokens: accounts.tokens.size,
    log_rows: moved.rows,
    totals,
    differences,
    warnings,
  };
}

export interface SnapshotResult {
  /** The check from the latest snapshot (or the beginning) to now, on the same read. */
  report: ReconcileReport;
  /** The time the new snapshot is as of; null when none was stored. */
  saved: number | null;
}

/**
 * Checks the period since the latest snapshot and, when it reconciles (or `accept` is set), stores a
 * snapshot as of SNAPSHOT_MARGIN_S before now: the balances read, less what rows created since then
 * moved. With `accept`, the differences found become part of the new starting point.
 */
export async function takeSnapshot(
  db: Kysely<Database>,
  dialect: DialectName,
  opts: { now: number; accept?: boolean },
): Promise<SnapshotResult> {
  const snapshots = await listSnapshots(db);
  const asOf = opts.now - SNAPSHOT_MARGIN_S;
  const latest = snapshots[snapshots.length - 1] ?? null;
  const { report, rows } = await consistentRead(db, dialect, async (q) => {
    const accounts = await liveBalances(q);
    const report = await check(q, { from: latest, to: null }, opts.now, accounts);
    const since = await logMovements(q, { from: asOf, to: null });
    const rows: Array<{ kind: 'user' | 'token'; account_id: number } & Amounts> = [];
    for (const [id, u] of accounts.users) {
      const m = since.users.get(id)?.total ?? zero();
      rows.push({
        kind: 'user',
        account_id: id,
        quota: u.quota - m.quota,
        used_quota: u.used_quota - m.used_quota,
        aff_quota: u.aff_quota - m.aff_quota,
      });
    }
    for (const [id, t] of accounts.tokens) {
      const used = t.used_quota - (since.tokens.get(id)?.total.used_quota ?? 0);
      if (used !== 0) rows.push({ kind: 'token', account_id: id, quota: 0, used_quota: used, aff_quota: 0 });
    }
    return { report, rows };
  });
  if (latest !== null && latest >= asOf) {
    report.warnings.push(`a snapshot as of ${latest} is already as recent; none was stored`);
    return { report, saved: null };
  }
  if (report.differences.length > 0 && !opts.accept) return { report, saved: null };
  if (rows.length === 0) {
    report.warnings.push('there are no accounts yet; no snapshot was stored');
    return { report, saved: null };
  }
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += INSERT_ROWS) {
      await trx
        .insertInto('balance_snapshots')
        .values(rows.slice(i, i + INSERT_ROWS).map((r) => ({ as_of: asOf, ...r })))
        .execute();
    }
  });
  return { report, saved: asOf };
}
