// How a quota amount is shown (spec part 1 §9): in currency when the site displays currency, else as
// an abbreviated count. Shared so the server's texts and the console's screens agree.
import { toDecimal } from './exact-decimal.js';

export interface QuotaDisplaySettings {
  /** The site's DisplayInCurrencyEnabled (status field display_in_currency). */
  displayInCurrency: boolean;
  /** The site's QuotaPerUnit: quota per US dollar. */
  quotaPerUnit: number;
}

/**
 * Significant digits kept for amounts under a cent. A typical call costs a fraction of a cent
 * (1 quota is $0.000002 at the default rate); two decimals alone would show every one as "$0.00".
 */
const SMALL_AMOUNT_DIGITS = 2;

/** 9999 → "9999", 12345 → "12.3k", 2500000 → "2.5M", 3000000000 → "3B". */
export function abbreviateNumber(value: number): string {
  const sign = value < 0 ? '-' : '';
  const n = Math.abs(value);
  const short = (divisor: number, suffix: string) =>
    `${sign}${Number((n / divisor).toFixed(1)).toString()}${suffix}`;
  if (n >= 1e9) return short(1e9, 'B');
  if (n >= 1e6) return short(1e6, 'M');
  if (n >= 1e4) return short(1e3, 'k');
  return `${sign}${Number.isInteger(n) ? n : Number(n.toFixed(2))}`;
}

/** |quota| / quotaPerUnit as an exact fraction, so no amount is rounded through binary floating point. */
function dollarFraction(quota: number, quotaPerUnit: number): { numerator: bigint; denominator: bigint } {
  const q = toDecimal(Math.abs(quota));
  const perUnit = toDecimal(quotaPerUnit);
  return {
    numerator: q.units * 10n ** BigInt(perUnit.scale),
    denominator: perUnit.units * 10n ** BigInt(q.scale),
  };
}

/** numerator / denominator rounded to the nearest integer, halves up (both positive). */
const roundHalfUp = (numerator: bigint, denominator: bigint): bigint =>
  (numerator * 2n + denominator) / (denominator * 2n);

/** Quota in dollars with exactly two decimals, rounded half up. */
export function quotaToDollars(quota: number, quotaPerUnit: number): string {
  const { numerator, denominator } = dollarFraction(quota, quotaPerUnit);
  const cents = roundHalfUp(numerator * 100n, denominator);
  const sign = quota < 0 && cents > 0n ? '-' : '';
  return `${sign}${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
}

/**
 * Quota in dollars: two decimals from a cent up (spec part 1 §9), else enough decimals to show
 * the amount's first two significant digits ("0.000004", "0.0025"), so no charge reads as zero.
 */
export function quotaToReadableDollars(quota: number, quotaPerUnit: number): string {
  const { numerator, denominator } = dollarFraction(quota, quotaPerUnit);
  if (numerator === 0n || numerator * 100n >= denominator) return quotaToDollars(quota, quotaPerUnit);
  // The smallest number of decimals that puts SMALL_AMOUNT_DIGITS digits before the point.
  const lowest = 10n ** BigInt(SMALL_AMOUNT_DIGITS - 1);
  let decimals = 2;
  while (numerator * 10n ** BigInt(decimals) < lowest * denominator) decimals += 1;
  let digits = roundHalfUp(numerator * 10n ** BigInt(decimals), denominator);
  if (digits === lowest * 10n) {
    // Rounded up to the next power of ten (0.0099 → 0.010): one decimal fewer says the same.
    digits = lowest;
    decimals -= 1;
  }
  const fraction = String(digits).padStart(decimals, '0').replace(/0+$/, '');
  return `${quota < 0 ? '-' : ''}0.${fraction}`;
}

/** "$1.23" (or "$0.000004" under a cent) with currency display on, else "12.3k"-style counts. */
export function formatQuota(quota: number, settings: QuotaDisplaySettings): string {
  if (!Number.isFinite(quota)) return '-';
  if (settings.displayInCurrency && Number.isFinite(settings.quotaPerUnit) && settings.quotaPerUnit > 0) {
    const dollars = quotaToReadableDollars(quota, settings.quotaPerUnit);
    return dollars.startsWith('-') ? `-$${dollars.slice(1)}` : `$${dollars}`;
  }
  return abbreviateNumber(quota);
}
