// Online top-up: price quotes, payment orders, and the gateway's notification. The notification
// is idempotent: the order flips from pending to success in one conditional UPDATE, and only the
// call that flips it credits the quota, in the same transaction.
import { EPAY_TYPE, LOG_TYPE, MSG, TOPUP_STATUS } from '@sluice/shared';
import type { PayAnswer, TopupPayInput } from '@sluice/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { inTransaction } from '../../billing/ledger.js';
import type { UserRow } from '../../db/tables.js';
import { badRequest } from '../../http/envelope.js';
import { randomString } from '../../platform/random.js';
import { onlineTopupLogText } from '../logs/log-text.js';
import { recordLog } from '../logs/logs.repository.js';
import { epaySign, epaySubmitUrl, epayVerify } from './epay.js';
import { minTopupAmount, payMoney, sameMoney, topupUnits, unitsToQuota } from './pay-money.js';
import type { TopupSettings } from './pay-money.js';

export const EPAY_NOTIFY_PATH = '/api/user/epay/notify';

function settingsFor(ctx: AppContext, user: Pick<UserRow, 'group'>): TopupSettings {
  const o = ctx.options;
  return {
    displayInCurrency: o.get('DisplayInCurrencyEnabled'),
    quotaPerUnit: o.get('QuotaPerUnit'),
    price: o.get('Price'),
    groupRatio: o.get('TopupGroupRatio')[user.group],
    minTopUp: o.get('MinTopUp'),
  };
}

export const epayConfigured = (ctx: AppContext): boolean =>
  ctx.options.get('PayAddress') !== '' &&
  ctx.options.get('EpayId') !== '' &&
  ctx.options.get('EpayKey') !== '';

/** Validates the amount and prices it: [units bought, money to pay]. */
function quoteFor(ctx: AppContext, user: UserRow, amount: number): { units: number; money: string } {
  const settings = settingsFor(ctx, user);
  const min = minTopupAmount(settings);
  if (amount < min) throw badRequest(MSG.topupBelowMinimum(min));
  const units = topupUnits(amount, settings);
  const money = payMoney(units, settings);
  if (Number(money) < 0.01) throw badRequest(MSG.topupPayTooLow);
  return { units, money };
}

/** POST /api/user/amount: the price of an amount, "7.30". */
export const quoteTopup = (ctx: AppContext, user: UserRow, amount: number): string =>
  quoteFor(ctx, user, amount).money;

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** POST /api/user/pay: records a pending order and returns the signed gateway form. */
export async function createPayment(
  ctx: AppContext,
  user: UserRow,
  input: TopupPayInput,
): Promise<PayAnswer> {
  if (!epayConfigured(ctx)) throw badRequest(MSG.onlineTopupDisabled);
  const o = ctx.options;
  const callbackBase = trimSlash(o.get('CustomCallbackAddress') || o.get('ServerAddress'));
  if (callbackBase === '') throw badRequest(MSG.callbackAddressMissing);
  const { units, money } = quoteFor(ctx, user, input.amount);
  const now = ctx.clock.now();
  const tradeNo = `USR${user.id}NO${randomString(10)}${now}`;
  const type = EPAY_TYPE[input.payment_method];
  await ctx.db
    .insertInto('top_ups')
    .values({
      user_id: user.id,
      amount: units,
      money: Number(money),
      trade_no: tradeNo,
      payment_method: type,
      create_time: now,
      status: TOPUP_STATUS.pending,
    })
    .execute();
  const params = {
    pid: o.get('EpayId'),
    type,
    out_trade_no: tradeNo,
    notify_url: `${callbackBase}${EPAY_NOTIFY_PATH}`,
    return_url: `${trimSlash(o.get('ServerAddress'))}/log`,
    name: `TUC${input.amount}`,
    money,
  };
  return {
    success: true,
    message: 'success',
    data: { ...params, sign: epaySign(params, o.get('EpayKey')), sign_type: 'MD5' },
    url: epaySubmitUrl(o.get('PayAddress')),
  };
}

/**
 * The gateway's notification. 'success' tells the gateway to stop retrying: answered for a paid
 * order (also when it was credited before) and for other genuine trade states; 'fail' for anything
 * not provably from the gateway or not matching the order.
 */
export async function handleEpayNotify(
  ctx: AppContext,
  params: Record<string, string>,
  log: FastifyBaseLogger,
): Promise<'success' | 'fail'> {
  if (!epayConfigured(ctx)) return 'fail';
  if (!epayVerify(params, ctx.options.get('EpayKey'))) return 'fail';
  if (params.pid !== ctx.options.get('EpayId')) return 'fail';
  if (params.trade_status !== 'TRADE_SUCCESS') return 'success';
  const tradeNo = params.out_trade_no ?? '';
  const order = await ctx.db
    .selectFrom('top_ups')
    .selectAll()
    .where('trade_no', '=', tradeNo)
    .executeTakeFirst();
  if (!order) return 'fail';
  if (!sameMoney(params.money ?? '', Number(order.money))) {
    log.warn({ tradeNo, reported: params.money, ordered: order.money }, 'epay notify: money does not match');
    return 'fail';
  }
  if (order.status === TOPUP_STATUS.success) return 'success';

  const userId = Number(order.user_id);
  const credited = await inTransaction(ctx.db, async (trx) => {
    const flipped = await trx
      .updateTable('top_ups')
      .set({ status: TOPUP_STATUS.success, complete_time: ctx.clock.now() })
      .where('trade_no', '=', tradeNo)
      .where('status', '=', TOPUP_STATUS.pending)
      .executeTakeFirst();
    if (Number(flipped.numUpdatedRows) === 0) return false;
    const quota = unitsToQuota(Number(order.amount), ctx.options.get('QuotaPerUnit'));
    await trx
      .updateTable('users')
      .set((eb) => ({ quota: eb('quota', '+', quota) }))
      .where('id', '=', userId)
      .execute();
    const user = await trx.selectFrom('users').select('username').where('id', '=', userId).executeTakeFirst();
    await recordLog(trx, {
      userId,
      username: user?.username ?? '',
      type: LOG_TYPE.topup,
      createdAt: ctx.clock.now(),
      quota,
      ...onlineTopupLogText(ctx.options, {
        quota,
        money: params.money ?? '',
        paymentMethod: order.payment_method,
        tradeNo,
      }),
    });
    return true;
  });
  if (credited) ctx.bus.publish('users', String(userId));
  return 'success';
}
