// The app's Prometheus metrics (served by http/metrics.routes.ts): relay calls by model, channel,
// format and status, their latencies, tokens and quota; retries and automatic channel disables; the
// ledger's batches and lag; the database pool; the process (prom-client's default metrics). Each app
// has its own registry, so apps sharing a process (tests) never share counters. A call adds its
// numbers once, when it ends, with label values from small bounded sets: model names come from
// callers, so only priced models get a value of their own (at most MODEL_LABELS of them) and any
// other name counts as "other"; channels are ids the operator made; no key, user or request id is
// ever a label.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
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

const WRITER_PENDING = 'sluice_ledger_writer_pending_batches';

const channelLabel = (id: number): string => (id > 0 ? String(id) : 'none');

export function createMetrics(options: MetricsOptions): Metrics {
  if (!options.enabled) return NO_METRICS;
  const registry = new Registry();
  const registers = [registry];
  const requests = new Counter({
    name: 'sluice_relay_requests_total',
    help: 'Relay calls by model, channel (id; none when no channel was tried), client format and HTTP status.',
    labelNames: ['model', 'channel', 'format', 'status'] as const,
    registers,
  });
  const duration = new Histogram({
    name: 'sluice_relay_request_duration_seconds',
    help: 'Relay calls from arrival to the last byte of the answer, retries included.',
    labelNames: ['format', 'stream'] as const,
    buckets: SECONDS,
    registers,
  });
  const upstream = new Histogram({
    name: 'sluice_relay_upstream_duration_seconds',
    help: 'Each try on a channel, from sending the call to the end of its answer or its failure.',
    labelNames: ['channel'] as const,
    buckets: SECONDS,
    registers,
  });
  const firstByte = new Histogram({
    name: 'sluice_relay_stream_first_byte_seconds',
    help: "Streams from the call's arrival to the first event sent to the client.",
    labelNames: ['channel'] as const,
    buckets: FIRST_BYTE_SECONDS,
    registers,
  });
  const tokens = new Counter({
    name: 'sluice_relay_tokens_total',
    help: 'Tokens billed, by model and kind (prompt, completion).',
    labelNames: ['model', 'kind'] as const,
    registers,
  });
  const quota = new Counter({
    name: 'sluice_relay_quota_total',
    help: 'Quota charged for relay calls, by model (500000 = 1 USD).',
    labelNames: ['model'] as const,
    registers,
  });
  const retries = new Counter({
    name: 'sluice_relay_retries_total',
    help: 'Tries that failed on a channel and were retried on another, by the channel that failed.',
    labelNames: ['channel'] as const,
    registers,
  });
  const disabled = new Counter({
    name: 'sluice_channel_auto_disabled_total',
    help: 'Channels disabled automatically, by channel and by what disabled it (breaker, test).',
    labelNames: ['channel', 'by'] as const,
    registers,
  });
  const batches = new Histogram({
    name: 'sluice_ledger_batch_calls',
    help: 'Calls written per ledger batch (one transaction).',
    buckets: BATCH_CALLS,
    registers,
  });
  const lag = new Histogram({
    name: 'sluice_ledger_commit_lag_seconds',
    help: "Per ledger batch: from its oldest call's settlement to the batch's commit.",
    buckets: LAG_SECONDS,
    registers,
  });

  let inFlight = 0;
  new Gauge({
    name: 'sluice_relay_in_flight',
    help: 'Relay calls being served.',
    registers,
    collect() {
      this.set(inFlight);
    },
  });
  let ledger: LedgerGauges | undefined;
  new Gauge({
    name: 'sluice_ledger_queued_calls',
    help: 'Settled calls whose billing is not written yet.',
    registers,
    collect() {
      this.set(ledger?.queued() ?? 0);
    },
  });
  const { poolStats } = options;
  if (poolStats) {
    new Gauge({
      name: 'sluice_db_pool_connections',
      help: 'Database connections of the pool, by state (total, idle).',
      labelNames: ['state'] as const,
      registers,
      collect() {
        const stats = poolStats();
        this.set({ state: 'total' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
      },
    });
    new Gauge({
      name: 'sluice_db_pool_waiting',
      help: 'Queries waiting for a database connection.',
      registers,
      collect() {
        this.set(poolStats().waiting);
      },
    });
  }

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
      requests.inc({ model, channel, format: call.format, status: String(call.status) });
      duration.observe(
        { format: call.format, stream: call.stream ? 'true' : 'false' },
        call.durationMs / 1000,
      );
      if (call.firstByteMs >= 0) firstByte.observe({ channel }, call.firstByteMs / 1000);
      if (call.promptTokens > 0) tokens.inc({ model, kind: 'prompt' }, call.promptTokens);
      if (call.completionTokens > 0) tokens.inc({ model, kind: 'completion' }, call.completionTokens);
      if (call.quota > 0) quota.inc({ model }, call.quota);
    },
    callRefused(format, status) {
      requests.inc({ model: 'unknown', channel: 'none', format, status: String(status) });
    },
    attemptEnded(channelId, ms) {
      upstream.observe({ channel: channelLabel(channelId) }, ms / 1000);
    },
    retried(channelId) {
      retries.inc({ channel: channelLabel(channelId) });
    },
    channelDisabled(channelId, by) {
      disabled.inc({ channel: channelLabel(channelId), by });
    },
    ledgerBatch(calls, lagMs) {
      batches.observe(calls);
      lag.observe(lagMs / 1000);
    },
    watchLedger(source) {
      ledger = source;
      // A SQLite file's ledger writes through a thread of its own; other databases have none.
      if (source.writerPending() === undefined || registry.getSingleMetric(WRITER_PENDING)) return;
      new Gauge({
        name: WRITER_PENDING,
        help: 'SQLite: batches handed to the writer thread and not committed yet.',
        registers,
        collect() {
          this.set(ledger?.writerPending() ?? 0);
        },
      });
    },
    async render() {
      const [own, node] = await Promise.all([registry.metrics(), processMetrics().metrics()]);
      return { contentType: registry.contentType, body: `${own}\n${node}` };
    },
  };
}
