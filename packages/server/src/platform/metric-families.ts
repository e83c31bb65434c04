// The app's own Prometheus metrics: counters, histograms and gauges kept in plain maps and written in
// Prometheus' text format at a scrape. prom-client still serves the process's default metrics
// (metrics.ts), but the relay's counters are updated six times per call, and prom-client validates
// and hashes a label object on every update: about 23 k instructions per call on the main thread
// (callgrind), against a few hundred here. A series is found through one map per label value, and
// nothing is made per update but the caller's list of values; its label text is escaped once, when
// the series first appears.

/** What a scrape writes for one family: its HELP and TYPE lines, then its samples. */
export interface MetricFamily {
  write(lines: string[]): void;
}

/** A label value or HELP text in the text format: backslash, double quote (labels only) and newline escaped. */
const escapeLabel = (value: string): string =>
  value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
const escapeHelp = (value: string): string => value.replace(/[\\\n]/g, (c) => (c === '\n' ? '\\n' : '\\\\'));

/** `{a="x",b="y"}` (with `extra` appended, already formatted), or '' for no labels. */
function labelText(names: readonly string[], values: readonly string[], extra = ''): string {
  const pairs = names.map((name, i) => `${name}="${escapeLabel(values[i] ?? '')}"`);
  if (extra !== '') pairs.push(extra);
  return pairs.length === 0 ? '' : `{${pairs.join(',')}}`;
}

const numberText = (value: number): string =>
  value === Infinity ? '+Inf' : value === -Infinity ? '-Inf' : String(value);

function header(lines: string[], name: string, help: string, type: string): void {
  lines.push(`# HELP ${name} ${escapeHelp(help)}`, `# TYPE ${name} ${type}`);
}

/** A family's series by their label values: one map per label, in the order of the label names. */
class SeriesTree<S> {
  private readonly root: TreeNode<S> = { next: undefined, series: undefined };
  /** Every series, in the order they first appeared. */
  readonly all: S[] = [];

  constructor(private readonly make: (values: readonly string[]) => S) {}

  find(values: readonly string[]): S {
    let node = this.root;
    for (const value of values) {
      node.next ??= new Map();
      let child = node.next.get(value);
      if (!child) {
        child = { next: undefined, series: undefined };
        node.next.set(value, child);
      }
      node = child;
    }
    if (node.series === undefined) {
      node.series = this.make(values);
      this.all.push(node.series);
    }
    return node.series;
  }
}

interface TreeNode<S> {
  next: Map<string, TreeNode<S>> | undefined;
  series: S | undefined;
}

export class CounterFamily implements MetricFamily {
  private readonly series: SeriesTree<{ labels: string; value: number }>;

  constructor(
    readonly name: string,
    private readonly help: string,
    labelNames: readonly string[] = [],
  ) {
    this.series = new SeriesTree((values) => ({ labels: labelText(labelNames, values), value: 0 }));
  }

  /** Adds `by` to the series of these label values (in the order of the label names). */
  inc(values: readonly string[], by = 1): void {
    this.series.find(values).value += by;
  }

  write(lines: string[]): void {
    header(lines, this.name, this.help, 'counter');
    for (const { labels, value } of this.series.all) lines.push(`${this.name}${labels} ${numberText(value)}`);
  }
}

interface HistogramSeries {
  /** The label text of each bucket's sample, with its `le`. */
  bucketLabels: string[];
  /** The label text of the sum's and the count's samples. */
  labels: string;
  /** Observations per bucket, not cumulative; the last counts those above every bound. */
  counts: number[];
  sum: number;
  count: number;
}

export class HistogramFamily implements MetricFamily {
  private readonly series: SeriesTree<HistogramSeries>;

  constructor(
    readonly name: string,
    private readonly help: string,
    /** Upper bounds, ascending. */
    private readonly buckets: readonly number[],
    labelNames: readonly string[] = [],
  ) {
    this.series = new SeriesTree((values) => ({
      bucketLabels: [...buckets, Infinity].map((le) =>
        labelText(labelNames, values, `le="${numberText(le)}"`),
      ),
      labels: labelText(labelNames, values),
      counts: new Array<number>(buckets.length + 1).fill(0),
      sum: 0,
      count: 0,
    }));
  }

  observe(values: readonly string[], value: number): void {
    const series = this.series.find(values);
    let at = 0;
    while (at < this.buckets.length && value > (this.buckets[at] as number)) at++;
    series.counts[at] = (series.counts[at] as number) + 1;
    series.sum += value;
    series.count++;
  }

  write(lines: string[]): void {
    header(lines, this.name, this.help, 'histogram');
    for (const series of this.series.all) {
      let cumulative = 0;
      series.counts.forEach((count, i) => {
        cumulative += count;
        lines.push(`${this.name}_bucket${series.bucketLabels[i] as string} ${cumulative}`);
      });
      lines.push(`${this.name}_sum${series.labels} ${numberText(series.sum)}`);
      lines.push(`${this.name}_count${series.labels} ${series.count}`);
    }
  }
}

/** A gauge read at the scrape: its samples as label values and a number. */
export class GaugeFamily implements MetricFamily {
  constructor(
    readonly name: string,
    private readonly help: string,
    private readonly read: () => ReadonlyArray<readonly [values: readonly string[], value: number]>,
    private readonly labelNames: readonly string[] = [],
  ) {}

  write(lines: string[]): void {
    header(lines, this.name, this.help, 'gauge');
    for (const [values, value] of this.read()) {
      lines.push(`${this.name}${labelText(this.labelNames, values)} ${numberText(value)}`);
    }
  }
}

/** The text a scrape gets for these families, one blank line between them. */
export function writeFamilies(families: readonly MetricFamily[]): string {
  return families
    .map((family) => {
      const lines: string[] = [];
      family.write(lines);
      return lines.join('\n');
    })
    .join('\n\n');
}
