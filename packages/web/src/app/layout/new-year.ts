// The New Year easter egg's calendar (spec part 2 §2): New Year's Day and the Lunar New Year, in
// the visitor's own calendar day.

/**
 * The first day of the Chinese lunar year, as [month (1-12), day], from the Hong Kong Observatory's
 * tables. A table rather than Intl's "chinese" calendar: ICU puts two of these a day off (2027-02-07
 * and 2030-02-02) because their new moons fall minutes from midnight in China.
 */
export const LUNAR_NEW_YEAR: Readonly<Record<number, readonly [month: number, day: number]>> = {
  2025: [1, 29],
  2026: [2, 17],
  2027: [2, 6],
  2028: [1, 26],
  2029: [2, 13],
  2030: [2, 3],
  2031: [1, 23],
  2032: [2, 11],
  2033: [1, 31],
  2034: [2, 19],
  2035: [2, 8],
  2036: [1, 28],
  2037: [2, 15],
  2038: [2, 4],
  2039: [1, 24],
  2040: [2, 12],
};

export type NewYear = 'new-year' | 'lunar-new-year';

/** Which New Year `date` is (in local time), or null on every other day. */
export function newYearOf(date: Date): NewYear | null {
  const month = date.getMonth() + 1;
  const day = date.getDate();
  if (month === 1 && day === 1) return 'new-year';
  const lunar = LUNAR_NEW_YEAR[date.getFullYear()];
  if (lunar && lunar[0] === month && lunar[1] === day) return 'lunar-new-year';
  return null;
}

/**
 * How the effect runs, as the classic console does it: the fireworks play for 3 s, then the page
 * reloads 10 s after they stop (the reload clears whatever the effect left behind).
 */
export const NEW_YEAR_EFFECT = { playMs: 3_000, reloadAfterMs: 10_000 } as const;
