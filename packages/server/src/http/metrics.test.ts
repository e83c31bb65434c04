// GET /metrics as a Prometheus scraper sees it: relay calls counted by model, channel, format and
// status with the tokens and quota their log rows were billed, latencies, retries and automatic
// disables, the ledger and the database pool, the process; METRICS_TOKEN and METRICS_ENABLED; and
// model names from callers that cannot grow the label sets.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockUpstream } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { loadConfig } from '../config.js';
import { MODEL_LABELS } from '../platform/metrics.js';
import { testDialects } from '../test-support/databases.js';
import { createTestApp } from '../test-support/test-app.js';
import type { TestApp } from '../test-support/test-app.js';
import {
  addChannel,
  addToken,
  billingWritten,
  channelRow,
  consumeLogs,
  listen,
  setOptions,
} from '../test-support/relay-kit.js';
import type { TestToken } from '../test-support/relay-kit.js';

const MODEL = 'metrics-model';
const RETRY_MODEL = 'metrics-retry-model';
/** Priced models no channel serves: more than the metrics give label values of their own. */
const PRICED_FLOOD = Array.from({ length: MODEL_LABELS + 50 }, (_, i) => `priced-flood-${i}`);

/** Samples by name and labels, e.g. `sluice_relay_requests_total{channel="1",format="openai",…}`. */
type Samples = Map<string, number>;

const sampleKey = (name: string, labels: Record<string, string> = {}): string =>
  `${name}{${Object.entries(labels)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}="${v}"`)
    .join(',')}}`;

function parseMetrics(text: string): Samples {
  const samples: Samples = new Map();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match?.[1] || match[3] === undefined) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, k, v] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
      labels[k as string] = v as string;
    }
    samples.set(sampleKey(match[1], labels), Number(match[3]));
  }
  return samples;
}

/** The label values of `label` among the samples of `name`. */
const labelValues = (samples: Samples, name: string, label: string): Set<string> => {
  const out = new Set<string>();
  for (const key of samples.keys()) {
    if (!key.startsWith(`${name}{`)) continue;
    const value = new RegExp(`[{,]${label}="([^"]*)"`).exec(key)?.[1];
    if (value !== undefined) out.add(value);
  }
  return out;
};

describe.each(testDialects())('GET /metrics on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let base: string;
  let token: TestToken;
  let userId: number;
  let channel: number;
  let retryFirst: number;
  let retrySecond: number;

  beforeAll(async () => {
    mock = await startMockUpstream();
    t = await createTestApp({ dialect });
    await setOptions(t, {
      ModelRatio: {
        [MODEL]: 2.5,
        [RETRY_MODEL]: 1,
        ...Object.fromEntries(PRICED_FLOOD.map((m) => [m, 1])),
      },
      CompletionRatio: { [MODEL]: 3 },
      RetryTimes: 1,
      AutomaticDisableChannelEnabled: true,
    });
    const user = await t.createUser({ quota: 50_000_000 });
    userId = user.id;
    token = await addToken(t, user.id, { remain_quota: 50_000_000 });
    channel = await addChannel(t, { base_url: mock.url, models: MODEL });
    // The first is always tried first (higher priority), the second takes over.
    retryFirst = await addChannel(t, { base_url: mock.url, models: RETRY_MODEL, priority: 10 });
    retrySecond = await addChannel(t, { base_url: mock.url, models: RETRY_MODEL, priority: 0 });
    base = await listen(t);
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  const scrape = async (): Promise<{ samples: Samples; text: string; type: string | null }> => {
    await billingWritten(t);
    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    return { samples: parseMetrics(text), text, type: res.headers.get('content-type') };
  };
  const chat = (model: string, extra: Record<string, unknown> = {}, key = token.key) =>
    fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'count these words' }], ...extra }),
    });

  it('counts relayed calls by model, channel, format and status, with the tokens and quota of their log rows', async () => {
    const before = await scrape();
    const rowsBefore = await consumeLogs(t, userId);
    for (let i = 0; i < 2; i++) expect((await chat(MODEL)).status).toBe(200);
    const stream = await chat(MODEL, { stream: true });
    expect(stream.status).toBe(200);
    expect(await stream.text()).toContain('[DONE]');
    const claude = await fetch(`${base}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': token.key, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(claude.status).toBe(200);

    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) =>
      (after.samples.get(sampleKey(name, labels)) ?? 0) - (before.samples.get(sampleKey(name, labels)) ?? 0);
    const ch = String(channel);
    expect(after.type).toMatch(/^text\/plain; version=0\.0\.4/);
    const requests = { model: MODEL, channel: ch, status: '200' };
    expect(delta('sluice_relay_requests_total', { ...requests, format: 'openai' })).toBe(3);
    expect(delta('sluice_relay_requests_total', { ...requests, format: 'anthropic' })).toBe(1);

    const all = await consumeLogs(t, userId);
    // Newest first: the rows of these calls.
    const rows = all.slice(0, all.length - rowsBefore.length);
    expect(rows).toHaveLength(4);
    const sum = (pick: (r: (typeof rows)[number]) => number) => rows.reduce((n, r) => n + pick(r), 0);
    expect(sum((r) => Number(r.quota))).toBeGreaterThan(0);
    expect(delta('sluice_relay_quota_total', { model: MODEL })).toBe(sum((r) => Number(r.quota)));
    expect(delta('sluice_relay_tokens_total', { model: MODEL, kind: 'prompt' })).toBe(
      sum((r) => r.prompt_tokens),
    );
    expect(delta('sluice_relay_tokens_total', { model: MODEL, kind: 'completion' })).toBe(
      sum((r) => r.completion_tokens),
    );

    const duration = 'sluice_relay_request_duration_seconds_count';
    expect(delta(duration, { format: 'openai', stream: 'false' })).toBe(2);
    expect(delta(duration, { format: 'openai', stream: 'true' })).toBe(1);
    expect(delta(duration, { format: 'anthropic', stream: 'false' })).toBe(1);
    expect(delta('sluice_relay_stream_first_byte_seconds_count', { channel: ch })).toBe(1);
    expect(delta('sluice_relay_upstream_duration_seconds_count', { channel: ch })).toBe(4);
    expect(after.samples.get(sampleKey('sluice_relay_in_flight'))).toBe(0);
    // Every call was written by the ledger, in batches whose lag was measured.
    expect(delta('sluice_ledger_batch_calls_sum')).toBe(4);
    const batches = delta('sluice_ledger_batch_calls_count');
    expect(batches).toBeGreaterThanOrEqual(1);
    expect(delta('sluice_ledger_commit_lag_seconds_count')).toBe(batches);
    expect(after.samples.get(sampleKey('sluice_ledger_queued_calls'))).toBe(0);

    // The database: the pool of PostgreSQL and MySQL, the writer thread of a SQLite file.
    if (dialect === 'sqlite') {
      expect(after.samples.get(sampleKey('sluice_ledger_writer_pending_batches'))).toBe(0);
      expect(after.text).not.toContain('sluice_db_pool_connections{');
    } else {
      const total = after.samples.get(sampleKey('sluice_db_pool_connections', { state: 'total' })) ?? 0;
      const idle = after.samples.get(sampleKey('sluice_db_pool_connections', { state: 'idle' })) ?? -1;
      expect(total).toBeGreaterThanOrEqual(1);
      expect(idle).toBeGreaterThanOrEqual(0);
      expect(idle).toBeLessThanOrEqual(total);
      expect(after.samples.get(sampleKey('sluice_db_pool_waiting'))).toBe(0);
      expect(after.text).not.toContain('sluice_ledger_writer_pending_batches');
    }
    // The process's own numbers.
    expect(after.samples.has(sampleKey('process_cpu_user_seconds_total'))).toBe(true);
    expect(after.samples.has(sampleKey('nodejs_heap_size_used_bytes'))).toBe(true);
    // Nothing that names a caller.
    expect(after.text).not.toContain(token.key.slice(3));
    expect(after.text).not.toMatch(/user_?id|req(uest)?_?id/i);
  });

  it('counts calls refused before they reach a channel, under bounded labels', async () => {
    const before = await scrape();
    expect((await chat(MODEL, {}, 'sk-not-a-real-key')).status).toBe(401);
    const broken = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
      body: '{"model":',
    });
    expect(broken.status).toBe(400);
    expect((await chat('no-such-model-anywhere')).status).toBe(400);
    const after = await scrape();
    const delta = (labels: Record<string, string>) =>
      (after.samples.get(sampleKey('sluice_relay_requests_total', labels)) ?? 0) -
      (before.samples.get(sampleKey('sluice_relay_requests_total', labels)) ?? 0);
    const refused = { channel: 'none', format: 'openai' };
    expect(delta({ ...refused, model: 'unknown', status: '401' })).toBe(1);
    expect(delta({ ...refused, model: 'unknown', status: '400' })).toBe(1);
    // An unpriced name is the caller's, not a label value of its own.
    expect(delta({ ...refused, model: 'other', status: '400' })).toBe(1);
    expect(after.text).not.toContain('no-such-model-anywhere');
  });

  it('counts a retry and the automatic disable of the channel that failed', async () => {
    const before = await scrape();
    // The first channel's key is refused: it is disabled and the call goes on to the second.
    mock.enqueue({ status: 401, error: { message: 'Incorrect API key provided', code: 'invalid_api_key' } });
    expect((await chat(RETRY_MODEL)).status).toBe(200);
    expect((await channelRow(t, retryFirst)).status).toBe(3);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) =>
      (after.samples.get(sampleKey(name, labels)) ?? 0) - (before.samples.get(sampleKey(name, labels)) ?? 0);
    expect(delta('sluice_relay_retries_total', { channel: String(retryFirst) })).toBe(1);
    expect(delta('sluice_channel_auto_disabled_total', { channel: String(retryFirst), by: 'breaker' })).toBe(
      1,
    );
    expect(
      delta('sluice_relay_requests_total', {
        model: RETRY_MODEL,
        channel: String(retrySecond),
        format: 'openai',
        status: '200',
      }),
    ).toBe(1);
    // Both tries were timed, each under its own channel.
    expect(delta('sluice_relay_upstream_duration_seconds_count', { channel: String(retryFirst) })).toBe(1);
    expect(delta('sluice_relay_upstream_duration_seconds_count', { channel: String(retrySecond) })).toBe(1);
  });

  it('keeps model label values bounded whatever model names callers send', async () => {
    const before = await scrape();
    const named = (s: Samples) => {
      const values = labelValues(s, 'sluice_relay_requests_total', 'model');
      values.delete('other');
      values.delete('unknown');
      return values;
    };
    const namedBefore = named(before.samples).size;
    const random = Array.from(
      { length: 300 },
      (_, i) => `random-${i}-${Math.random().toString(36).slice(2)}`,
    );
    const names = [...PRICED_FLOOD, ...random];
    for (let i = 0; i < names.length; i += 50) {
      const answers = await Promise.all(names.slice(i, i + 50).map((m) => chat(m)));
      // Priced but served by no channel (404), or not priced at all (400).
      for (const res of answers) expect([400, 404]).toContain(res.status);
    }
    const after = await scrape();
    expect(named(after.samples).size).toBe(MODEL_LABELS);
    const other = (s: Samples) =>
      [...s.entries()]
        .filter(([k]) => k.startsWith('sluice_relay_requests_total{') && k.includes('model="other"'))
        .reduce((n, [, v]) => n + v, 0);
    // Every name past the limit and every unpriced one was counted as "other".
    expect(other(after.samples) - other(before.samples)).toBe(
      random.length + PRICED_FLOOD.length - (MODEL_LABELS - namedBefore),
    );
    for (const name of random) expect(after.text).not.toContain(name);
  });
});

describe('GET /metrics settings', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('answers only a scraper that sends METRICS_TOKEN as its bearer token', async () => {
    const app = await createTestApp({ config: { metrics: { enabled: true, token: 'scrape-secret' } } });
    t = app;
    const get = (authorization?: string) =>
      app.call({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
    const none = await get();
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(none.body).not.toContain('sluice_');
    expect((await get('Bearer wrong-secret')).statusCode).toBe(401);
    expect((await get('scrape-secret')).statusCode).toBe(401);
    const allowed = await get('Bearer scrape-secret');
    expect(allowed.statusCode).toBe(200);
    expect(allowed.body).toContain('# TYPE sluice_relay_requests_total counter');
  });

  it('is a plain 404 with METRICS_ENABLED=false, and relay calls still work', async () => {
    t = await createTestApp({ config: { metrics: { enabled: false, token: '' } } });
    const mock = await startMockUpstream();
    try {
      await setOptions(t, { ModelRatio: { [MODEL]: 1 } });
      const user = await t.createUser({ quota: 1_000_000 });
      const key = await addToken(t, user.id);
      await addChannel(t, { base_url: mock.url, models: MODEL });
      const res = await t.call({
        method: 'POST',
        url: '/v1/chat/completions',
        headers: { authorization: `Bearer ${key.key}` },
        payload: { model: MODEL, messages: [{ role: 'user', content: 'hello' }] },
      });
      expect(res.statusCode).toBe(200);
      const metrics = await t.call({ method: 'GET', url: '/metrics' });
      expect(metrics.statusCode).toBe(404);
      expect(metrics.body).not.toContain('sluice_');
    } finally {
      await mock.close();
    }
  });

  it('reads METRICS_ENABLED and METRICS_TOKEN from the environment', () => {
    const env = { SESSION_SECRET: 'fixed', SQLITE_PATH: '/nonexistent/sluice.db' };
    expect(loadConfig(env).metrics).toEqual({ enabled: true, token: '' });
    expect(loadConfig({ ...env, METRICS_ENABLED: 'false', METRICS_TOKEN: ' tok ' }).metrics).toEqual({
      enabled: false,
      token: 'tok',
    });
    expect(loadConfig({ ...env, METRICS_ENABLED: 'TRUE' }).metrics.enabled).toBe(true);
    expect(() => loadConfig({ ...env, METRICS_ENABLED: 'sometimes' })).toThrow(/METRICS_ENABLED/);
  });
});
