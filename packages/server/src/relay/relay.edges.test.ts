import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockUpstream, withMock } from '@sluice/mock-upstream';
import type { MockDirective, MockUpstream } from '@sluice/mock-upstream';
import { CHANNEL_STATUS, LOG_TYPE, ROLE } from '@sluice/shared';
import type { LogItem } from '@sluice/shared';
import type { MailMessage, Mailer } from '../platform/mailer.js';
import { testDialects } from '../test-support/databases.js';
import { createTestApp } from '../test-support/test-app.js';
import type { Caller, TestApp } from '../test-support/test-app.js';
import { addChannel, addToken, billingWritten, listen, setOptions } from '../test-support/relay-kit.js';
import type { TestToken } from '../test-support/relay-kit.js';

const MODEL = 'edge-model';

/** Keeps the mail the server sends, and says SMTP is set up. */
function recordingMailer(): Mailer & { sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return { sent, configured: () => true, send: async (message) => void sent.push(message) };
}

describe.each(testDialects())('relay edges on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let base: string;
  let owner: Caller;
  let token: TestToken;
  const mailer = recordingMailer();
  let n = 0;

  beforeAll(async () => {
    mock = await startMockUpstream();
    process.env.RELAY_TIMEOUT = '1';
    try {
      t = await createTestApp({ dialect, mailer });
    } finally {
      delete process.env.RELAY_TIMEOUT;
    }
    owner = await t.createUser({ quota: 500_000_000 });
    token = await addToken(t, owner.id, { remain_quota: 500_000_000 });
    base = await listen(t);
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });
  beforeEach(async () => {
    mock.reset();
    // Each test gets its own model, so channels of one test never serve another's calls.
    n++;
    await setOptions(t, {
      ModelRatio: { [model()]: 1, 'no-such-model': 1 },
      RetryTimes: 2,
      AutomaticDisableChannelEnabled: true,
    });
  });
  const model = () => `${MODEL}-${n}`;

  const chat = (directive: MockDirective = {}, extra: Record<string, unknown> = {}, forModel = model()) =>
    fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: forModel,
        ...extra,
        messages: [{ role: 'user', content: withMock('hello', directive) }],
      }),
    });

  const channelRow = (id: number) =>
    t.db.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('delivers a 5 MB chunked non-stream answer whole', async () => {
    await addChannel(t, { base_url: mock.url, models: model() });
    const res = await chat({ chunked: true, reply_tokens: 900_000 }, { max_tokens: 1_000_000 });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.length).toBeGreaterThan(5_000_000);
    const body = JSON.parse(text) as { choices: Array<{ message: { content: string } }> };
    expect(body.choices[0]?.message.content.split(' ')).toHaveLength(900_000);
    await billingWritten(t);
  }, 30_000);

  it('answers 504 when a non-stream body stalls mid-way for longer than RELAY_TIMEOUT', async () => {
    await setOptions(t, { RetryTimes: 0 });
    await addChannel(t, { base_url: mock.url, models: model(), auto_ban: 0 });
    const res = await chat({ stall_after: 1_000_000, reply_tokens: 900_000 }, { max_tokens: 1_000_000 });
    expect(res.status).toBe(504);
    const body = (await res.json()) as { error: { code: string; type: string } };
    expect(body.error.code).toBe('upstream_timeout');
  }, 15_000);

  it('answers 404 model_not_found for a model no channel serves, 503 when its channels are disabled', async () => {
    const unknown = await chat({}, {}, 'no-such-model');
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('model_not_found');

    await addChannel(t, { base_url: mock.url, models: model(), status: CHANNEL_STATUS.manuallyDisabled });
    const disabled = await chat();
    expect(disabled.status).toBe(503);
    expect(((await disabled.json()) as { error: { type: string } }).error.type).toBeTruthy();
  });

  it.each([429, 503])('keeps the upstream Retry-After on a final %i', async (status) => {
    await setOptions(t, { RetryTimes: 0 });
    await addChannel(t, { base_url: mock.url, models: model() });
    const res = await chat({ status, retry_after: 7 });
    expect(res.status).toBe(status);
    expect(res.headers.get('retry-after')).toBe('7');
  });

  it('answers JSON with its type, its request id and its length in bytes', async () => {
    await addChannel(t, { base_url: mock.url, models: model() });
    const reply = 'Grüße — 世界 🌊';
    const res = await chat({ reply });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    const body = JSON.parse(bytes.toString('utf8')) as { choices: Array<{ message: { content: string } }> };
    expect(body.choices[0]?.message.content).toBe(reply);

    // The same answer converted for an Anthropic client: written by Sluice, not forwarded.
    const converted = await fetch(`${base}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': token.key, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: model(),
        max_tokens: 100,
        messages: [{ role: 'user', content: withMock('hi', { reply }) }],
      }),
    });
    expect(converted.status).toBe(200);
    const convertedBytes = Buffer.from(await converted.arrayBuffer());
    expect(converted.headers.get('content-length')).toBe(String(convertedBytes.length));
    const message = JSON.parse(convertedBytes.toString('utf8')) as { content: Array<{ text: string }> };
    expect(message.content[0]?.text).toBe(reply);
  });

  it('answers CORS preflight on /v1 and lets browsers read relay answers', async () => {
    const pre = await fetch(`${base}/v1/chat/completions`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
    const allowed = (pre.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const header of [
      'authorization',
      'content-type',
      'x-api-key',
      'anthropic-version',
      'x-goog-api-key',
    ]) {
      expect(allowed).toContain(header);
    }
    await addChannel(t, { base_url: mock.url, models: model() });
    const ok = await chat();
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('*');
    const refused = await fetch(`${base}/v1/chat/completions`, { method: 'POST', body: '{}' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers 501 in the OpenAI shape for relay paths it does not support', async () => {
    for (const [method, path] of [
      ['POST', '/v1/unknown'],
      ['GET', '/v1/files'],
    ] as const) {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${token.key}` },
      });
      expect(res.status).toBe(501);
      const body = (await res.json()) as { error: { message: string; type: string; code: string } };
      expect(body.error.code).toBe('unsupported_endpoint');
      expect(body.error.message).toContain(path);
    }
  });

  it('fails over from a channel whose key the upstream rejects, and answers 503 when none is left', async () => {
    const secret = `sk-channel-secret-${n}`;
    const root = await t.db.db
      .selectFrom('users')
      .select('id')
      .where('role', '=', 100)
      .executeTakeFirstOrThrow();
    await t.db.db.updateTable('users').set({ email: 'root@example.com' }).where('id', '=', root.id).execute();
    const bad = await addChannel(t, { base_url: mock.url, models: model(), key: secret });
    const res = await chat({
      status: 401,
      error: {
        message: `Incorrect API key provided: ${secret}.`,
        type: 'invalid_request_error',
        code: 'invalid_api_key',
      },
    });
    expect(res.status).toBe(503);
    const text = await res.text();
    expect(text).not.toContain(secret);
    expect(text).not.toContain('127.0.0.1');
    expect((JSON.parse(text) as { error: { code: string } }).error.code).toBe('upstream_unavailable');
    const row = await channelRow(bad);
    expect(row.status).toBe(CHANNEL_STATUS.autoDisabled);
    const reason = (JSON.parse(row.other_info) as { status_reason: string }).status_reason;
    expect(reason).toContain('401');
    expect(reason).not.toContain(secret);
    await expect.poll(() => mailer.sent.length).toBeGreaterThan(0);
    const mail = mailer.sent.at(-1);
    expect(mail?.to).toBe('root@example.com');
    expect(mail?.html).toContain(String(bad));
    expect(mail?.html).not.toContain(secret);
  });

  it('keeps the channel key and upstream addresses out of the error log and the channel list', async () => {
    // Not shaped like an sk-… key: only the channel's own key tells the redaction to hide it.
    const secret = `QpZ7channelSecret${n}`;
    const internal = [
      '10.20.30.40',
      'http://10.20.30.40:8443/v1/chat/completions',
      'gw.internal.example.com',
    ];
    const mockAddress = new URL(mock.url).host;
    const channelId = await addChannel(t, { base_url: mock.url, models: model(), key: secret });
    const res = await chat({
      status: 401,
      error: {
        message: `Incorrect API key provided: ${secret}. Forwarded by ${internal[2]} (${internal[1]}) from ${mockAddress}.`,
        type: 'invalid_request_error',
        code: 'invalid_api_key',
      },
    });
    expect(res.status).toBe(503);
    await billingWritten(t);

    /** What a reader is shown that the upstream wrote: the message and the row's details. */
    const expectNothingRevealed = (shown: string) => {
      for (const hidden of [secret, mockAddress, ...internal]) expect(shown).not.toContain(hidden);
    };
    const admin = await t.createUser({ role: ROLE.admin });
    const query = { type: String(LOG_TYPE.error), model_name: model(), p: '1', page_size: '10' };
    for (const [as, url] of [
      [admin, '/api/log/'],
      [owner, '/api/log/self/'],
    ] as const) {
      const read = await t.call({ method: 'GET', url, as, query });
      const page = read.json<{ success: boolean; data: { items: LogItem[] } }>();
      expect(page.success, read.body).toBe(true);
      expect(page.data.items, `${url}: ${read.body}`).toHaveLength(1);
      const row = page.data.items[0]!;
      expect(row.content).toContain('unavailable');
      expect(row.content).toContain('[redacted]');
      expectNothingRevealed(row.content);
      expectNothingRevealed(row.other);
      expect(read.body).not.toContain(secret);
    }

    const list = await t.call({
      method: 'GET',
      url: '/api/channel/',
      as: admin,
      query: { p: '0', page_size: '100', id_sort: 'true' },
    });
    expect(list.body).not.toContain(secret);
    const channel = list
      .json<{ data: Array<{ id: number; status: number; other_info: string }> }>()
      .data.find((c) => c.id === channelId);
    expect(channel?.status).toBe(CHANNEL_STATUS.autoDisabled);
    const reason = (JSON.parse(channel?.other_info ?? '{}') as { status_reason?: string }).status_reason;
    expect(reason).toContain('401');
    expectNothingRevealed(reason ?? '');
  });

  it('hides the upstream address when the connection fails', async () => {
    await setOptions(t, { RetryTimes: 0 });
    // A port nothing listens on: the connection is refused.
    const closed = await startMockUpstream();
    const url = closed.url;
    await closed.close();
    await addChannel(t, { base_url: url, models: model(), auto_ban: 0 });
    const res = await chat();
    expect(res.status).toBe(502);
    const text = await res.text();
    expect(text).not.toContain('127.0.0.1');
    expect(text).not.toContain(new URL(url).port);
    expect((JSON.parse(text) as { error: { code: string } }).error.code).toBe('upstream_connection');
  });
});
