// One relay call followed end to end by its request id: the client's own x-request-id when it is a
// plain token (a new one otherwise) comes back as a header, goes upstream (signed with the rest on
// Bedrock), names the call in its access log line and is stored on its log row, where the caller
// sees it and admins search by it.
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MOCK_AWS_CREDENTIALS, startMockUpstream } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { LOG_TYPE, ROLE } from '@sluice/shared';
import type { LogItem } from '@sluice/shared';
import { testDialects } from '../test-support/databases.js';
import { createTestApp } from '../test-support/test-app.js';
import type { Caller, TestApp } from '../test-support/test-app.js';
import {
  MOCK_AWS_KEY,
  addChannel,
  addToken,
  billingWritten,
  listen,
  setOptions,
} from '../test-support/relay-kit.js';
import type { TestToken } from '../test-support/relay-kit.js';

const MODEL = 'request-id-model';
const FAILING_MODEL = 'request-id-failing-model';
/** An Anthropic name the Bedrock adapter maps to a Bedrock model id by itself. */
const BEDROCK_MODEL = 'claude-3-5-haiku-20241022';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.each(testDialects())('request ids of relay calls on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let base: string;
  let user: Caller;
  let token: TestToken;
  let admin: Caller;

  beforeAll(async () => {
    mock = await startMockUpstream();
    t = await createTestApp({ dialect });
    await setOptions(t, {
      ModelRatio: { [MODEL]: 1, [FAILING_MODEL]: 1, [BEDROCK_MODEL]: 1 },
      RetryTimes: 0,
    });
    user = await t.createUser({ quota: 10_000_000 });
    token = await addToken(t, user.id, { remain_quota: 10_000_000 });
    admin = await t.createUser({ role: ROLE.admin });
    await addChannel(t, { base_url: mock.url, models: `${MODEL},${FAILING_MODEL}` });
    await addChannel(t, { base_url: mock.url, type: 33, models: BEDROCK_MODEL, key: MOCK_AWS_KEY });
    base = await listen(t);
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  const chat = (headers: Record<string, string>, body: Record<string, unknown> = {}) =>
    fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hello' }], ...body }),
    });

  /** The user's log rows (any type) with this request id, once the calls made so far are billed. */
  const rowsOf = async (requestId: string) => {
    await billingWritten(t);
    return t.db.db.selectFrom('logs').selectAll().where('request_id', '=', requestId).execute();
  };

  it("keeps a client's plain request id: answered, sent upstream, stored on the log row", async () => {
    const id = `client-${Date.now()}.a_B-9`;
    const res = await chat({ 'x-request-id': id });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe(id);
    expect(mock.lastRequest('/v1/chat/completions')?.headers['x-request-id']).toBe(id);
    const rows = await rowsOf(id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ user_id: user.id, type: LOG_TYPE.consume, model_name: MODEL });
  });

  it('replaces a request id that is not a plain token of at most 64 characters', async () => {
    for (const sent of ['x'.repeat(65), 'two words', 'semi;colon', 'ünïcode', '']) {
      const res = await chat({ 'x-request-id': sent });
      expect(res.status).toBe(200);
      const given = res.headers.get('x-request-id') ?? '';
      expect(given, `sent ${JSON.stringify(sent)}`).toMatch(UUID);
      expect(mock.lastRequest('/v1/chat/completions')?.headers['x-request-id']).toBe(given);
      expect(await rowsOf(given)).toHaveLength(1);
      if (sent !== '') expect(await rowsOf(sent.slice(0, 64))).toHaveLength(0);
    }
    // The longest plain token is kept as it is.
    const longest = 'L'.repeat(64);
    expect((await chat({ 'x-request-id': longest })).headers.get('x-request-id')).toBe(longest);
  });

  it('names a stream and the error row of a failed call too', async () => {
    const streamId = `stream-${Date.now()}`;
    const stream = await chat({ 'x-request-id': streamId }, { stream: true });
    expect(stream.headers.get('x-request-id')).toBe(streamId);
    expect(await stream.text()).toContain('[DONE]');
    expect(await rowsOf(streamId)).toMatchObject([{ type: LOG_TYPE.consume, is_stream: 1 }]);

    const failedId = `failed-${Date.now()}`;
    mock.enqueue({ status: 500 });
    const failed = await chat({ 'x-request-id': failedId }, { model: FAILING_MODEL });
    expect(failed.status).toBe(500);
    expect(failed.headers.get('x-request-id')).toBe(failedId);
    expect(((await failed.json()) as { error: { message: string } }).error.message).toContain(
      `(request id: ${failedId})`,
    );
    expect(await rowsOf(failedId)).toMatchObject([{ type: LOG_TYPE.error, model_name: FAILING_MODEL }]);
  });

  it('signs the request id into a Bedrock call with SigV4, which the upstream accepts', async () => {
    const id = `bedrock-${Date.now()}`;
    const res = await fetch(`${base}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': token.key, 'content-type': 'application/json', 'x-request-id': id },
      body: JSON.stringify({
        model: BEDROCK_MODEL,
        max_tokens: 32,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    });
    expect(res.status).toBe(200);
    const sent = mock.lastRequest();
    expect(sent?.status).toBe(200);
    expect(sent?.headers['x-request-id']).toBe(id);
    const signedHeaders = /SignedHeaders=([^,]+),/.exec(String(sent?.headers.authorization))?.[1] ?? '';
    expect(signedHeaders.split(';')).toContain('x-request-id');
    expect(String(sent?.headers.authorization)).toContain(MOCK_AWS_CREDENTIALS.accessKeyId);
    expect(await rowsOf(id)).toHaveLength(1);
  });

  it("shows the request id on the caller's own rows and lets admins search by it", async () => {
    const id = `search-${Date.now()}`;
    expect((await chat({ 'x-request-id': id })).status).toBe(200);
    expect((await chat({ 'x-request-id': `${id}-other` })).status).toBe(200);
    await billingWritten(t);
    // Another user's call under the same id: a client picks its ids, so they need not be unique.
    const stranger = await t.createUser({ quota: 1_000_000 });
    const strangerToken = await addToken(t, stranger.id);
    const theirs = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${strangerToken.key}`,
        'content-type': 'application/json',
        'x-request-id': id,
      },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(theirs.status).toBe(200);
    await billingWritten(t);

    const list = async (url: string, as: Caller, query: Record<string, string>) => {
      const res = await t.call({ method: 'GET', url, as, query });
      const body = res.json<{ success: boolean; data: { items: LogItem[]; total: number } }>();
      expect(body.success, res.body).toBe(true);
      return body.data;
    };
    const own = await list('/api/log/self/', user, { p: '1', page_size: '100' });
    expect(own.items.map((r) => r.request_id)).toEqual(expect.arrayContaining([id, `${id}-other`]));
    const mine = await list('/api/log/self/', user, { request_id: id });
    expect(mine.items.map((r) => [r.user_id, r.request_id])).toEqual([[user.id, id]]);

    const found = await list('/api/log/', admin, { request_id: id });
    expect(found.total).toBe(2);
    expect(found.items.map((r) => r.user_id).sort()).toEqual([user.id, stranger.id].sort());
    expect(found.items.every((r) => r.request_id === id)).toBe(true);
    expect((await list('/api/log/', admin, { request_id: `${id}-other` })).total).toBe(1);
    expect((await list('/api/log/', admin, { request_id: 'nobody-sent-this' })).total).toBe(0);
  });
});

describe('the access log line of a relay call', () => {
  let mock: MockUpstream;
  let t: TestApp | undefined;
  let lines: string[];

  beforeAll(async () => {
    mock = await startMockUpstream();
  });
  afterAll(async () => {
    await mock?.close();
  });
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  /** An app logging at `level` into `lines`, with a user, a token and a channel of MODEL. */
  const start = async (level: string) => {
    lines = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    const app = await createTestApp({ logger: { level, stream } });
    t = app;
    await setOptions(app, { ModelRatio: { [MODEL]: 1 } });
    const owner = await app.createUser({ quota: 1_000_000 });
    const key = await addToken(app, owner.id);
    const channel = await addChannel(app, { base_url: mock.url, models: MODEL });
    const base = await listen(app);
    const call = (id: string, body: Record<string, unknown> = {}) =>
      fetch(`${base}/v1/chat/completions`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key.key}`,
          'content-type': 'application/json',
          'x-request-id': id,
        },
        body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hello' }], ...body }),
      });
    return { call, channel, userId: owner.id };
  };
  const relayLines = () =>
    lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'relay call');

  it('writes one structured line per call at info level, naming the request id', async () => {
    const { call, channel, userId } = await start('info');
    expect((await call('access-json')).status).toBe(200);
    const stream = await call('access-stream', { stream: true });
    await stream.text();
    const refused = await call('access-refused', { model: 'not-priced-anywhere' });
    expect(refused.status).toBe(400);

    const [json, streamed, denied, ...rest] = relayLines();
    expect(rest).toEqual([]);
    expect(json).toMatchObject({
      level: 30,
      reqId: 'access-json',
      userId,
      format: 'openai',
      model: MODEL,
      stream: false,
      channelId: channel,
      attempts: 1,
      status: 200,
      firstByteMs: -1,
    });
    expect(json?.durationMs).toEqual(expect.any(Number));
    expect(json?.quota).toBeGreaterThan(0);
    expect(streamed).toMatchObject({ reqId: 'access-stream', stream: true, status: 200, channelId: channel });
    expect(streamed?.firstByteMs).toBeGreaterThanOrEqual(0);
    expect(denied).toMatchObject({
      reqId: 'access-refused',
      model: 'not-priced-anywhere',
      status: 400,
      channelId: 0,
      attempts: 0,
      quota: 0,
    });
  });

  it('is silent at LOG_LEVEL=warn', async () => {
    const { call } = await start('warn');
    expect((await call('quiet-call')).status).toBe(200);
    await billingWritten(t as TestApp);
    expect(relayLines()).toEqual([]);
    expect(lines.join('\n')).not.toContain('quiet-call');
  });
});
