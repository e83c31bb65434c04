import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { startMockUpstream, withMock } from '@sluice/mock-upstream';
import type { MockDirective, MockUpstream } from '@sluice/mock-upstream';
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
import type { Balances, TestToken } from '../test-support/relay-kit.js';

const MODEL = 'fault-model';
const pricing = {
  billing: 'tokens' as const,
  modelRatio: 1.5,
  completionRatio: 2,
  groupRatio: 1,
  cacheRatio: 1,
  cacheWriteRatio: 1.25,
};

/** Waits for a condition the server reaches on its own after the client has gone. */
async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  for (let i = 0; ; i++) {
    const value = await read();
    if (ok(value) || i > 200) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.each(testDialects())('upstream faults on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let base: string;
  let user: Caller;
  let token: TestToken;
  let channelId: number;
  let before: Balances;

  beforeAll(async () => {
    mock = await startMockUpstream();
    t = await createTestApp({ dialect });
    await setOptions(t, { ModelRatio: { [MODEL]: 1.5 }, CompletionRatio: { [MODEL]: 2 }, RetryTimes: 0 });
    user = await t.createUser({ quota: 50_000_000 });
    token = await addToken(t, user.id, { remain_quota: 50_000_000 });
    channelId = await addChannel(t, { base_url: mock.url, models: MODEL });
    base = await listen(t);
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });
  beforeEach(async () => {
    mock.reset();
    before = await now();
  });

  const now = () => balances(t, { userId: user.id, tokenId: token.id, channelIds: [channelId] });
  const body = (directive: MockDirective, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      model: MODEL,
      messages: [{ role: 'user', content: withMock('tell me things', directive) }],
      ...extra,
    });
  const post = (payload: string, signal?: AbortSignal) =>
    fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
      body: payload,
      ...(signal ? { signal } : {}),
    });
  const lastLog = async () => {
    await billingWritten(t);
    return t.db.db.selectFrom('logs').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
  };
  const expectRefunded = async () => {
    const after = await now();
    expect(after.userQuota).toBe(before.userQuota);
    expect(after.tokenRemain).toBe(before.tokenRemain);
    expect(after.channelUsed).toBe(before.channelUsed);
    expect(after.logQuota).toBe(before.logQuota);
  };
  /** Every quota that moved is in the logs, and equals the formula applied to the logged tokens. */
  const expectBilledAsLogged = async () => {
    const after = await now();
    const log = await lastLog();
    expect(log.type).toBe(LOG_TYPE.consume);
    expect(log.quota).toBe(
      tokenQuota({ promptTokens: log.prompt_tokens, completionTokens: log.completion_tokens }, pricing),
    );
    expect(before.userQuota - after.userQuota).toBe(log.quota);
    expect(before.tokenRemain - after.tokenRemain).toBe(log.quota);
    expect(after.channelUsed - before.channelUsed).toBe(log.quota);
    expect(after.logQuota - before.logQuota).toBe(log.quota);
    return log;
  };
  const sseData = (text: string) =>
    text
      .split('\n\n')
      .filter((e) => e.startsWith('data: '))
      .map((e) => e.slice(6));

  it.each([500, 502, 503, 429])('passes an upstream %i on and refunds the hold', async (status) => {
    const res = await post(body({ status }));
    expect(res.status).toBe(status);
    const err = ((await res.json()) as { error: { message: string } }).error;
    expect(err.message).toMatch(/request id/);
    await expectRefunded();
    expect((await lastLog()).type).toBe(LOG_TYPE.error);
  });

  it('answers 502 when the upstream resets the connection, and refunds', async () => {
    const res = await post(body({ reset: true }));
    expect(res.status).toBe(502);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('upstream_connection');
    await expectRefunded();
  });

  it('answers 502 to a malformed or cut JSON answer, and refunds', async () => {
    const malformed = await post(body({ malformed: true }));
    expect(malformed.status).toBe(502);
    expect(((await malformed.json()) as { error: { code: string } }).error.code).toBe(
      'bad_upstream_response',
    );
    const cut = await post(body({ cut_after: 20 }));
    expect(cut.status).toBe(502);
    await expectRefunded();
  });

  it('counts tokens itself when the upstream reports no usage (JSON)', async () => {
    const res = await post(body({ no_usage: true, reply: 'a reply of seven words right here' }));
    expect(res.status).toBe(200);
    const log = await expectBilledAsLogged();
    expect(log.completion_tokens).toBe(countTokens('a reply of seven words right here'));
    expect(log.prompt_tokens).toBeGreaterThan(0);
    // The log says the count is Sluice's own; an upstream count is not flagged.
    expect(JSON.parse(String(log.other))).toMatchObject({ usage_source: 'local' });
    const counted = await post(body({}));
    expect(counted.status).toBe(200);
    expect(JSON.parse(String((await lastLog()).other))).not.toHaveProperty('usage_source');
  });

  it('counts tokens itself when the upstream stream carries no usage', async () => {
    const res = await post(
      body({ no_usage: true, reply: 'streamed words without any usage' }, { stream: true }),
    );
    const events = sseData(await res.text());
    expect(events.at(-1)).toBe('[DONE]');
    const log = await expectBilledAsLogged();
    expect(log.completion_tokens).toBe(countTokens('streamed words without any usage'));
  });

  it('tells a client of a stream cut mid-way inside the stream and bills what was produced', async () => {
    const res = await post(body({ reply_tokens: 40, cut_after: 10 }, { stream: true }));
    expect(res.status).toBe(200);
    const events = sseData(await res.text());
    const last = JSON.parse(events.at(-1) ?? '{}') as { error?: { code: string } };
    expect(last.error?.code).toBe('stream_interrupted');
    expect(events).not.toContain('[DONE]');
    const log = await expectBilledAsLogged();
    expect(log.completion_tokens).toBeGreaterThan(0);
    expect(log.completion_tokens).toBeLessThan(40);
    expect(log.content).toContain('broke off');
  });

  it('stops a stream at a malformed event with an error event and bills what came before', async () => {
    const res = await post(body({ malformed: true, reply: 'first second third fourth' }, { stream: true }));
    expect(res.status).toBe(200);
    const events = sseData(await res.text());
    expect((JSON.parse(events.at(-1) ?? '{}') as { error?: { code: string } }).error?.code).toBe(
      'stream_interrupted',
    );
    await expectBilledAsLogged();
  });

  it('aborts the upstream call and refunds when the client leaves before the first byte', async () => {
    const controller = new AbortController();
    const pending = post(body({ delay_ms: 5_000 }), controller.signal);
    await eventually(
      async () => mock.requests.length,
      (n) => n > 0,
    );
    controller.abort();
    await expect(pending).rejects.toThrow();
    const record = await eventually(
      async () => mock.requests[0]?.outcome,
      (o) => o === 'client-closed',
    );
    expect(record).toBe('client-closed');
    const after = await eventually(now, (b) => b.userQuota === before.userQuota);
    expect(after.userQuota).toBe(before.userQuota);
    await expectRefunded();
  });

  it('aborts the upstream stream when the client disconnects mid-way and bills what was produced', async () => {
    const controller = new AbortController();
    const res = await post(
      body({ reply_tokens: 500, chunk_delay_ms: 10 }, { stream: true }),
      controller.signal,
    );
    const reader = res.body!.getReader();
    let received = '';
    while ((received.match(/data: /g) ?? []).length < 5) {
      const { value } = await reader.read();
      received += new TextDecoder().decode(value);
    }
    controller.abort();
    await eventually(
      async () => mock.requests[0]?.outcome,
      (o) => o === 'client-closed',
    );
    const log = await eventually(lastLog, (l) => l.content.includes('client disconnected'));
    expect(log.content).toContain('client disconnected');
    expect(log.completion_tokens).toBeGreaterThanOrEqual(4);
    expect(log.completion_tokens).toBeLessThan(500);
    expect(mock.requests[0]?.events ?? 0).toBeLessThan(500);
    await expectBilledAsLogged();
  });
});

describe('upstream timeout', () => {
  let t: TestApp;
  let mock: MockUpstream;
  beforeAll(async () => {
    mock = await startMockUpstream();
    process.env.RELAY_TIMEOUT = '1';
    try {
      t = await createTestApp();
    } finally {
      delete process.env.RELAY_TIMEOUT;
    }
    await setOptions(t, { ModelRatio: { [MODEL]: 1 } });
    await addChannel(t, { base_url: mock.url, models: MODEL });
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  /** A chat call by a new user with a million of quota; returns the answer and the user's quota after. */
  const callAsNewUser = async (directive: MockDirective, extra: Record<string, unknown> = {}) => {
    const user = await t.createUser({ quota: 1_000_000 });
    const token = await addToken(t, user.id);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({
        model: MODEL,
        ...extra,
        messages: [{ role: 'user', content: withMock('slow', directive) }],
      }),
    });
    await billingWritten(t);
    const quotaAfter = async () =>
      (await t.db.db.selectFrom('users').select('quota').where('id', '=', user.id).executeTakeFirstOrThrow())
        .quota;
    return { res, userId: user.id, quotaAfter };
  };

  it('answers 504 when the upstream sends no headers within RELAY_TIMEOUT, and refunds', async () => {
    const { res, quotaAfter } = await callAsNewUser({ delay_ms: 3_000 });
    expect(res.statusCode).toBe(504);
    expect(res.json().error.code).toBe('upstream_timeout');
    expect(await quotaAfter()).toBe(1_000_000);
  });

  it('ends a stream whose upstream falls silent for longer than RELAY_TIMEOUT, billing what came', async () => {
    const { res, userId, quotaAfter } = await callAsNewUser(
      { reply_tokens: 5, chunk_delay_ms: 4_000 },
      { stream: true },
    );
    expect(res.statusCode).toBe(200);
    const events = res.body.split('\n\n').filter((e) => e.startsWith('data: '));
    expect(events.length).toBeGreaterThan(1);
    const last = JSON.parse(events.at(-1)?.slice(6) ?? '{}') as { error?: { code: string; message: string } };
    expect(last.error?.code).toBe('stream_interrupted');
    expect(last.error?.message).toContain('no data for 1s');
    expect(mock.requests.at(-1)?.events).toBe(1);
    const log = await t.db.db
      .selectFrom('logs')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(log.type).toBe(LOG_TYPE.consume);
    expect(log.content).toContain('broke off');
    expect(1_000_000 - (await quotaAfter())).toBe(log.quota);
  });
});
