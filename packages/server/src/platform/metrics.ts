// The app's Prometheus metrics (served by http/metrics.routes.ts): relay calls by model, channel,
// format and status, their latencies, tokens and quota; retries and automatic channel disables; the
// ledger's batches and lag; the database pool; the process (prom-client's default metrics). Each app
// has its own families (metric-families.ts), so apps sharing a process (tests) never share counters;
// the process's metrics are one prom-client registry for the process. A call adds its
// numbers once, when it ends, with label values from small bounded sets: model names come from
// callers, so only priced models get a value of their own (at most MODEL_LABELS of them) and any
// other name counts as "other"; channels are ids the operator made; no key, user or request id is
// ever a label.
import { Registry, collectDefaultMetrics } from 'prom-client';
import { CounterFamily, GaugeFamily, HistogramFamily, writeFamilies } from './metric-families.js';
import type { MetricFamily } from './metric-families.js';
import type { PoolStats } from '../db/create-db.js';

/**
 * What a relay call tells the metrics when it ends; also its access log line, written as it is (so
 * the line costs no object of its own). One per call.
 */
export interface CallRecord {
  /** The request id, under the name Fastify's own log lines give it. */
  reqId: string;
  userId: number;
  /** The client's format: its dialect for chat (openai, responses, anthropic, gemini), else the endpoint. */
  format: string;
  /** '' until the body is parsed. */
  model: string;
  stream: boolean;
  /** The channel of the last try; 0 when none was tried. */
  channelId: number;
  attempts: number;
  /** The HTTP status the client got (200 for a stream that began, whatever happened after). */
  status: number;
  startedMs: number;
  durationMs: number;
  /** From the call's start to a stream's first event; -1 otherwise. */
  firstByteMs: number;
  promptTokens: number;
  completionTokens: number;
  /** What the call was charged. */
  quota: number;
}

/** A call's record as it starts: one literal with every field, so every call's has one shape. */
export const newCallRecord = (
  reqId: string,
  userId: number,
  format: string,
  startedMs: number,
): CallRecord => ({
  reqId,
  userId,
  format,
  model: '',
  stream: false,
  channelId: 0,
  attempts: 0,
  status: 0,
  startedMs,
  durationMs: 0,
  firstByteMs: -1,
  promptTokens: 0,
  completionTokens: 0,
  quota: 0,
});

/** What the ledger shows at a scrape. */
export interface LedgerGauges {
  /** Settled calls not written yet. */
  queued(): number;
  /** Batches handed to the SQLite writer thread and not answered yet; undefined without one. */
  writerPending(): number | undefined;
}

export type DisabledBy = 'breaker' | 'test';

export interface Metrics {
  readonly enabled: boolean;
  callStarted(): void;
  /** The call is over (answered, or refused after it started): counted once, with its record. */
  callEnded(call: CallRecord): void;
  /** A call refused before it reached the pipeline (a bad key, a body that is not JSON). */
  callRefused(format: string, status: number): void;
  /** One try on one channel took `ms`, from sending to the end of its answer (or its failure). */
  attemptEnded(channelId: number, ms: number): void;
  /** The try on this channel failed and the call moved on to another channel. */
  retried(channelId: number): void;
  channelDisabled(channelId: number, by: DisabledBy): void;
  /** A ledger batch of `calls` calls was committed, the oldest `lagMs` after it was settled. */
  ledgerBatch(calls: number, lagMs: number): void;
  watchLedger(source: LedgerGauges): void;
  /** The text a scrape gets, and its content type. */
  render(): Promise<{ contentType: string; body: string }>;
}

/** Distinct model names counted under their own label value; later ones count as "other". */
export const MODEL_LABELS = 200;

const SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const FIRST_BYTE_SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30];
const BATCH_CALLS = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000];
const LAG_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** Node's own numbers (heap, event loop lag, GC, handles) are the process's: one registry for all apps. */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

const NO_METRICS: Metrics = {
  enabled: false,
  callStarted: () => undefined,
  callEnded: () => undefined,
  callRefused: () => undefined,
  attemptEnded: () => undefined,
  retried: () => undefined,
  channelDisabled: () => undefined,
  ledgerBatch: () => undefined,
  watchLedger: () => undefined,
  render: () => Promise.resolve({ contentType: 'text/plain; charset=utf-8', body: '' }),
};

export interface MetricsOptions {
  enabled: boolean;
  /** Whether a model name is one the operator priced (a name worth a label value of its own). */
  knownModel(model: string): boolean;
  poolStats?: () => PoolStats;
}

const channelLabel = (id: number): string => (id > 0 ? String(id) : 'none');

export function createMetrics(options: MetricsOptions): Metrics {
  if (!options.enabled) return NO_METRICS;
  const requests = new CounterFamily(
    'sluice_relay_requests_total',
    'Relay calls by model, channel (id; none when no channel was tried), client format and HTTP status.',
    ['model', 'channel', 'format', 'status'],
  );
  const duration = new HistogramFamily(
    'sluice_relay_request_duration_seconds',
    'Relay calls from arrival to the last byte of the answer, retries included.',
    SECONDS,
    ['format', 'stream'],
  );
  const upstream = new HistogramFamily(
    'sluice_relay_upstream_duration_seconds',
    'Each try on a channel, from sending the call to the end of its answer or its failure.',
    SECONDS,
    ['channel'],
  );
  const firstByte = new HistogramFamily(
    'sluice_relay_stream_first_byte_seconds',
    "Streams from the call's arrival to the first event sent to the client.",
    FIRST_BYTE_SECONDS,
    ['channel'],
  );
  const tokens = new CounterFamily(
    'sluice_relay_tokens_total',
    'Tokens billed, by model and kind (prompt, completion).',
    ['model', 'kind'],
  );
  const quota = new CounterFamily(
    'sluice_relay_quota_total',
    'Quota charged for relay calls, by model (500000 = 1 USD).',
    ['model'],
  );
  const retries = new CounterFamily(
    'sluice_relay_retries_total',
    'Tries that failed on a channel and were retried on another, by the channel that failed.',
    ['channel'],
  );
  const disabled = new CounterFamily(
    'sluice_channel_auto_disabled_total',
    'Channels disabled automatically, by channel and by what disabled it (breaker, test).',
    ['channel', 'by'],
  );
  const batches = new HistogramFamily(
    'sluice_ledger_batch_calls',
    'Calls written per ledger batch (one transaction).',
    BATCH_CALLS,
  );
  const lag = new HistogramFamily(
    'sluice_ledger_commit_lag_seconds',
    "Per ledger batch: from its oldest call's settlement to the batch's commit.",
    LAG_SECONDS,
  );

  let inFlight = 0;
  let ledger: LedgerGauges | undefined;
  const families: MetricFamily[] = [
    requests,
    duration,
    upstream,
    firstByte,
    tokens,
    quota,
    retries,
    disabled,
    batches,
    lag,
    new GaugeFamily('sluice_relay_in_flight', 'Relay calls being served.', () => [[[], inFlight]]),
    new GaugeFamily('sluice_ledger_queued_calls', 'Settled calls whose billing is not written yet.', () => [
      [[], ledger?.queued() ?? 0],
    ]),
  ];
  const { poolStats } = options;
  if (poolStats) {
    families.push(
      new GaugeFamily(
        'sluice_db_pool_connections',
        'Database connections of the pool, by state (total, idle).',
        () => {
          const stats = poolStats();
          return [
            [['total'], stats.total],
            [['idle'], stats.idle],
          ];
        },
        ['state'],
      ),
      new GaugeFamily('sluice_db_pool_waiting', 'Queries waiting for a database connection.', () => [
        [[], poolStats().waiting],
      ]),
    );
  }
  let writerWatched = false;

  const named = new Set<string>();
  const modelLabel = (model: string): string => {
    if (model === '') return 'unknown';
    if (named.has(model)) return model;
    if (named.size < MODEL_LABELS && options.knownModel(model)) {
      named.add(model);
      return model;
    }
    return 'other';
  };

  return {
    enabled: true,
    callStarted() {
      inFlight++;
    },
    callEnded(call) {
      inFlight--;
      const model = modelLabel(call.model);
      const channel = channelLabel(call.channelId);
      requests.inc([model, channel, call.format, String(call.status)]);
      duration.observe([call.format, call.stream ? 'true' : 'false'], call.durationMs / 1000);
      if (call.firstByteMs >= 0) firstByte.observe([channel], call.firstByteMs / 1000);
      if (call.promptTokens > 0) tokens.inc([model, 'prompt'], call.promptTokens);
      if (call.completionTokens > 0) tokens.inc([model, 'completion'], call.completionTokens);
      if (call.quota > 0) quota.inc([model], call.quota);
    },
    callRefused(format, status) {
      requests.inc(['unknown', 'none', format, String(status)]);
    },
    attemptEnded(channelId, ms) {
      upstream.observe([channelLabel(channelId)], ms / 1000);
    },
    retried(channelId) {
      retries.inc([channelLabel(channelId)]);
    },
    channelDisabled(channelId, by) {
      disabled.inc([channelLabel(channelId), by]);
    },
    ledgerBatch(calls, lagMs) {
      batches.observe([], calls);
      lag.observe([], lagMs / 1000);
    },
    watchLedger(source) {
      ledger = source;
      // A SQLite file's ledger writes through a thread of its own; other databases have none.
      if (source.writerPending() === undefined || writerWatched) return;
      writerWatched = true;
      families.push(
        new GaugeFamily(
          'sluice_ledger_writer_pending_batches',
          'SQLite: batches handed to the writer thread and not committed yet.',
          () => [[[], ledger?.writerPending() ?? 0]],
        ),
      );
    },
    async render() {
      const node = await processMetrics().metrics();
      return { contentType: Registry.PROMETHEUS_CONTENT_TYPE, body: `${writeFamilies(families)}\n\n${node}` };
    },
  };
}
