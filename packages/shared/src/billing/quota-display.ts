// How a quota amount is shown (spec part 1 §9): in currency when the site displays currency, else as
// an abbreviated count. Shared so the server's texts and the console's screens agree.

export interface QuotaDisplaySettings {
  /** The site's DisplayInCurrencyEnabled (status field display_in_currency). */
  displayInCurrency: boolean;
  /** The site's QuotaPerUnit: quota per US dollar. */
  quotaPerUnit: number;
}

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

/** Quota in dollars with exactly two decimals, rounded half up. */
export function quotaToDollars(quota: number, quotaPerUnit: number): string {
  const sign = quota < 0 ? '-' : '';
  const q = Math.abs(quota);
  let cents: number;
  if (Number.isInteger(q) && Number.isInteger(quotaPerUnit) && q * 200 < Number.MAX_SAFE_INTEGER) {
    // Integer maths so 0.005-dollar boundaries round the same way on every machine.
    cents = Math.floor((q * 200 + quotaPerUnit) / (2 * quotaPerUnit));
  } else {
    cents = Math.round((q / quotaPerUnit) * 100);
  }
  const whole = Math.floor(cents / 100);
  const rest = String(cents % 100).padStart(2, '0');
  return `${cents === 0 ? '' : sign}${whole}.${rest}`;
}

/** "$1.23" with currency display on, else "12.3k"-style counts. */
export function formatQuota(quota: number, settings: QuotaDisplaySettings): string {
  if (settings.displayInCurrency && settings.quotaPerUnit > 0) {
    const dollars = quotaToDollars(quota, settings.quotaPerUnit);
    return dollars.startsWith('-') ? `-$${dollars.slice(1)}` : `$${dollars}`;
  }
  return abbreviateNumber(quota);
}
