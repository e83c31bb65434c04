// The default time ranges of the log, drawing, task and dashboard pages.
import { describe, expect, it } from 'vitest';
import { dayjs } from '../../lib/dates';
import { dashboardDefaultRange, drawingDefaultRange, logDefaultRange, taskDefaultRange } from './time-range';

const now = dayjs('2026-11-21T15:42:10').unix();
const midnight = dayjs('2026-11-21T00:00:00').unix();
const inAnHour = dayjs('2026-11-21T16:42:10').unix();

describe('default time ranges', () => {
  it('shows logs from midnight today to an hour from now', () => {
    expect(logDefaultRange(now)).toEqual({ start: midnight, end: inAnHour });
  });

  it('shows drawings of the last 30 days up to an hour from now', () => {
    expect(drawingDefaultRange(now)).toEqual({ start: now - 30 * 86_400, end: inAnHour });
  });

  it('shows tasks from midnight today', () => {
    expect(taskDefaultRange(now).start).toBe(midnight);
    expect(taskDefaultRange(now).end).toBe(inAnHour);
  });

  it('fits the dashboard range to the bucket size', () => {
    expect(dashboardDefaultRange(now, 'hour').start).toBe(now - 86_400);
    expect(dashboardDefaultRange(now, 'day').start).toBe(now - 7 * 86_400);
    expect(dashboardDefaultRange(now, 'week').start).toBe(now - 30 * 86_400);
  });
});
