// The dashboard's figures from the per-model, per-bucket rows the server answers: totals, the
// stacked series of quota over time, and calls per model. Pure, so it is tested without charts.
import type { DashboardRow } from '@sluice/shared';

/** Models beyond this many (by quota) are drawn together as one "other" series. */
export const MAX_SERIES = 8;
export const OTHER_SERIES = '\u0000other';

export interface Totals {
  quota: number;
  count: number;
  tokens: number;
}

export interface Bucket {
  /** Start of the bucket, unix seconds. */
  time: number;
  /** Quota per series name. */
  quota: Record<string, number>;
}

export interface ModelShare {
  model: string;
  count: number;
  quota: number;
  tokens: number;
}

export interface DashboardSummary {
  totals: Totals;
  /** Series names, largest quota first; OTHER_SERIES last when models were folded. */
  series: string[];
  buckets: Bucket[];
  /** Calls per series, in the order (and so the colours) of `series`. */
  callsBySeries: Array<{ name: string; count: number }>;
  /** Every model, most calls first. */
  models: ModelShare[];
}

export function summarise(rows: readonly DashboardRow[]): DashboardSummary {
  const totals: Totals = { quota: 0, count: 0, tokens: 0 };
  const byModel = new Map<string, ModelShare>();
  for (const row of rows) {
    totals.quota += row.quota;
    totals.count += row.count;
    totals.tokens += row.token_used;
    const share = byModel.get(row.model_name) ?? { model: row.model_name, count: 0, quota: 0, tokens: 0 };
    share.count += row.count;
    share.quota += row.quota;
    share.tokens += row.token_used;
    byModel.set(row.model_name, share);
  }

  const byQuota = [...byModel.values()].sort((a, b) => b.quota - a.quota || a.model.localeCompare(b.model));
  const folded = byQuota.length > MAX_SERIES;
  const named = new Set(byQuota.slice(0, folded ? MAX_SERIES - 1 : MAX_SERIES).map((m) => m.model));
  const series = [...named];
  if (folded) series.push(OTHER_SERIES);

  const buckets = new Map<number, Bucket>();
  for (const row of rows) {
    const bucket = buckets.get(row.created_at) ?? { time: row.created_at, quota: {} };
    const name = named.has(row.model_name) ? row.model_name : OTHER_SERIES;
    bucket.quota[name] = (bucket.quota[name] ?? 0) + row.quota;
    buckets.set(row.created_at, bucket);
  }

  const calls = new Map<string, number>(series.map((name) => [name, 0]));
  for (const share of byModel.values()) {
    const name = named.has(share.model) ? share.model : OTHER_SERIES;
    calls.set(name, (calls.get(name) ?? 0) + share.count);
  }

  return {
    totals,
    series,
    callsBySeries: series.map((name) => ({ name, count: calls.get(name) ?? 0 })),
    buckets: [...buckets.values()].sort((a, b) => a.time - b.time),
    models: [...byModel.values()].sort((a, b) => b.count - a.count || a.model.localeCompare(b.model)),
  };
}
