// The dashboard's totals and series from the server's per-model buckets.
import type { DashboardRow } from '@sluice/shared';
import { describe, expect, it } from 'vitest';
import { MAX_SERIES, OTHER_SERIES, summarise } from './summarise';

const row = (
  model_name: string,
  created_at: number,
  quota: number,
  count = 1,
  token_used = 10,
): DashboardRow => ({
  model_name,
  created_at,
  quota,
  count,
  token_used,
});

describe('dashboard summary', () => {
  it('adds up quota, calls and tokens and groups them by bucket and model', () => {
    const summary = summarise([row('a', 3600, 100, 2, 30), row('b', 3600, 50), row('a', 7200, 25, 1, 5)]);
    expect(summary.totals).toEqual({ quota: 175, count: 4, tokens: 45 });
    expect(summary.series).toEqual(['a', 'b']);
    expect(summary.buckets).toEqual([
      { time: 3600, quota: { a: 100, b: 50 } },
      { time: 7200, quota: { a: 25 } },
    ]);
    expect(summary.callsBySeries).toEqual([
      { name: 'a', count: 3 },
      { name: 'b', count: 1 },
    ]);
    expect(summary.models.map((m) => [m.model, m.count])).toEqual([
      ['a', 3],
      ['b', 1],
    ]);
  });

  it('folds the smallest models into one series when there are too many to tell apart', () => {
    const rows = Array.from({ length: MAX_SERIES + 2 }, (_, i) => row(`m${i}`, 3600, 1000 - i));
    const summary = summarise(rows);
    expect(summary.series).toHaveLength(MAX_SERIES);
    expect(summary.series.at(-1)).toBe(OTHER_SERIES);
    expect(summary.buckets[0]?.quota[OTHER_SERIES]).toBe(
      1000 - (MAX_SERIES - 1) + (1000 - MAX_SERIES) + (1000 - MAX_SERIES - 1),
    );
    // The calls chart folds the same models, so each keeps its colour; the table still names them all.
    expect(summary.callsBySeries.map((c) => c.name)).toEqual(summary.series);
    expect(summary.callsBySeries.at(-1)?.count).toBe(3);
    expect(summary.models).toHaveLength(MAX_SERIES + 2);
  });

  it('is empty for no rows', () => {
    expect(summarise([])).toEqual({
      totals: { quota: 0, count: 0, tokens: 0 },
      series: [],
      callsBySeries: [],
      buckets: [],
      models: [],
    });
  });
});
