// Top-up arithmetic in decimals: what an amount costs, how much quota it buys. Never binary
// floating point on the way to a price or a quota.
import { Decimal } from 'decimal.js';

export interface TopupSettings {
  /** DisplayInCurrencyEnabled: amounts are dollars when on, raw quota when off. */
  displayInCurrency: boolean;
  quotaPerUnit: number;
  /** Price: currency to pay per dollar of quota. */
  price: number;
  /** TopupGroupRatio of the buyer's group (missing or 0 = 1). */
  groupRatio: number | undefined;
  minTopUp: number;
}

/** Whole dollars of quota an entered amount buys (a raw-quota amount is rounded down). */
export function topupUnits(amount: number, s: TopupSettings): number {
  if (s.displayInCurrency) return amount;
  return new Decimal(amount).div(new Decimal(s.quotaPerUnit)).floor().toNumber();
}

/** The smallest amount the buyer may enter, in the units the console shows. */
export function minTopupAmount(s: TopupSettings): number {
  if (s.displayInCurrency) return s.minTopUp;
  return new Decimal(s.minTopUp).mul(new Decimal(s.quotaPerUnit)).floor().toNumber();
}

/** Money to pay for `units` dollars of quota, as the gateway takes it: 2 decimals, half up. */
export function payMoney(units: number, s: TopupSettings): string {
  const ratio = s.groupRatio === undefined || s.groupRatio === 0 ? 1 : s.groupRatio;
  return new Decimal(units)
    .mul(new Decimal(s.price))
    .mul(new Decimal(ratio))
    .toFixed(2, Decimal.ROUND_HALF_UP);
}

/** Quota credited for `units` dollars. */
export const unitsToQuota = (units: number, quotaPerUnit: number): number =>
  new Decimal(units).mul(new Decimal(quotaPerUnit)).floor().toNumber();

/** Whether the money the gateway reports is the order's money, compared as decimals. */
export const sameMoney = (reported: string, ordered: number): boolean => {
  try {
    return new Decimal(reported.trim()).eq(new Decimal(ordered).toDecimalPlaces(2, Decimal.ROUND_HALF_UP));
  } catch {
    return false;
  }
};
