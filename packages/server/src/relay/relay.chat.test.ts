import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockUpstream } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { LOG_TYPE, tokenQuota } from '@sluice/shared';
import { testDialects } from '../test-support/databases.js';
import { createTestApp } from '../test-support/test-app.js';
import type { Caller, TestApp } from '../test-support/test-app.js';
import {
  addChannel,
  addToken,
  balances,
  billingWritten,
  listen,
  setOptions,
} from '../test-support/relay-kit.js';
import { relayRuntime } from './pipeline/relay-runtime.js';
import type { TestToken } from '../test-support/relay-kit.js';

const MODEL = 'relay-test-model';
const pricing = {
  billing: 'tokens' as const,
  modelRatio: 2.5,
  completionRatio: 3,
  groupRatio: 1,
  cacheRatio: 1,
  cacheWriteRatio: 1.25,
};

/** The events of an SSE body: parsed JSON chunks, and '[DONE]'. */
const sseEvents = (text: string): unknown[] =>
  text
    .split('\n\n')
    .map((e) => e.trim())
    .filter((e) => e.startsWith('data: '))
    .map((e) => e.slice(6))
    .map((d) => (d === '[DONE]' ? d : JSON.parse(d)));

describe.each(testDialects())('relay chat and completions on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let base: string;
  let user: Caller;
  let token: TestToken;
  let channelId: number;

  beforeAll(async () => {
    mock = await startMockUpstream();
    t = await createTestApp({ dialect });
    await setOptions(t, { ModelRatio: { [MODEL]: 2.5 }, CompletionRatio: { [MODEL]: 3 } });
    user = await t.createUser({ quota: 10_000_000 });
    token = await addToken(t, user.id);
    channelId = await addChannel(t, { base_url: mock.url, models: MODEL, openai_organization: 'org-42' });
    base = await listen(t);
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  const post = (path: string, body: unknown, key = token.key) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('relays a chat call, bills it from the upstream usage and logs it', async () => {
    const before = await balances(t, { userId: user.id, tokenId: token.id, channelIds: [channelId] });
    const res = await post('/v1/chat/completions', {
      model: MODEL,
      messages: [{ role: 'user', content: 'hello there world' }],
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      choices: { message: { content: string } }[];
      usage: { prompt_tokens: number; completion_tokens: number };
    };
    expect(body.choices[0]?.message.content).toBe('You said: hello there world');
    expect(body.usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 5 });

    const sent = mock.lastRequest('/v1/chat/completions');
    expect(sent?.headers.authorization).toMatch(/^Bearer ch-/);
    expect(sent?.headers['openai-organization']).toBe('org-42');

    const quota = tokenQuota({ promptTokens: 4, completionTokens: 5 }, pricing);
    expect(quota).toBe(48); // (4 + 5 × 3) × 2.5 = 47.5 → 48
    const after = await balances(t, { userId: user.id, tokenId: token.id, channelIds: [channelId] });
    expect(before.userQuota - after.userQuota).toBe(quota);
    expect(after.userUsed - before.userUsed).toBe(quota);
    expect(after.requestCount - before.requestCount).toBe(1);
    expect(before.tokenRemain - after.tokenRemain).toBe(quota);
    expect(after.tokenUsed - before.tokenUsed).toBe(quota);
    expect(after.channelUsed - before.channelUsed).toBe(quota);

    await billingWritten(t);
    const log = await t.db.db.selectFrom('logs').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(log).toMatchObject({
      type: LOG_TYPE.consume,
      user_id: user.id,
      username: user.username,
      token_id: token.id,
      model_name: MODEL,
      channel_id: channelId,
      is_stream: 0,
      prompt_tokens: 4,
      completion_tokens: 5,
      quota,
      group: 'default',
    });
    expect(log.token_name).toMatch(/^token /);
    expect(log.content).toContain('model ratio 2.5');
    expect(JSON.parse(log.other)).toMatchObject({
      model_ratio: 2.5,
      completion_ratio: 3,
      group_ratio: 1,
      model_price: -1,
      admin_info: { use_channel: [String(channelId)] },
    });
    expect(typeof JSON.parse(log.other).frt).toBe('number');
  });

  it('streams, asks upstream for usage and leaves the usage event out for a client that did not ask', async () => {
    const before = await balances(t, { userId: user.id, tokenId: token.id, channelIds: [channelId] });
    const res = await post('/v1/chat/completions', {
      model: MODEL,
      stream: true,
      messages: [{ role: 'user', content: 'one two' }],
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = sseEvents(await res.text());
    expect(events.at(-1)).toBe('[DONE]');
    const chunks = events.slice(0, -1) as {
      choices: { delta: { content?: string } }[];
      usage?: unknown;
      obfuscation?: string;
    }[];
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('You said: one two');
    expect(chunks.every((c) => c.choices.length > 0)).toBe(true);
    // The upstream's per-chunk obfuscation pads reach the client as they were sent.
    expect(chunks.every((c) => typeof c.obfuscation === 'string' && c.obfuscation !== '')).toBe(true);

    const sent = mock.lastRequest('/v1/chat/completions')?.body as {
      stream_options?: { include_usage?: boolean };
    };
    expect(sent.stream_options?.include_usage).toBe(true);

    const quota = tokenQuota({ promptTokens: 3, completionTokens: 4 }, pricing);
    const after = await balances(t, { userId: user.id, tokenId: token.id, channelIds: [channelId] });
    expect(before.userQuota - after.userQuota).toBe(quota);
    expect(after.channelUsed - before.channelUsed).toBe(quota);
    await billingWritten(t);
    const log = await t.db.db.selectFrom('logs').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(log).toMatchObject({ is_stream: 1, prompt_tokens: 3, completion_tokens: 4, quota });
    expect(JSON.parse(log.other).frt).toBeGreaterThanOrEqual(0);
  });

  it('passes the usage event through to a client that asked for it', async () => {
    const res = await post('/v1/chat/completions', {
      model: MODEL,
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'count me' }],
    });
    const events = sseEvents(await res.text());
    const usageChunk = events.at(-2) as {
      choices: unknown[];
      usage: { prompt_tokens: number; completion_tokens: number };
    };
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 4 });
  });

  it('relays legacy completions, JSON and stream', async () => {
    const json = await post('/v1/completions', { model: MODEL, prompt: 'say this back' });
    expect(json.status).toBe(200);
    const body = (await json.json()) as { choices: { text: string }[] };
    expect(body.choices[0]?.text).toContain('say this back');

    const stream = await post('/v1/completions', { model: MODEL, prompt: 'again please', stream: true });
    const events = sseEvents(await stream.text());
    expect(events.at(-1)).toBe('[DONE]');
    await billingWritten(t);
    const logs = await t.db.db.selectFrom('logs').selectAll().orderBy('id', 'desc').limit(2).execute();
    expect(logs.map((l) => l.is_stream)).toEqual([1, 0]);
    expect(logs.every((l) => l.quota > 0)).toBe(true);
  });

  it('answers invalid requests with an OpenAI error and holds nothing', async () => {
    const before = await balances(t, { userId: user.id, tokenId: token.id, channelIds: [channelId] });
    const missing = await post('/v1/chat/completions', { messages: [{ role: 'user', content: 'x' }] });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toContain('model');
    const broken = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
      body: '{"model":',
    });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: { code: string } }).error.code).toBe('invalid_json');
    const unpriced = await post('/v1/chat/completions', {
      model: 'nobody-priced-this',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(unpriced.status).toBe(400);
    const err = ((await unpriced.json()) as { error: { message: string; code: string } }).error;
    expect(err.code).toBe('model_price_not_set');
    expect(err.message).toContain('ModelRatio');
    const after = await balances(t, { userId: user.id, tokenId: token.id, channelIds: [channelId] });
    expect(after).toEqual(before);
  });

  it('bills without writing a log row when LogConsumeEnabled is off', async () => {
    await setOptions(t, { LogConsumeEnabled: false });
    try {
      const before = await balances(t, { userId: user.id, tokenId: token.id, channelIds: [channelId] });
      const count = async () =>
        (await billingWritten(t), await t.db.db.selectFrom('logs').select('id').execute()).length;
      const logs = await count();
      const res = await post('/v1/chat/completions', {
        model: MODEL,
        messages: [{ role: 'user', content: 'quiet please' }],
      });
      expect(res.status).toBe(200);
      await res.text();
      expect(await count()).toBe(logs);
      const after = await balances(t, { userId: user.id, tokenId: token.id, channelIds: [channelId] });
      expect(before.userQuota - after.userQuota).toBe(
        tokenQuota({ promptTokens: 3, completionTokens: 4 }, pricing),
      );
    } finally {
      await setOptions(t, { LogConsumeEnabled: true });
    }
  });

  it('adds each call to the hourly quota_data of its user and model', async () => {
    const rt = relayRuntime(t.app.ctx);
    await billingWritten(t);
    await rt.quotaData.flush();
    const read = () =>
      t.db.db
        .selectFrom('quota_data')
        .selectAll()
        .where('user_id', '=', user.id)
        .where('model_name', '=', MODEL)
        .execute();
    const sum = (rows: Awaited<ReturnType<typeof read>>) =>
      rows.reduce((acc, r) => ({ count: acc.count + r.count, quota: acc.quota + r.quota }), {
        count: 0,
        quota: 0,
      });
    const before = sum(await read());
    const res = await post('/v1/chat/completions', {
      model: MODEL,
      messages: [{ role: 'user', content: 'for the charts' }],
    });
    await res.text();
    await billingWritten(t);
    await rt.quotaData.flush();
    const rows = await read();
    const after = sum(rows);
    expect(after.count - before.count).toBe(1);
    expect(after.quota - before.quota).toBe(tokenQuota({ promptTokens: 4, completionTokens: 5 }, pricing));
    expect(rows.every((r) => r.created_at % 3600 === 0)).toBe(true);
  });
});
