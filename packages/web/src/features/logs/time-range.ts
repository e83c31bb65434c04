// Default time ranges of the usage lists (spec part 2 §9). All in unix seconds and local time; the
// end reaches an hour past now so rows written while the page stays open still fall inside.
import { dayjs } from '../../lib/dates';

const HOUR = 3600;
const DAY = 24 * HOUR;

export interface TimeRange {
  start: number;
  end: number;
}

const startOfToday = (now: number): number => dayjs.unix(now).startOf('day').unix();

/** Logs: from midnight today to an hour from now. */
export const logDefaultRange = (now: number): TimeRange => ({ start: startOfToday(now), end: now + HOUR });

/** Drawing: the last 30 days to an hour from now. */
export const drawingDefaultRange = (now: number): TimeRange => ({ start: now - 30 * DAY, end: now + HOUR });

/** Async tasks: from midnight today to an hour from now. */
export const taskDefaultRange = (now: number): TimeRange => ({ start: startOfToday(now), end: now + HOUR });

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/**
 * Dashboard: a range that fits the bucket size — a day of hours, a week of days, 30 days of weeks —
 * ending an hour from now.
 */
export function dashboardDefaultRange(now: number, granularity: 'hour' | 'day' | 'week'): TimeRange {
  const days = granularity === 'hour' ? 1 : granularity === 'day' ? 7 : 30;
  return { start: now - days * DAY, end: now + HOUR };
}
