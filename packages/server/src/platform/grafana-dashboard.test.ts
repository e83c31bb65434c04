// docs/grafana-dashboard.json against the metrics the server exports: every metric a panel queries is
// one that GET /metrics reports (platform/metrics.ts, and Node's process metrics).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createMetrics } from './metrics.js';

const DASHBOARD = new URL('../../../../docs/grafana-dashboard.json', import.meta.url);

interface Panel {
  title?: string;
  targets?: Array<{ expr?: string }>;
}

/** The metric names a PromQL expression reads. */
const metricsIn = (expr: string): string[] => expr.match(/\b(?:sluice|process|nodejs)_[a-z0-9_]+\b/g) ?? [];

describe('the Grafana dashboard', () => {
  it('queries only metrics that /metrics reports', async () => {
    const metrics = createMetrics({
      enabled: true,
      knownModel: () => true,
      poolStats: () => ({ total: 2, idle: 1, waiting: 0 }),
    });
    const { body } = await metrics.render();
    const reported = new Set(
      [...body.matchAll(/^# TYPE (\S+) (\S+)$/gm)].flatMap(([, name = '', type]) =>
        type === 'histogram' ? [`${name}_bucket`, `${name}_sum`, `${name}_count`] : [name],
      ),
    );
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: Panel[] };
    const queried = dashboard.panels.flatMap((panel) =>
      (panel.targets ?? []).flatMap((target) =>
        metricsIn(target.expr ?? '').map((name) => ({ panel: panel.title, name })),
      ),
    );
    expect(queried.length).toBeGreaterThan(20);
    expect(queried.filter(({ name }) => !reported.has(name))).toEqual([]);
  });
});
