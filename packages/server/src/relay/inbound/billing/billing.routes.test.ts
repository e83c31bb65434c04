// The legacy billing endpoints as a chat front-end polls them: over real HTTP with a key in
// Authorization, on both paths, their figures those of the token (or its user) after real calls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockUpstream } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { testDialects } from '../../../test-support/databases.js';
import { createTestApp } from '../../../test-support/test-app.js';
import type { TestApp } from '../../../test-support/test-app.js';
import { addChannel, addToken, billingWritten, listen, setOptions } from '../../../test-support/relay-kit.js';
import type { TestToken } from '../../../test-support/relay-kit.js';

const MODEL = 'billing-model';
const PER_UNIT = 500_000;
const PATHS = ['/dashboard/billing', '/v1/dashboard/billing'];

interface Subscription {
  object: string;
  has_payment_method: boolean;
  soft_limit_usd: number;
  hard_limit_usd: number;
  system_hard_limit_usd: number;
  access_until: number;
}

describe.each(testDialects())('legacy billing endpoints on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let base: string;

  beforeAll(async () => {
    mock = await startMockUpstream({ record: false });
    t = await createTestApp({ dialect });
    await setOptions(t, { ModelRatio: { [MODEL]: 3 } });
    await addChannel(t, { base_url: mock.url, models: MODEL });
    base = await listen(t);
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  const get = async (path: string, key: string) => {
    const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const chat = async (key: string, content: string) => {
    const res = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content }] }),
    });
    expect(res.status, await res.text()).toBe(200);
  };
  const rows = async (userId: number, tokenId: number) => {
    await billingWritten(t);
    const user = await t.db.db
      .selectFrom('users')
      .select(['quota', 'used_quota'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    const token = await t.db.db
      .selectFrom('tokens')
      .select(['remain_quota', 'used_quota'])
      .where('id', '=', tokenId)
      .executeTakeFirstOrThrow();
    return {
      userQuota: Number(user.quota),
      userUsed: Number(user.used_quota),
      tokenRemain: Number(token.remain_quota),
      tokenUsed: Number(token.used_quota),
    };
  };
  const subscription = (limit: number, accessUntil = 0): Subscription => ({
    object: 'billing_subscription',
    has_payment_method: true,
    soft_limit_usd: limit,
    hard_limit_usd: limit,
    system_hard_limit_usd: limit,
    access_until: accessUntil,
  });

  it("reports the token's remaining plus used quota and its used quota, in dollars, after calls", async () => {
    const user = await t.createUser({ quota: 50_000_000 });
    const expires = Math.floor(Date.now() / 1000) + 86_400;
    const token = await addToken(t, user.id, { remain_quota: 2_000_000, expired_time: expires });
    await chat(token.key, 'first call');
    await chat(token.key, 'second call, a little longer than the first');
    const now = await rows(user.id, token.id);
    expect(now.tokenUsed).toBeGreaterThan(0);
    expect(now.tokenRemain + now.tokenUsed).toBe(2_000_000);
    for (const path of PATHS) {
      const sub = await get(`${path}/subscription`, token.key);
      expect(sub.status).toBe(200);
      expect(sub.body).toEqual(subscription((now.tokenRemain + now.tokenUsed) / PER_UNIT, expires));
      const usage = await get(`${path}/usage`, token.key);
      expect(usage.status).toBe(200);
      expect(usage.body).toEqual({ object: 'list', total_usage: (now.tokenUsed * 100) / PER_UNIT });
    }
    // Another call moves the usage, and the limit stays what the token was given.
    await chat(token.key, 'third call');
    const later = await rows(user.id, token.id);
    expect(later.tokenUsed).toBeGreaterThan(now.tokenUsed);
    expect((await get('/v1/dashboard/billing/usage', token.key)).body.total_usage).toBe(
      (later.tokenUsed * 100) / PER_UNIT,
    );
    expect((await get('/dashboard/billing/subscription', token.key)).body.hard_limit_usd).toBe(4);
  });

  it('reports 100,000,000 as the limit of an unlimited token, and its own usage', async () => {
    const user = await t.createUser({ quota: 10_000_000 });
    const token = await addToken(t, user.id, { unlimited_quota: 1, remain_quota: 0 });
    await chat(token.key, 'an unlimited call');
    const now = await rows(user.id, token.id);
    expect(now.tokenUsed).toBeGreaterThan(0);
    for (const path of PATHS) {
      expect((await get(`${path}/subscription`, token.key)).body).toEqual(subscription(100_000_000));
      expect((await get(`${path}/usage`, token.key)).body).toEqual({
        object: 'list',
        total_usage: (now.tokenUsed * 100) / PER_UNIT,
      });
    }
  });

  it("speaks of the user's balance when DisplayTokenStatEnabled is off, and in quota without currency", async () => {
    const user = await t.createUser({ quota: 7_000_000 });
    const first = await addToken(t, user.id, { unlimited_quota: 1 });
    const second = await addToken(t, user.id, { remain_quota: 3_000_000, expired_time: 2_000_000_000 });
    await chat(first.key, 'spent on the first token');
    await chat(second.key, 'spent on the second token');
    const { userQuota, userUsed } = await rows(user.id, first.id);
    expect(userUsed).toBeGreaterThan(0);
    await setOptions(t, { DisplayTokenStatEnabled: false });
    try {
      for (const token of [first, second] as TestToken[]) {
        for (const path of PATHS) {
          expect((await get(`${path}/subscription`, token.key)).body).toEqual(
            subscription((userQuota + userUsed) / PER_UNIT),
          );
          expect((await get(`${path}/usage`, token.key)).body).toEqual({
            object: 'list',
            total_usage: (userUsed * 100) / PER_UNIT,
          });
        }
      }
      await setOptions(t, { DisplayInCurrencyEnabled: false });
      expect((await get('/v1/dashboard/billing/subscription', second.key)).body.soft_limit_usd).toBe(
        userQuota + userUsed,
      );
      expect((await get('/dashboard/billing/usage', second.key)).body.total_usage).toBe(userUsed * 100);
    } finally {
      await setOptions(t, { DisplayTokenStatEnabled: true, DisplayInCurrencyEnabled: true });
    }
  });

  it('refuses a bad, missing or disabled key with 401 in OpenAI’s error shape', async () => {
    const user = await t.createUser({ quota: 1_000_000 });
    const disabled = await addToken(t, user.id, { status: 2 });
    for (const path of PATHS) {
      for (const kind of ['subscription', 'usage']) {
        const bad = await get(`${path}/${kind}`, `sk-${'x'.repeat(48)}`);
        expect(bad.status).toBe(401);
        expect(bad.body).toEqual({
          error: { message: 'invalid token', type: 'invalid_request_error', code: 'invalid_api_key' },
        });
        const none = await fetch(`${base}${path}/${kind}`);
        expect(none.status).toBe(401);
        expect(((await none.json()) as { error: { code: string } }).error.code).toBe('missing_api_key');
        const off = await get(`${path}/${kind}`, disabled.key);
        expect(off.status).toBe(401);
        expect((off.body.error as { code: string }).code).toBe('token_disabled');
      }
    }
  });

  it('answers a browser’s preflight for the non-/v1 paths', async () => {
    const res = await fetch(`${base}/dashboard/billing/subscription`, {
      method: 'OPTIONS',
      headers: { origin: 'https://chat.example.com', 'access-control-request-headers': 'authorization' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toContain('authorization');
  });
});
