// Tables for the console and the results section of bench/README.md.
import { cpus, release, totalmem, type } from 'node:os';

export function machine() {
  const cpu = cpus();
  return [
    `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}`,
    `${(totalmem() / 1024 ** 3).toFixed(0)} GiB RAM`,
    `${type()} ${release()}`,
    `Node ${process.version}`,
  ].join(', ');
}

export const fixed = (value, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : '–');
const median = (values) => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
/** "median (lowest–highest)" of a row's slices, or the one value when there is only one. */
const spread = (values, format) => {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return '–';
  if (finite.length === 1) return format(finite[0]);
  return `${format(median(finite))} (${format(Math.min(...finite))}–${format(Math.max(...finite))})`;
};
/** Per round: a / b of the slices measured in that round; the median and range over the rounds. */
const roundRatios = (a, b) =>
  a && b ? a.slices.map((slice, i) => slice.rps / (b.slices[i]?.rps ?? NaN)).filter((r) => r > 0) : [];
const ratio = (a, b) => spread(roundRatios(a, b), (r) => `${r.toFixed(2)}×`);

function table(header, rows) {
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const row of rows) lines.push(`| ${row.join(' | ')} |`);
  return lines.join('\n');
}

export const MODE_LABEL = { json: 'JSON', stream: 'stream' };

/** The whole results section as Markdown; the console prints the same text. */
export function renderResults({ config, throughput, latency, memory, sluice, date, loadAtStart }) {
  const out = [];
  out.push(
    `Run ${date} on ${machine()}; 1-minute load average ${fixed(loadAtStart, 1)} when the run started ` +
      '(other work on the machine skews the numbers).',
  );
  out.push(
    `Throughput: ${config.connections} connections, ${config.duration} s per row in ${config.rounds} rounds of ` +
      `${fixed(config.duration / config.rounds, 1)} s (each row's first after a ${config.warmup} s warm-up); ` +
      'req/s and ratios are the median of the rounds, with the lowest and highest in brackets; ' +
      'a ratio is taken between the two rows of one round. ' +
      `Latency: ${config.sequential} sequential requests on one connection (after 1000 unmeasured).`,
  );
  if (!sluice.available)
    out.push(`**Sluice relay not available** — ${sluice.reason}. Rows for Sluice are missing.`);
  out.push('');
  out.push('### Throughput');
  out.push('');
  out.push(
    table(
      ['Client → upstream', 'Target', 'Mode', 'req/s', 'p50 ms', 'p99 ms', 'failed'],
      throughput.map((row) => [
        row.scenario,
        row.target,
        MODE_LABEL[row.mode],
        spread(
          row.slices.map((slice) => slice.rps),
          (v) => fixed(v),
        ),
        fixed(median(row.slices.map((slice) => slice.p50)), 1),
        fixed(median(row.slices.map((slice) => slice.p99)), 1),
        String(row.slices.reduce((sum, slice) => sum + slice.failed, 0)),
      ]),
    ),
  );
  const rowOf = (scenario, target, mode) =>
    throughput.find((r) => r.scenario === scenario && r.target === target && r.mode === mode);
  const scenarios = [...new Map(throughput.map((r) => [r.scenario, r.baseline])).entries()];
  const rows = [];
  for (const [scenario, baseline] of scenarios) {
    const base = baseline ?? scenario;
    if (!baseline) {
      rows.push([
        `${scenario}: pass-through / direct`,
        ratio(rowOf(scenario, 'pass-through', 'json'), rowOf(scenario, 'direct', 'json')),
        ratio(rowOf(scenario, 'pass-through', 'stream'), rowOf(scenario, 'direct', 'stream')),
      ]);
    }
    rows.push([
      `${scenario}: Sluice / pass-through${baseline ? ` (${baseline})` : ''}`,
      ratio(rowOf(scenario, 'sluice', 'json'), rowOf(base, 'pass-through', 'json')),
      ratio(rowOf(scenario, 'sluice', 'stream'), rowOf(base, 'pass-through', 'stream')),
    ]);
  }
  out.push('');
  out.push(table(['Ratio (throughput)', 'JSON', 'stream'], rows));
  out.push('');
  out.push('### Sequential latency (µs, concurrency 1, OpenAI → OpenAI)');
  out.push('');
  const direct = latency.find((row) => row.target === 'direct');
  const added = (value, base) => {
    if (!Number.isFinite(value) || !Number.isFinite(base)) return '–';
    const delta = value - base;
    return `${delta >= 0 ? '+' : '−'}${fixed(Math.abs(delta))}`;
  };
  out.push(
    table(
      [
        'Target',
        'JSON p50',
        'JSON p99',
        'added p50',
        'added p99',
        'stream first byte p50',
        'p99',
        'added p50',
        'added p99',
      ],
      latency.map((row) => [
        row.target,
        fixed(row.json.total.p50),
        fixed(row.json.total.p99),
        row === direct ? '' : added(row.json.total.p50, direct?.json.total.p50),
        row === direct ? '' : added(row.json.total.p99, direct?.json.total.p99),
        fixed(row.stream.firstByte.p50),
        fixed(row.stream.firstByte.p99),
        row === direct ? '' : added(row.stream.firstByte.p50, direct?.stream.firstByte.p50),
        row === direct ? '' : added(row.stream.firstByte.p99, direct?.stream.firstByte.p99),
      ]),
    ),
  );
  if (memory) {
    out.push('');
    out.push('### Sluice memory');
    out.push('');
    out.push(
      `RSS ${fixed(memory.start.rssMiB, 1)} MiB right after start (settled ${fixed(memory.start.settledMiB, 1)}), ` +
        `${fixed(memory.before.rssMiB, 1)} MiB after the probe calls (settled ${fixed(memory.before.settledMiB, 1)}), ` +
        `${fixed(memory.after.rssMiB, 1)} MiB after the runs (settled ${fixed(memory.after.settledMiB, 1)}; ` +
        `peak ${fixed(memory.after.peakMiB, 1)} MiB).`,
    );
  }
  return out.join('\n');
}
