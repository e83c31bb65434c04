import { describe, expect, it } from 'vitest';
import { abbreviateNumber, formatQuota, quotaToDollars, quotaToReadableDollars } from './quota-display.js';

const currency = { displayInCurrency: true, quotaPerUnit: 500000 };
const counts = { displayInCurrency: false, quotaPerUnit: 500000 };

describe('formatQuota', () => {
  it('shows dollars with two decimals when the site displays currency', () => {
    expect(formatQuota(500000, currency)).toBe('$1.00');
    expect(formatQuota(1234567, currency)).toBe('$2.47');
    expect(formatQuota(0, currency)).toBe('$0.00');
    expect(formatQuota(-250000, currency)).toBe('-$0.50');
  });

  it('keeps two decimals from a cent up', () => {
    expect(formatQuota(5000, currency)).toBe('$0.01'); // exactly one cent
    expect(formatQuota(617_250_000, currency)).toBe('$1234.50');
    expect(formatQuota(-617_250_000, currency)).toBe('-$1234.50');
  });

  it('shows amounts under a cent with their first two significant digits instead of "$0.00"', () => {
    expect(formatQuota(2, currency)).toBe('$0.000004'); // one token of a cheap model
    expect(formatQuota(1, currency)).toBe('$0.000002');
    expect(formatQuota(2000, currency)).toBe('$0.004');
    expect(formatQuota(1234, currency)).toBe('$0.0025'); // 0.002468 rounded half up
    expect(formatQuota(3, currency)).toBe('$0.000006');
    expect(formatQuota(4999, currency)).toBe('$0.01'); // 0.009998 rounds to a cent
    expect(formatQuota(-2, currency)).toBe('-$0.000004');
    expect(formatQuota(-2000, currency)).toBe('-$0.004');
  });

  it('keeps small amounts readable at another quota per unit and for fractional quota', () => {
    // 1 quota at 7.5 per dollar is $0.1333…: over a cent, two decimals.
    expect(formatQuota(1, { displayInCurrency: true, quotaPerUnit: 7.5 })).toBe('$0.13');
    // Chart ticks may be fractional quota.
    expect(formatQuota(0.5, currency)).toBe('$0.000001');
    expect(quotaToReadableDollars(1, 3_000_000)).toBe('0.00000033');
  });

  it('rounds half a cent up instead of following binary floating point', () => {
    // 2500 quota is exactly half a cent at 500000 per dollar.
    expect(quotaToDollars(2500, 500000)).toBe('0.01');
    expect(quotaToDollars(2499, 500000)).toBe('0.00');
    expect(quotaToDollars(502500, 500000)).toBe('1.01');
    // 0.145 dollars is 0.14499999999999999 as a binary float.
    expect(quotaToDollars(72500, 500000)).toBe('0.15');
  });

  it('handles a non-integer quota per unit', () => {
    expect(formatQuota(750, { displayInCurrency: true, quotaPerUnit: 7.5 })).toBe('$100.00');
  });

  it('never throws on a value that is not a number', () => {
    expect(formatQuota(Number.NaN, currency)).toBe('-');
    expect(formatQuota(5, { displayInCurrency: true, quotaPerUnit: Number.POSITIVE_INFINITY })).toBe('5');
  });

  it('abbreviates counts with k from ten thousand, M from a million and B from a billion', () => {
    expect(formatQuota(9999, counts)).toBe('9999');
    expect(formatQuota(10000, counts)).toBe('10k');
    expect(formatQuota(12345, counts)).toBe('12.3k');
    expect(formatQuota(2500000, counts)).toBe('2.5M');
    expect(formatQuota(3000000000, counts)).toBe('3B');
    expect(formatQuota(2, counts)).toBe('2');
    expect(abbreviateNumber(-15000)).toBe('-15k');
  });
});
