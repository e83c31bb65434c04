// The tokens table, always scoped to the owner: a token of another user is simply not found.
import type { Insertable, Kysely, SelectQueryBuilder, Transaction, Updateable } from 'kysely';
import { TOKEN_STATUS } from '@sluice/shared';
import type { TokenView } from '@sluice/shared';
import type { Database, TokenRow, TokensTable } from '../../db/tables.js';
import { likeContains } from '../logs/list-helpers.js';

type Executor = Kysely<Database> | Transaction<Database>;

export const findOwnToken = (db: Executor, userId: number, id: number) =>
  db
    .selectFrom('tokens')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();

export interface TokenFilter {
  /** Part of the name. */
  name?: string | undefined;
  /** Part of the key (without "sk-"). */
  key?: string | undefined;
}

const ownTokens = <O>(q: SelectQueryBuilder<Database, 'tokens', O>, userId: number, filter: TokenFilter) => {
  let out = q.where('user_id', '=', userId).where('deleted_at', 'is', null);
  if (filter.name !== undefined) out = out.where(likeContains('name', filter.name));
  if (filter.key !== undefined) out = out.where(likeContains('key', filter.key));
  return out;
};

/** The owner's live tokens matching the filter, newest first. */
export const listOwnTokens = (
  db: Kysely<Database>,
  userId: number,
  filter: TokenFilter,
  page: { offset: number; limit: number },
): Promise<TokenRow[]> =>
  ownTokens(db.selectFrom('tokens').selectAll(), userId, filter)
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();

/** How many of the owner's live tokens match the filter (for the paged answer). */
export async function countOwnTokens(
  db: Kysely<Database>,
  userId: number,
  filter: TokenFilter,
): Promise<number> {
  const row = await ownTokens(db.selectFrom('tokens'), userId, filter)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function insertTokens(
  db: Transaction<Database>,
  rows: Insertable<TokensTable>[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += 50) {
    await db
      .insertInto('tokens')
      .values(rows.slice(i, i + 50))
      .execute();
  }
}

export const findTokensByKeys = (db: Executor, userId: number, keys: string[]) =>
  db
    .selectFrom('tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .where('key', 'in', keys)
    .orderBy('id', 'asc')
    .execute();

/** One UPDATE with every changed field, so concurrent edits never leave a mix of two versions. */
export async function updateOwnToken(
  db: Executor,
  userId: number,
  id: number,
  changes: Updateable<TokensTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('tokens')
    .set(changes)
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Enables a token only if it is neither expired nor used up, checked in the same statement so a
 * concurrent expiry or quota change cannot slip between the check and the write.
 */
export async function enableOwnToken(
  db: Executor,
  userId: number,
  id: number,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('tokens')
    .set({ status: TOKEN_STATUS.enabled })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .where((eb) => eb.or([eb('expired_time', '=', -1), eb('expired_time', '>', now)]))
    .where((eb) => eb.or([eb('unlimited_quota', '=', 1), eb('remain_quota', '>', 0)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Soft delete (the row keeps its key unique and its history). The status also drops to disabled so
 * any reader that forgets the deleted_at check still refuses the key.
 */
export async function deleteOwnToken(
  db: Executor,
  userId: number,
  id: number,
  now: number,
): Promise<boolean> {
  return updateOwnToken(db, userId, id, { deleted_at: now, status: TOKEN_STATUS.disabled });
}

export const isExpired = (row: Pick<TokenRow, 'expired_time'>, now: number): boolean =>
  row.expired_time !== -1 && Number(row.expired_time) <= now;

export const isExhausted = (row: Pick<TokenRow, 'unlimited_quota' | 'remain_quota'>): boolean =>
  row.unlimited_quota !== 1 && Number(row.remain_quota) <= 0;

/** The wire shape. An enabled token past its expiry or out of quota shows as expired/exhausted. */
export function toTokenView(row: TokenRow, now: number): TokenView {
  let status = row.status;
  if (status === TOKEN_STATUS.enabled && isExpired(row, now)) status = TOKEN_STATUS.expired;
  else if (status === TOKEN_STATUS.enabled && isExhausted(row)) status = TOKEN_STATUS.exhausted;
  return {
    id: Number(row.id),
    user_id: Number(row.user_id),
    key: row.key,
    status,
    name: row.name,
    created_time: Number(row.created_time),
    accessed_time: Number(row.accessed_time),
    expired_time: Number(row.expired_time),
    remain_quota: Number(row.remain_quota),
    unlimited_quota: row.unlimited_quota === 1,
    used_quota: Number(row.used_quota),
    model_limits_enabled: row.model_limits_enabled === 1,
    model_limits: row.model_limits,
    allow_ips: row.allow_ips,
    group: row.group,
  };
}
