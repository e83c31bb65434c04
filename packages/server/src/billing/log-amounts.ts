// What a log row says it moved: the signed change of its user's quota, used quota and invite earnings
// (and its token's used quota), from the row's type and the facts in its `other` JSON, and the
// category it counts under in a reconciliation report (billing/reconcile.ts). One reading of the
// conventions docs/relay-design.md "Reconciliation" sets, old rows' facts included.
import { LOG_EVENT, LOG_TYPE } from '@sluice/shared';

export const CATEGORIES = [
  'consumption',
  'refund',
  'topup',
  'redemption',
  'admin',
  'transfer',
  'grant',
  'other',
] as const;
export type Category = (typeof CATEGORIES)[number];

export type Field = 'quota' | 'used_quota' | 'aff_quota';

export interface Amounts {
  quota: number;
  used_quota: number;
  aff_quota: number;
}

/** The signed change one log row made to its user's balances (and its token's used quota). */
export interface RowChange extends Amounts {
  category: Category;
}

export const zero = (): Amounts => ({ quota: 0, used_quota: 0, aff_quota: 0 });

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const int = (v: unknown): number | undefined => (Number.isSafeInteger(v) ? (v as number) : undefined);

function categoryOf(type: number, other: Record<string, unknown>): Category {
  switch (other.event) {
    case LOG_EVENT.redeem:
      return 'redemption';
    case LOG_EVENT.onlineTopup:
      return 'topup';
    case LOG_EVENT.adminAddQuota:
    case LOG_EVENT.adminSetQuota:
      return 'admin';
    case LOG_EVENT.affTransfer:
      return 'transfer';
    case LOG_EVENT.taskRefund:
      return 'refund';
    case LOG_EVENT.initialQuota:
    case LOG_EVENT.inviteBonus:
    case LOG_EVENT.inviteReward:
      return 'grant';
  }
  if (other.refund_quota !== undefined) return 'refund';
  if (type === LOG_TYPE.topup) return 'topup';
  if (type === LOG_TYPE.manage) return 'admin';
  return 'other';
}

/**
 * The change a row other than consumption made, from its `other` facts; null when it moved nothing.
 * Rows written before the signed amounts were recorded are read from their older facts: a
 * redemption's or top-up's `quota`, an admin's `quota_from`/`quota_to`, a refund's `refund_quota`.
 */
export function changeOfRow(row: { type: number; other: string }): RowChange | null {
  if (row.type === LOG_TYPE.consume || row.type === LOG_TYPE.error) return null;
  let other: unknown;
  try {
    other = JSON.parse(row.other);
  } catch {
    return null;
  }
  if (!isRecord(other)) return null;
  const refund = int(other.refund_quota);
  let quota = int(other.quota_delta);
  if (quota === undefined) {
    if (other.event === LOG_EVENT.redeem || other.event === LOG_EVENT.onlineTopup) quota = int(other.quota);
    else if (other.event === LOG_EVENT.adminSetQuota) {
      const from = int(other.quota_from);
      const to = int(other.quota_to);
      if (from !== undefined && to !== undefined) quota = to - from;
    } else if (refund !== undefined) quota = refund;
  }
  let used = int(other.used_quota_delta);
  if (used === undefined && refund !== undefined && other.quota_delta === undefined) used = -refund;
  const change: RowChange = {
    category: categoryOf(row.type, other),
    quota: quota ?? 0,
    used_quota: used ?? 0,
    aff_quota: int(other.aff_quota_delta) ?? 0,
  };
  return change.quota === 0 && change.used_quota === 0 && change.aff_quota === 0 ? null : change;
}
