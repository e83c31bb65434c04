// The log rows this server writes itself (redemptions, online top-ups, admin quota changes, the
// quota an account starts with, invite rewards and transfers): an English `content` for scripts and
// older consoles, and the facts in `other`, from which the console words the row in the reader's
// language. Each states the signed change it made (`quota_delta`, `aff_quota_delta`), which
// reconciliation (billing/reconcile.ts) sums.
import { LOG_EVENT, MSG, formatQuota } from '@sluice/shared';
import type {
  AdminAddQuotaLogFacts,
  AdminSetQuotaLogFacts,
  AffTransferLogFacts,
  InitialQuotaLogFacts,
  InviteBonusLogFacts,
  InviteRewardLogFacts,
  OnlineTopupLogFacts,
  RedeemLogFacts,
} from '@sluice/shared';
import type { OptionStore } from '../options/option-store.js';

/** The `content` and `other` columns of a log row. */
export interface LogText {
  content: string;
  other: string;
}

/** "$1.00" when the site shows currency, else "500000 quota". */
function describeQuota(options: OptionStore, quota: number): string {
  if (!options.get('DisplayInCurrencyEnabled')) return `${quota} quota`;
  return formatQuota(quota, { displayInCurrency: true, quotaPerUnit: options.get('QuotaPerUnit') });
}

export function redeemLogText(
  options: OptionStore,
  code: { id: number; name: string; quota: number },
): LogText {
  const facts: RedeemLogFacts = {
    event: LOG_EVENT.redeem,
    redemption_id: code.id,
    redemption_name: code.name,
    quota: code.quota,
    quota_delta: code.quota,
  };
  return {
    content: `redeemed code "${code.name}" (id ${code.id}) for ${describeQuota(options, code.quota)}`,
    other: JSON.stringify(facts),
  };
}

export function onlineTopupLogText(
  options: OptionStore,
  order: { quota: number; money: string; paymentMethod: string; tradeNo: string },
): LogText {
  const facts: OnlineTopupLogFacts = {
    event: LOG_EVENT.onlineTopup,
    quota: order.quota,
    quota_delta: order.quota,
    money: order.money,
    payment_method: order.paymentMethod,
    trade_no: order.tradeNo,
  };
  return {
    content: `online top-up of ${describeQuota(options, order.quota)}, paid ${order.money} (order ${order.tradeNo})`,
    other: JSON.stringify(facts),
  };
}

export function adminSetQuotaLogText(change: { from: number; to: number; adminId: number }): LogText {
  const facts: AdminSetQuotaLogFacts = {
    event: LOG_EVENT.adminSetQuota,
    quota_from: change.from,
    quota_to: change.to,
    quota_delta: change.to - change.from,
    // Under admin_info, which users' own log view leaves out: who changed it is for admins.
    admin_info: { admin_id: change.adminId },
  };
  return { content: MSG.adminChangedQuota(change.from, change.to), other: JSON.stringify(facts) };
}

export function adminAddQuotaLogText(change: { delta: number; adminId: number }): LogText {
  const facts: AdminAddQuotaLogFacts = {
    event: LOG_EVENT.adminAddQuota,
    quota_delta: change.delta,
    admin_info: { admin_id: change.adminId },
  };
  return { content: MSG.adminAddedQuota(change.delta), other: JSON.stringify(facts) };
}

/** An account's starting quota: QuotaForNewUser, or root's on the first start. */
export function initialQuotaLogText(options: OptionStore, quota: number): LogText {
  const facts: InitialQuotaLogFacts = { event: LOG_EVENT.initialQuota, quota_delta: quota };
  return { content: `new account: ${describeQuota(options, quota)} granted`, other: JSON.stringify(facts) };
}

export function inviteBonusLogText(
  options: OptionStore,
  bonus: { quota: number; inviterId: number },
): LogText {
  const facts: InviteBonusLogFacts = {
    event: LOG_EVENT.inviteBonus,
    quota_delta: bonus.quota,
    inviter_id: bonus.inviterId,
  };
  return {
    content: `signed up with an invite code: ${describeQuota(options, bonus.quota)} granted`,
    other: JSON.stringify(facts),
  };
}

export function inviteRewardLogText(
  options: OptionStore,
  reward: { quota: number; inviteeId: number },
): LogText {
  const facts: InviteRewardLogFacts = {
    event: LOG_EVENT.inviteReward,
    aff_quota_delta: reward.quota,
    invitee_id: reward.inviteeId,
  };
  return {
    content: `invited a new user: ${describeQuota(options, reward.quota)} added to the invite earnings`,
    other: JSON.stringify(facts),
  };
}

export function affTransferLogText(options: OptionStore, quota: number): LogText {
  const facts: AffTransferLogFacts = {
    event: LOG_EVENT.affTransfer,
    quota_delta: quota,
    aff_quota_delta: -quota,
  };
  return {
    content: `moved ${describeQuota(options, quota)} of invite earnings into the quota`,
    other: JSON.stringify(facts),
  };
}
