// The online top-up amount rules (spec part 2 §5 "Top-up"), pure so they are tested on their own.
import type { PublicStatus } from '@sluice/shared';

/**
 * The smallest amount the buyer may enter, in the units the console shows: min_topup dollars, or
 * that many dollars' worth of quota when the site displays raw quota (the server checks the same).
 */
export function minTopupAmount(
  status: Pick<PublicStatus, 'min_topup' | 'display_in_currency' | 'quota_per_unit'>,
): number {
  const min = status.display_in_currency
    ? status.min_topup
    : Math.floor(status.min_topup * status.quota_per_unit);
  return Math.max(1, min);
}

/** What the amount field keeps of an entry: whole numbers, anything below 1 raised to 1. */
export function normaliseAmount(value: number | null): number | null {
  if (value === null || !Number.isFinite(value)) return null;
  return Math.max(1, Math.trunc(value));
}

/** Whether an amount may be paid: an empty field or one below the minimum may not. */
export const amountAllowed = (amount: number | null, min: number): amount is number =>
  amount !== null && amount >= min;
