// The redemptions table. State changes are conditional UPDATEs on the status they start from, so
// an edit, a status change and a redemption racing on one code cannot both win.
import type { Kysely, SelectQueryBuilder, Transaction, Updateable } from 'kysely';
import { REDEMPTION_STATUS } from '@sluice/shared';
import type { RedemptionView } from '@sluice/shared';
import type { Database, RedemptionRow, RedemptionsTable } from '../../db/tables.js';
import { likeContains } from '../logs/list-helpers.js';

type Executor = Kysely<Database> | Transaction<Database>;

export const findRedemption = (db: Executor, id: number) =>
  db
    .selectFrom('redemptions')
    .selectAll()
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();

export const findRedemptionByKey = (db: Executor, key: string) =>
  db
    .selectFrom('redemptions')
    .selectAll()
    .where('key', '=', key)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();

/** An id, or part of the name; undefined = every code. */
const matching = <O>(q: SelectQueryBuilder<Database, 'redemptions', O>, keyword: string | undefined) => {
  const out = q.where('deleted_at', 'is', null);
  if (keyword === undefined) return out;
  return out.where((eb) =>
    /^\d+$/.test(keyword) && Number(keyword) <= Number.MAX_SAFE_INTEGER
      ? eb.or([eb('id', '=', Number(keyword)), likeContains('name', keyword)])
      : likeContains('name', keyword),
  );
};

/** Live codes matching the keyword, newest first. */
export const listRedemptions = (
  db: Kysely<Database>,
  keyword: string | undefined,
  page: { offset: number; limit: number },
): Promise<RedemptionRow[]> =>
  matching(db.selectFrom('redemptions').selectAll(), keyword)
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();

/** How many live codes match the keyword (for the paged answer). */
export async function countRedemptions(db: Kysely<Database>, keyword: string | undefined): Promise<number> {
  const row = await matching(db.selectFrom('redemptions'), keyword)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Applies `changes` only while the code is in one of `fromStatuses`; false when it was not. */
export async function updateRedemptionIf(
  db: Executor,
  id: number,
  fromStatuses: number[],
  changes: Updateable<RedemptionsTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('redemptions')
    .set(changes)
    .where('id', '=', id)
    .where('status', 'in', fromStatuses)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Marks an unused code used by `userId`; false when the code is unknown, used, disabled or deleted. */
export async function claimRedemption(
  db: Transaction<Database>,
  key: string,
  userId: number,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('redemptions')
    .set({ status: REDEMPTION_STATUS.used, used_user_id: userId, redeemed_time: now })
    .where('key', '=', key)
    .where('status', '=', REDEMPTION_STATUS.unused)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export const toRedemptionView = (row: RedemptionRow): RedemptionView => ({
  id: Number(row.id),
  user_id: Number(row.user_id),
  key: row.key,
  status: row.status,
  name: row.name,
  quota: Number(row.quota),
  created_time: Number(row.created_time),
  redeemed_time: Number(row.redeemed_time),
  used_user_id: Number(row.used_user_id),
});
