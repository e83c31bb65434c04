// Creating, editing and redeeming codes. Redeeming is one transaction: claim the code with a
// conditional UPDATE, credit the user, write the top-up log; a second claim of the code finds
// nothing to update, so parallel redeems credit exactly once.
import { LOG_TYPE, MSG, REDEMPTION_KEY_LENGTH, REDEMPTION_STATUS } from '@sluice/shared';
import type { RedemptionCreate, RedemptionUpdate, RedemptionView } from '@sluice/shared';
import type { Transaction, Updateable } from 'kysely';
import type { AppContext } from '../../app-context.js';
import { inTransaction } from '../../billing/ledger.js';
import type { Database, RedemptionsTable, UserRow } from '../../db/tables.js';
import { badRequest, notFound } from '../../http/envelope.js';
import type { ApiError } from '../../http/envelope.js';
import { randomString } from '../../platform/random.js';
import { redeemLogText } from '../logs/log-text.js';
import { recordLog } from '../logs/logs.repository.js';
import {
  claimRedemption,
  findRedemption,
  findRedemptionByKey,
  toRedemptionView,
  updateRedemptionIf,
} from './redemptions.repository.js';

export async function createRedemptions(
  ctx: AppContext,
  admin: UserRow,
  input: RedemptionCreate,
): Promise<string[]> {
  const now = ctx.clock.now();
  const keys = Array.from({ length: input.count }, () => randomString(REDEMPTION_KEY_LENGTH));
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('redemptions')
      .values(
        keys.map((key) => ({
          user_id: admin.id,
          key,
          status: REDEMPTION_STATUS.unused,
          name: input.name,
          quota: input.quota,
          created_time: now,
        })),
      )
      .execute();
  });
  return keys;
}

export async function updateRedemption(ctx: AppContext, input: RedemptionUpdate): Promise<RedemptionView> {
  const changes: Updateable<RedemptionsTable> = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.quota !== undefined) changes.quota = input.quota;
  // An empty change still has to prove the code is editable; setting the status to itself does.
  if (Object.keys(changes).length === 0) changes.status = REDEMPTION_STATUS.unused;
  if (!(await updateRedemptionIf(ctx.db, input.id, [REDEMPTION_STATUS.unused], changes))) {
    if (!(await findRedemption(ctx.db, input.id))) throw notFound();
    throw badRequest(MSG.redemptionNotEditable);
  }
  return view(ctx, input.id);
}

export async function setRedemptionStatus(
  ctx: AppContext,
  id: number,
  status: 1 | 2,
): Promise<RedemptionView> {
  const from = [REDEMPTION_STATUS.unused, REDEMPTION_STATUS.disabled];
  if (!(await updateRedemptionIf(ctx.db, id, from, { status }))) {
    if (!(await findRedemption(ctx.db, id))) throw notFound();
    throw badRequest(MSG.redemptionUsedCannotChange);
  }
  return view(ctx, id);
}

export async function deleteRedemption(ctx: AppContext, id: number): Promise<void> {
  const result = await ctx.db
    .updateTable('redemptions')
    .set({ deleted_at: ctx.clock.now() })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw notFound();
}

/** Redeems `key` for `user`; returns the quota gained. */
export async function redeem(ctx: AppContext, user: UserRow, key: string): Promise<number> {
  const now = ctx.clock.now();
  const gained = await inTransaction(ctx.db, async (trx) => {
    if (!(await claimRedemption(trx, key, user.id, now))) throw await refusal(trx, key);
    const code = await findRedemptionByKey(trx, key);
    if (!code) throw new Error('a claimed redemption code vanished inside its transaction');
    const quota = Number(code.quota);
    await trx
      .updateTable('users')
      .set((eb) => ({ quota: eb('quota', '+', quota) }))
      .where('id', '=', user.id)
      .execute();
    await recordLog(trx, {
      userId: user.id,
      username: user.username,
      type: LOG_TYPE.topup,
      createdAt: now,
      quota,
      ...redeemLogText(ctx.options, { id: Number(code.id), name: code.name, quota }),
    });
    return quota;
  });
  ctx.bus.publish('users', String(user.id));
  return gained;
}

/** Why a code could not be claimed, in the words the wallet shows. */
async function refusal(trx: Transaction<Database>, key: string): Promise<ApiError> {
  const code = await findRedemptionByKey(trx, key);
  if (code?.status === REDEMPTION_STATUS.used) return badRequest(MSG.redemptionUsed);
  if (code?.status === REDEMPTION_STATUS.disabled) return badRequest(MSG.redemptionDisabled);
  return badRequest(MSG.redemptionInvalid);
}

async function view(ctx: AppContext, id: number): Promise<RedemptionView> {
  const row = await findRedemption(ctx.db, id);
  if (!row) throw notFound();
  return toRedemptionView(row);
}
