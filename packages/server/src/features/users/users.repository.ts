// Reading users, and the shape in which a user leaves the server (never the hash or the access token).
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/tables.js';

export interface PublicUser {
  id: number;
  username: string;
  display_name: string;
  role: number;
  status: number;
  email: string;
  github_id: string;
  wechat_id: string;
  telegram_id: string;
  linux_do_id: string;
  quota: number;
  used_quota: number;
  request_count: number;
  group: string;
  aff_code: string;
  aff_count: number;
  aff_quota: number;
  aff_history_quota: number;
  inviter_id: number;
  created_at: number;
  /** Non-null means deregistered (spec part 1 §3). */
  DeletedAt: number | null;
}

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

export const findUserByUsername = (db: Kysely<Database>, username: string) =>
  db
    .selectFrom('users')
    .selectAll()
    .where('username', '=', username)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();

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
