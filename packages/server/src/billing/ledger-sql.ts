// The SQL of a ledger batch (ledger.ts): one UPDATE per user, token and channel touched (SQL
// increments, never read-modify-write, so writers on other nodes are never overwritten), the log rows
// in multi-row inserts (power-of-two pieces, in order), then reads of the balances touched or asked
// for. A batch is planned as a list of statements and run in one transaction by a ledger store
// (ledger-store.ts).
//
// Rows are locked in the order every transaction that moves money keeps (see inTransaction in
// ledger.ts): users, then tokens, then channels, each in id order. A batch that took tokens first
// deadlocked with a task's charge, which takes users first, on PostgreSQL.
//
// Each statement shape is compiled once and reused with new values: building and compiling a
// multi-row insert with Kysely cost more than writing it. The text still comes from Kysely's compiler,
// so each dialect gets its own placeholders and quoting.
import { sql } from 'kysely';
import type { Compilable, Insertable, Kysely } from 'kysely';
import type { Database, LogsTable } from '../db/tables.js';
import type { Settlement } from './ledger.js';

interface Template {
  sql: string;
  /** Which argument each placeholder takes; null when they take the arguments in order. */
  slots: readonly number[] | null;
}

interface Slot {
  readonly slot: number;
}

/** Compiles a query built with stand-ins for its values and notes where each value goes. */
function template(build: (arg: (i: number) => never) => Compilable): Template {
  const stands: Slot[] = [];
  const arg = (i: number): never => (stands[i] ??= { slot: i }) as never;
  const { sql: text, parameters } = build(arg).compile();
  const known = new Set<unknown>(stands);
  const slots = parameters.map((p) => {
    if (!known.has(p)) throw new Error('a ledger query template has a value that is not an argument');
    return (p as Slot).slot;
  });
  const inOrder = slots.length === stands.length && slots.every((slot, i) => slot === i);
  return { sql: text, slots: inOrder ? null : slots };
}

/** One statement of a batch, ready to run: its text and its values in placeholder order. */
export interface SqlStep {
  sql: string;
  args: unknown[];
  /** A read of balances: its rows are users' `quota` or tokens' `remain_quota` by `id`. */
  reads?: 'users' | 'tokens';
}

const step = (t: Template, args: unknown[], reads?: SqlStep['reads']): SqlStep => ({
  sql: t.sql,
  args: t.slots === null ? args : t.slots.map((i) => args[i]),
  ...(reads ? { reads } : {}),
});

/** A new log row; the id is the database's. */
type LogInsert = Insertable<LogsTable>;

/**
 * Every log column with the default the schema declares (migrations 0001 and 2026-11-27-0003), so
 * rows that leave some out (error rows have no token counts) share one statement and are stored as
 * before. The required columns have none: null fails as leaving them out does.
 */
const LOG_DEFAULTS = {
  user_id: 0,
  created_at: null,
  type: null,
  content: null,
  username: '',
  token_name: '',
  token_id: 0,
  model_name: '',
  quota: 0,
  prompt_tokens: 0,
  completion_tokens: 0,
  use_time: 0,
  is_stream: 0,
  channel_id: 0,
  group: '',
  ip: '',
  other: null,
  request_id: '',
} satisfies Record<Exclude<keyof LogsTable, 'id'>, string | number | null>;
type LogColumn = keyof typeof LOG_DEFAULTS;
const LOG_COLUMNS = Object.keys(LOG_DEFAULTS) as LogColumn[];

/** Rows per statement at most; batches go in power-of-two pieces, so at most ten texts exist. */
const MAX_ROWS = 512;

interface Statements {
  insertLogs(rows: number): Template;
  selectUsers(ids: number): Template;
  selectTokens(ids: number): Template;
  updateToken: Template;
  updateUser: Template;
  updateChannel: Template;
}

function compileStatements(db: Kysely<Database>): Statements {
  const bySize = (build: (size: number) => Template) => {
    const made = new Map<number, Template>();
    return (size: number) => {
      let t = made.get(size);
      if (!t) made.set(size, (t = build(size)));
      return t;
    };
  };
  const list = (size: number, arg: (i: number) => never) => Array.from({ length: size }, (_, i) => arg(i));
  return {
    insertLogs: bySize((rows) =>
      template((arg) =>
        db
          .insertInto('logs')
          .values(
            Array.from({ length: rows }, (_, r) =>
              Object.fromEntries(LOG_COLUMNS.map((c, k) => [c, arg(r * LOG_COLUMNS.length + k)])),
            ) as LogInsert[],
          ),
      ),
    ),
    selectUsers: bySize((size) =>
      template((arg) => db.selectFrom('users').select(['id', 'quota']).where('id', 'in', list(size, arg))),
    ),
    selectTokens: bySize((size) =>
      template((arg) =>
        db.selectFrom('tokens').select(['id', 'remain_quota']).where('id', 'in', list(size, arg)),
      ),
    ),
    updateToken: template((arg) =>
      db
        .updateTable('tokens')
        .set({
          remain_quota: sql`remain_quota - ${arg(0)}`,
          used_quota: sql`used_quota + ${arg(0)}`,
          accessed_time: arg(1),
        })
        .where('id', '=', arg(2)),
    ),
    updateUser: template((arg) =>
      db
        .updateTable('users')
        .set({
          quota: sql`quota - ${arg(0)}`,
          used_quota: sql`used_quota + ${arg(0)}`,
          request_count: sql`request_count + ${arg(1)}`,
        })
        .where('id', '=', arg(2)),
    ),
    updateChannel: template((arg) =>
      db
        .updateTable('channels')
        .set({ used_quota: sql`used_quota + ${arg(0)}` })
        .where('id', '=', arg(1)),
    ),
  };
}

const compiled = new WeakMap<Kysely<Database>, Statements>();
/** The statements of a database, compiled on first use. */
function statementsFor(db: Kysely<Database>): Statements {
  let s = compiled.get(db);
  if (!s) compiled.set(db, (s = compileStatements(db)));
  return s;
}

/** The largest power of two not above n, and the smallest not below it (1 ≤ n < 2^31). */
const floorPow2 = (n: number): number => 2 ** (31 - Math.clz32(n));
const ceilPow2 = (n: number): number => (n <= 1 ? 1 : 2 ** (32 - Math.clz32(n - 1)));

function logSteps(statements: Statements, logs: readonly LogInsert[], out: SqlStep[]): void {
  const width = LOG_COLUMNS.length;
  for (let start = 0; start < logs.length;) {
    const rows = Math.min(MAX_ROWS, floorPow2(logs.length - start));
    const args: unknown[] = new Array(rows * width);
    for (let r = 0; r < rows; r++) {
      const row = logs[start + r] as Record<string, unknown>;
      for (let k = 0; k < width; k++) {
        const column = LOG_COLUMNS[k] as LogColumn;
        const value = row[column];
        args[r * width + k] = value === undefined ? LOG_DEFAULTS[column] : value;
      }
    }
    out.push(step(statements.insertLogs(rows), args));
    start += rows;
  }
}

/** Ids in pieces of a power-of-two length (the last one repeated), so few query texts exist. */
function* idPieces(ids: readonly number[]): Generator<number[]> {
  for (let start = 0; start < ids.length; start += MAX_ROWS) {
    const piece = ids.slice(start, start + MAX_ROWS);
    const size = ceilPow2(piece.length);
    const last = piece[piece.length - 1];
    while (piece.length < size) piece.push(last as number);
    yield piece;
  }
}

interface TokenSum {
  used: number;
  accessed: number;
}
interface UserSum {
  used: number;
  requests: number;
}

const sorted = <V>(map: Map<number, V>): [number, V][] => [...map].sort((a, b) => a[0] - b[0]);

/**
 * The statements of one batch: the settlements (one UPDATE per row touched, whatever the number of
 * calls, users before tokens before channels), then the balances of every account touched or asked for.
 */
export function planBatch(
  db: Kysely<Database>,
  settlements: readonly Settlement[],
  read: { users: Iterable<number>; tokens: Iterable<number> },
): SqlStep[] {
  const statements = statementsFor(db);
  const tokens = new Map<number, TokenSum>();
  const users = new Map<number, UserSum>();
  const channels = new Map<number, number>();
  const logs: LogInsert[] = [];
  for (const s of settlements) {
    const { tokenId, userId } = s.hold;
    if (tokenId !== null) {
      const t = tokens.get(tokenId);
      if (!t) tokens.set(tokenId, { used: s.quota, accessed: Math.max(0, s.now) });
      else {
        t.used += s.quota;
        t.accessed = Math.max(t.accessed, s.now);
      }
    }
    const u = users.get(userId);
    if (!u) users.set(userId, { used: s.quota, requests: s.countRequest ? 1 : 0 });
    else {
      u.used += s.quota;
      u.requests += s.countRequest ? 1 : 0;
    }
    if (s.channelId > 0 && s.quota !== 0) {
      channels.set(s.channelId, (channels.get(s.channelId) ?? 0) + s.quota);
    }
    if (s.log) logs.push(s.log);
  }
  const steps: SqlStep[] = [];
  for (const [id, u] of sorted(users)) {
    if (u.used !== 0 || u.requests !== 0) steps.push(step(statements.updateUser, [u.used, u.requests, id]));
  }
  for (const [id, t] of sorted(tokens)) steps.push(step(statements.updateToken, [t.used, t.accessed, id]));
  for (const [id, used] of sorted(channels)) steps.push(step(statements.updateChannel, [used, id]));
  logSteps(statements, logs, steps);

  const readUsers = new Set(read.users);
  const readTokens = new Set(read.tokens);
  for (const id of users.keys()) readUsers.add(id);
  for (const id of tokens.keys()) readTokens.add(id);
  for (const ids of idPieces([...readUsers]))
    steps.push(step(statements.selectUsers(ids.length), ids, 'users'));
  for (const ids of idPieces([...readTokens])) {
    steps.push(step(statements.selectTokens(ids.length), ids, 'tokens'));
  }
  return steps;
}
