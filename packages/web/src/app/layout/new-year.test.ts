// The New Year easter egg's days: 1 January every year, and the Lunar New Year from the table.
import { describe, expect, it } from 'vitest';
import { LUNAR_NEW_YEAR, newYearOf } from './new-year';

const day = (year: number, month: number, date: number, hour = 12) => new Date(year, month - 1, date, hour);

describe('newYearOf', () => {
  it('finds New Year’s Day in any year, from its first to its last minute', () => {
    expect(newYearOf(day(2026, 1, 1, 0))).toBe('new-year');
    expect(newYearOf(new Date(2026, 0, 1, 23, 59, 59))).toBe('new-year');
    expect(newYearOf(day(2051, 1, 1))).toBe('new-year');
    expect(newYearOf(day(2025, 12, 31, 23))).toBeNull();
    expect(newYearOf(day(2026, 1, 2, 0))).toBeNull();
  });

  it('finds the first day of the lunar year, and not the days around it', () => {
    expect(newYearOf(day(2025, 1, 29))).toBe('lunar-new-year');
    expect(newYearOf(day(2026, 2, 17))).toBe('lunar-new-year');
    expect(newYearOf(day(2026, 2, 16))).toBeNull();
    expect(newYearOf(day(2026, 2, 18))).toBeNull();
    expect(newYearOf(day(2040, 2, 12))).toBe('lunar-new-year');
  });

  it('uses the observatory’s dates where a computed Chinese calendar is a day off', () => {
    expect(newYearOf(day(2027, 2, 6))).toBe('lunar-new-year');
    expect(newYearOf(day(2027, 2, 7))).toBeNull();
    expect(newYearOf(day(2030, 2, 3))).toBe('lunar-new-year');
    expect(newYearOf(day(2030, 2, 2))).toBeNull();
  });

  it('is quiet on ordinary days and outside the table’s years', () => {
    expect(newYearOf(day(2026, 6, 15))).toBeNull();
    expect(newYearOf(day(2041, 2, 1))).toBeNull();
  });
});

describe('the lunar table', () => {
  it('covers 2025 to 2040 with dates between 21 January and 20 February', () => {
    expect(Object.keys(LUNAR_NEW_YEAR).map(Number)).toEqual(Array.from({ length: 16 }, (_, i) => 2025 + i));
    for (const [month, date] of Object.values(LUNAR_NEW_YEAR)) {
      const dayOfYear = month === 1 ? date : 31 + date;
      expect(dayOfYear).toBeGreaterThanOrEqual(21);
      expect(dayOfYear).toBeLessThanOrEqual(51);
    }
  });

  it('agrees with the runtime’s Chinese calendar in the years it computes right', () => {
    const chinese = new Intl.DateTimeFormat('en-u-ca-chinese', { month: 'numeric', day: 'numeric' });
    const isLunarFirstDay = (date: Date) => {
      const parts = chinese.formatToParts(date);
      return (
        parts.find((p) => p.type === 'month')?.value === '1' &&
        parts.find((p) => p.type === 'day')?.value === '1'
      );
    };
    // Without ICU's Chinese calendar (a small-ICU build) this check has nothing to compare with.
    if (!isLunarFirstDay(day(2026, 2, 17))) return;
    for (const [year, [month, date]] of Object.entries(LUNAR_NEW_YEAR)) {
      // ICU puts these two new moons on the wrong side of midnight in China (checked by hand above).
      if (year === '2027' || year === '2030') continue;
      expect(isLunarFirstDay(day(Number(year), month, date)), year).toBe(true);
    }
  });
});
