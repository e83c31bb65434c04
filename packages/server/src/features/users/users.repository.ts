// Reading and writing users, and the shape in which a user leaves the server (never the hash or the
// access token).
import type { PublicUser } from '@sluice/shared';
import { sql } from 'kysely';
import type { Kysely, SelectQueryBuilder, SqlBool } from 'kysely';
import type { Database, UserRow, UserUpdate } from '../../db/tables.js';

export type { PublicUser };

export function toPublicUser(row: UserRow): PublicUser {
  return {
    id: Number(row.id),
    username: row.username,
    display_name: row.display_name,
    role: row.role,
    status: row.status,
    email: row.email,
    github_id: row.github_id,
    wechat_id: row.wechat_id,
    telegram_id: row.telegram_id,
    linux_do_id: row.linux_do_id,
    quota: Number(row.quota),
    used_quota: Number(row.used_quota),
    request_count: Number(row.request_count),
    group: row.group,
    aff_code: row.aff_code,
    aff_count: row.aff_count,
    aff_quota: Number(row.aff_quota),
    aff_history_quota: Number(row.aff_history_quota),
    inviter_id: Number(row.inviter_id),
    created_at: Number(row.created_at),
    DeletedAt: row.deleted_at === null ? null : Number(row.deleted_at),
  };
}

export type BindingColumn = 'email' | 'github_id' | 'wechat_id' | 'telegram_id' | 'linux_do_id';

export const findUserById = (db: Kysely<Database>, id: number, opts: { withDeleted?: boolean } = {}) => {
  let q = db.selectFrom('users').selectAll().where('id', '=', id);
  if (!opts.withDeleted) q = q.where('deleted_at', 'is', null);
  return q.executeTakeFirst();
};

/** Usernames stay taken after deregistration; `withDeleted` finds those rows too. */
export const findUserByUsername = (
  db: Kysely<Database>,
  username: string,
  opts: { withDeleted?: boolean } = {},
) => {
  let q = db.selectFrom('users').selectAll().where('username', '=', username);
  if (!opts.withDeleted) q = q.where('deleted_at', 'is', null);
  return q.executeTakeFirst();
};

/** The live user bound to this external identity (email, GitHub id, …), if any. */
export const findUserByBinding = (db: Kysely<Database>, column: BindingColumn, value: string) =>
  value === ''
    ? Promise.resolve(undefined)
    : db
        .selectFrom('users')
        .selectAll()
        .where(column, '=', value)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();

export interface Page {
  offset: number;
  limit: number;
}

export interface UserFilter {
  /** '' = every user. */
  keyword: string;
  /** '' = every group. */
  group: string;
}

// '!' escapes LIKE wildcards: backslash would need different quoting in MySQL than elsewhere.
const likePattern = (text: string) => `%${text.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`;

/**
 * Users whose username, display name or email contains the keyword (case-insensitive in every
 * dialect), or whose id equals it when it is a number; optionally only one group. Deregistered
 * users are included.
 */
function matching<O>(q: SelectQueryBuilder<Database, 'users', O>, filter: UserFilter) {
  let out = q;
  if (filter.keyword !== '') {
    const pattern = likePattern(filter.keyword);
    const id = /^\d{1,15}$/.test(filter.keyword) ? Number(filter.keyword) : null;
    out = out.where((eb) =>
      eb.or([
        ...(id !== null ? [eb('id', '=', id)] : []),
        ...(['username', 'display_name', 'email'] as const).map(
          (column) => sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '!'`,
        ),
      ]),
    );
  }
  if (filter.group !== '') out = out.where('group', '=', filter.group);
  return out;
}

/** The matching users, newest first. */
export const searchUsers = (db: Kysely<Database>, filter: UserFilter, page: Page) =>
  matching(db.selectFrom('users').selectAll(), filter)
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();

/** How many users match (for the paged answer). */
export async function countUsers(db: Kysely<Database>, filter: UserFilter): Promise<number> {
  const row = await matching(db.selectFrom('users'), filter)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Writes the given columns of a live user; false when the user does not exist or was deregistered. */
export async function updateLiveUser(db: Kysely<Database>, id: number, patch: UserUpdate): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set(patch)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deregisters: the row stays (logs and invites point at it), the account can no longer sign in. */
export const softDeleteUser = (db: Kysely<Database>, id: number, now: number) =>
  updateLiveUser(db, id, { deleted_at: now });

/**
 * Adds a signed amount to the quota in one statement, so spend landing at the same moment is never
 * overwritten. False when the user is gone or the result would fall below 0 or past the safe range.
 */
export async function addQuota(db: Kysely<Database>, id: number, delta: number): Promise<boolean> {
  let update = db
    .updateTable('users')
    .set((eb) => ({ quota: eb('quota', '+', delta) }))
    .where('id', '=', id)
    .where('deleted_at', 'is', null);
  update =
    delta < 0
      ? update.where('quota', '>=', -delta)
      : update.where('quota', '<=', Number.MAX_SAFE_INTEGER - delta);
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Moves invite earnings into quota in one statement, so parallel transfers can never spend more
 * than the user has. False when the earnings are not enough.
 */
export async function transferAffQuota(db: Kysely<Database>, id: number, amount: number): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set((eb) => ({ aff_quota: eb('aff_quota', '-', amount), quota: eb('quota', '+', amount) }))
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .where('aff_quota', '>=', amount)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Names of the models that enabled channels serve to this group, sorted. */
export async function modelsForGroup(db: Kysely<Database>, group: string): Promise<string[]> {
  const rows = await db
    .selectFrom('abilities')
    .select('model')
    .distinct()
    .where('group', '=', group)
    .where('enabled', '=', 1)
    .orderBy('model')
    .execute();
  return rows.map((r) => r.model);
}
