// The per-user request limit of relay calls, as a client meets it: the call over the limit gets a 429
// in the OpenAI format, failed calls count towards the total but never use up a success, and the limit
// belongs to the user (all their tokens and the playground), not to a token or an address.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startMockUpstream, withMock } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { testDialects } from '../../test-support/databases.js';
import { createTestApp } from '../../test-support/test-app.js';
import type { Caller, TestApp } from '../../test-support/test-app.js';
import { addChannel, addToken, listen, setOptions } from '../../test-support/relay-kit.js';
import type { TestToken } from '../../test-support/relay-kit.js';

const MODEL = 'limited-model';

interface OpenAiError {
  error: { message: string; type: string; code: string | null };
}

/** A success is counted when its response closes, a moment after the client has read it. */
const successCounted = () => new Promise((resolve) => setTimeout(resolve, 25));

describe.each(testDialects())('per-user request limit on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let base: string;

  beforeAll(async () => {
    mock = await startMockUpstream();
    t = await createTestApp({ dialect });
    await setOptions(t, { ModelRatio: { [MODEL]: 1 }, GroupRatio: { default: 1, vip: 1 } });
    await addChannel(t, { base_url: mock.url, models: MODEL, group: 'default,vip' });
    base = await listen(t);
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await setOptions(t, {
      ModelRequestRateLimitEnabled: false,
      ModelRequestRateLimitCount: 0,
      ModelRequestRateLimitSuccessCount: 1000,
      ModelRequestRateLimitGroup: {},
    });
  });

  const limit = (values: Record<string, number | object>) =>
    setOptions(t, { ModelRequestRateLimitEnabled: true, ModelRequestRateLimitDurationMinutes: 1, ...values });

  /** A user with quota and one token (more with addToken). */
  const newUser = async (group = 'default'): Promise<{ user: Caller; token: TestToken }> => {
    const user = await t.createUser({ quota: 10_000_000, group });
    return { user, token: await addToken(t, user.id) };
  };

  const chat = async (token: TestToken, content = 'hello', extra: object = {}) => {
    const res = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content }], ...extra }),
    });
    const text = await res.text();
    if (res.status < 400) await successCounted();
    return { status: res.status, text, retryAfter: res.headers.get('retry-after') };
  };
  const errorOf = (text: string) => (JSON.parse(text) as OpenAiError).error;
  const upstreamCalls = () => mock.requests.filter((r) => r.path === '/v1/chat/completions').length;

  it('is off by default: a user calls past any count', async () => {
    await setOptions(t, { ModelRequestRateLimitCount: 1, ModelRequestRateLimitSuccessCount: 1 });
    const { token } = await newUser();
    for (let i = 0; i < 3; i++) expect((await chat(token)).status).toBe(200);
  });

  it('refuses the call after the total count with a 429 in the OpenAI format, per user', async () => {
    await limit({ ModelRequestRateLimitCount: 3, ModelRequestRateLimitSuccessCount: 100 });
    const { user, token } = await newUser();
    const second = await addToken(t, user.id);
    expect((await chat(token)).status).toBe(200);
    expect((await chat(second)).status).toBe(200);
    expect((await chat(token)).status).toBe(200);

    const calls = upstreamCalls();
    const refused = await chat(second);
    expect(refused.status).toBe(429);
    expect(errorOf(refused.text)).toEqual({
      message:
        'request limit reached: at most 3 requests per minute for each user, failed ones included; check that your requests are valid',
      type: 'rate_limit_error',
      code: 'rate_limit_exceeded',
    });
    // Retry once the minute's window has passed.
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(60);
    expect(upstreamCalls()).toBe(calls);

    // The console playground is the same user.
    const playground = await fetch(`${base}/pg/chat/completions`, {
      method: 'POST',
      headers: { ...user.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(playground.status).toBe(429);

    // Someone else is not limited by it.
    const other = await newUser();
    expect((await chat(other.token)).status).toBe(200);
  });

  it('counts failed calls towards the total', async () => {
    await limit({ ModelRequestRateLimitCount: 2 });
    const { token } = await newUser();
    expect((await chat(token, withMock('hi', { status: 500 }))).status).toBeGreaterThanOrEqual(500);
    expect((await chat(token, 'x', { model: 'nobody-priced-this' })).status).toBe(400);
    expect((await chat(token)).status).toBe(429);
  });

  it('counts only calls that succeeded towards the success count', async () => {
    await limit({ ModelRequestRateLimitSuccessCount: 2 });
    const { token } = await newUser();
    // Failures, upstream or our own refusal, leave the successes untouched.
    expect((await chat(token, withMock('hi', { status: 500 }))).status).toBeGreaterThanOrEqual(500);
    expect((await chat(token, 'x', { model: 'nobody-priced-this' })).status).toBe(400);
    expect((await chat(token, withMock('hi', { status: 429 }))).status).toBe(429);
    expect((await chat(token)).status).toBe(200);
    // A stream counts once it has been delivered.
    expect((await chat(token, 'streamed', { stream: true })).status).toBe(200);

    const calls = upstreamCalls();
    const refused = await chat(token);
    expect(refused.status).toBe(429);
    expect(errorOf(refused.text)).toMatchObject({
      message:
        'request limit reached: at most 2 successful requests per minute for each user; try again later',
      code: 'rate_limit_exceeded',
    });
    expect(upstreamCalls()).toBe(calls);
  });

  it("uses the caller's group's own pair instead of the site-wide counts", async () => {
    await limit({
      ModelRequestRateLimitCount: 0,
      ModelRequestRateLimitSuccessCount: 100,
      ModelRequestRateLimitGroup: { vip: [0, 1] },
    });
    const vip = await newUser('vip');
    expect((await chat(vip.token)).status).toBe(200);
    expect((await chat(vip.token)).status).toBe(429);
    const regular = await newUser();
    expect((await chat(regular.token)).status).toBe(200);
    expect((await chat(regular.token)).status).toBe(200);
  });

  it('opens a new window once the old one has passed', async () => {
    await limit({ ModelRequestRateLimitSuccessCount: 1, ModelRequestRateLimitDurationMinutes: 2 });
    const { token } = await newUser();
    expect((await chat(token)).status).toBe(200);
    expect((await chat(token)).status).toBe(429);
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now + 60_000);
    expect((await chat(token)).status).toBe(429);
    vi.spyOn(Date, 'now').mockReturnValue(now + 2 * 60_000 + 1_000);
    expect((await chat(token)).status).toBe(200);
  });
});
