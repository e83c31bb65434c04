import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockUpstream } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { LOG_TYPE } from '@sluice/shared';
import { testDialects } from '../test-support/databases.js';
import { createTestApp } from '../test-support/test-app.js';
import type { Caller, TestApp } from '../test-support/test-app.js';
import { addChannel, addToken, balances, billingWritten, setOptions } from '../test-support/relay-kit.js';
import type { TestToken } from '../test-support/relay-kit.js';

describe.each(testDialects())('channel selection and retries on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let user: Caller;
  let token: TestToken;
  let model = '';
  let n = 0;

  beforeAll(async () => {
    mock = await startMockUpstream();
    t = await createTestApp({ dialect });
    user = await t.createUser({ quota: 100_000_000 });
    token = await addToken(t, user.id, { unlimited_quota: 1 });
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });
  // Every test gets its own model, so only its own channels can serve it.
  beforeEach(async () => {
    model = `routing-model-${++n}`;
    mock.reset();
    mock.setBehaviour(null);
    await setOptions(t, { ModelRatio: { [model]: 1 }, RetryTimes: 0 });
  });

  const channel = async (key: string, fields: Record<string, string | number> = {}) =>
    addChannel(t, { base_url: mock.url, models: model, key, ...fields });
  const fail = (key: string, status: number) => mock.setBehaviour({ status }, { key });
  const call = (body: Record<string, unknown> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ model, messages: [{ role: 'user', content: 'route me' }], ...body }),
    });
  const lastLog = async () => {
    await billingWritten(t);
    return t.db.db.selectFrom('logs').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
  };
  const keysCalled = () => mock.requests.map((r) => String(r.headers.authorization).slice('Bearer '.length));

  it('retries on other channels, exhausting the top priority tier before the next one', async () => {
    await setOptions(t, { RetryTimes: 3 });
    const a = await channel(`a-${n}`, { priority: 10 });
    const b = await channel(`b-${n}`, { priority: 10 });
    const c = await channel(`c-${n}`, { priority: 0 });
    fail(`a-${n}`, 500);
    fail(`b-${n}`, 502);
    const res = await call();
    expect(res.statusCode).toBe(200);
    expect(keysCalled().slice(0, 2).sort()).toEqual([`a-${n}`, `b-${n}`]);
    expect(keysCalled()[2]).toBe(`c-${n}`);
    const log = await lastLog();
    expect(log.type).toBe(LOG_TYPE.consume);
    expect(log.channel_id).toBe(c);
    const tried = JSON.parse(log.other).admin_info.use_channel as string[];
    expect(tried.slice(0, 2).sort()).toEqual([String(a), String(b)].sort());
    expect(tried[2]).toBe(String(c));
  });

  it('stops after RetryTimes retries and never calls a failed channel twice', async () => {
    await setOptions(t, { RetryTimes: 5 });
    await channel(`a-${n}`);
    await channel(`b-${n}`);
    fail(`a-${n}`, 500);
    fail(`b-${n}`, 503);
    const res = await call();
    expect([500, 503]).toContain(res.statusCode);
    expect(keysCalled().sort()).toEqual([`a-${n}`, `b-${n}`]);

    await setOptions(t, { RetryTimes: 0 });
    const seen = mock.requests.length;
    const once = await call();
    expect([500, 503]).toContain(once.statusCode);
    expect(mock.requests.length - seen).toBe(1);
  });

  it('does not retry a client error (400), and passes the upstream message on', async () => {
    await setOptions(t, { RetryTimes: 3 });
    await channel(`a-${n}`);
    await channel(`b-${n}`);
    mock.setBehaviour({ status: 400, error: { message: 'bad parameter foo', code: 'invalid_value' } });
    const res = await call();
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain('bad parameter foo');
    expect(res.json().error.code).toBe('invalid_value');
    expect(mock.requests).toHaveLength(1);
  });

  it('answers 404 when no channel serves the model, before holding any quota', async () => {
    const before = await balances(t, { userId: user.id, tokenId: token.id, channelIds: [] });
    const res = await call();
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('model_not_found');
    expect(await balances(t, { userId: user.id, tokenId: token.id, channelIds: [] })).toEqual(before);
  });

  it('refunds the hold and writes an error log when every channel fails', async () => {
    await setOptions(t, { RetryTimes: 1 });
    const a = await channel(`a-${n}`);
    fail(`a-${n}`, 500);
    const before = await balances(t, { userId: user.id, tokenId: token.id, channelIds: [a] });
    const res = await call();
    expect(res.statusCode).toBe(500);
    const after = await balances(t, { userId: user.id, tokenId: token.id, channelIds: [a] });
    expect(after.userQuota).toBe(before.userQuota);
    expect(after.tokenRemain).toBe(before.tokenRemain);
    expect(after.channelUsed).toBe(before.channelUsed);
    expect(after.requestCount).toBe(before.requestCount);
    const log = await lastLog();
    expect(log).toMatchObject({ type: LOG_TYPE.error, quota: 0, channel_id: a, model_name: model });
    expect(JSON.parse(log.other)).toMatchObject({
      status_code: 500,
      admin_info: { use_channel: [String(a)] },
    });
  });

  it('sends the mapped model upstream and bills and logs the requested one', async () => {
    await channel(`a-${n}`, { model_mapping: JSON.stringify({ [model]: 'upstream-name' }) });
    const res = await call();
    expect(res.statusCode).toBe(200);
    expect((mock.lastRequest()?.body as { model: string }).model).toBe('upstream-name');
    const log = await lastLog();
    expect(log.model_name).toBe(model);
    expect(JSON.parse(log.other).upstream_model_name).toBe('upstream-name');
  });

  it("maps the upstream status with the channel's status_code_mapping, which also decides the retry", async () => {
    await channel(`a-${n}`, { status_code_mapping: '{"400":"500"}', priority: 5 });
    fail(`a-${n}`, 400);
    const mapped = await call();
    expect(mapped.statusCode).toBe(500);

    await setOptions(t, { RetryTimes: 1 });
    await channel(`b-${n}`, { priority: 0 });
    const seen = mock.requests.length;
    const retried = await call();
    expect(retried.statusCode).toBe(200);
    expect(keysCalled().slice(seen)).toEqual([`a-${n}`, `b-${n}`]);
  });

  it('retries a rate-limited channel (429) on another one', async () => {
    await setOptions(t, { RetryTimes: 1 });
    await channel(`a-${n}`, { priority: 1 });
    await channel(`b-${n}`, { priority: 0 });
    fail(`a-${n}`, 429);
    const res = await call();
    expect(res.statusCode).toBe(200);
    expect(keysCalled()).toEqual([`a-${n}`, `b-${n}`]);
  });
});
