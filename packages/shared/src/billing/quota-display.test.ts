import { describe, expect, it } from 'vitest';
import { abbreviateNumber, formatQuota, quotaToDollars } from './quota-display.js';

const currency = { displayInCurrency: true, quotaPerUnit: 500000 };
const counts = { displayInCurrency: false, quotaPerUnit: 500000 };

describe('formatQuota', () => {
  it('shows dollars with two decimals when the site displays currency', () => {
    expect(formatQuota(500000, currency)).toBe('$1.00');
    expect(formatQuota(1234567, currency)).toBe('$2.47');
    expect(formatQuota(0, currency)).toBe('$0.00');
    expect(formatQuota(-250000, currency)).toBe('-$0.50');
  });

  it('rounds half a cent up instead of following binary floating point', () => {
    // 2500 quota is exactly half a cent at 500000 per dollar.
    expect(quotaToDollars(2500, 500000)).toBe('0.01');
    expect(quotaToDollars(2499, 500000)).toBe('0.00');
    expect(quotaToDollars(502500, 500000)).toBe('1.01');
  });

  it('handles a non-integer quota per unit', () => {
    expect(formatQuota(750, { displayInCurrency: true, quotaPerUnit: 7.5 })).toBe('$100.00');
  });

  it('abbreviates counts with k from ten thousand, M from a million and B from a billion', () => {
    expect(formatQuota(9999, counts)).toBe('9999');
    expect(formatQuota(10000, counts)).toBe('10k');
    expect(formatQuota(12345, counts)).toBe('12.3k');
    expect(formatQuota(2500000, counts)).toBe('2.5M');
    expect(formatQuota(3000000000, counts)).toBe('3B');
    expect(abbreviateNumber(-15000)).toBe('-15k');
  });
});
