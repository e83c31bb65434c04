// Forwarded headers are believed only from TRUSTED_PROXIES: otherwise any client could pick the address
// that the sign-in rate limit, a token's allow-list and the logs see.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockUpstream } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { parseTrustedProxies } from '../config.js';
import { SESSION_COOKIE } from './auth-guard.js';
import { createTestApp } from '../test-support/test-app.js';
import type { TestApp } from '../test-support/test-app.js';
import { addChannel, addToken, setOptions } from '../test-support/relay-kit.js';

const MODEL = 'proxy-test-model';

async function loginStatuses(t: TestApp, remoteAddress: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      remoteAddress,
      headers: { 'x-forwarded-for': `203.0.113.${i + 1}`, 'x-real-ip': `198.51.100.${i + 1}` },
      payload: { username: 'root', password: 'wrong-password' },
    });
    statuses.push(res.statusCode);
  }
  return statuses;
}

describe('forwarded headers', () => {
  describe('with no trusted proxy (the default)', () => {
    let t: TestApp;
    let mock: MockUpstream;
    beforeAll(async () => {
      mock = await startMockUpstream();
      t = await createTestApp({ config: { criticalRateLimit: { max: 3, windowMs: 60_000 } } });
      await setOptions(t, { ModelRatio: { [MODEL]: 1 } });
      await addChannel(t, { base_url: mock.url, models: MODEL });
    });
    afterAll(async () => {
      await t?.close();
      await mock?.close();
    });

    it('rate-limits sign-in by the peer, whatever X-Forwarded-For says', async () => {
      expect(await loginStatuses(t, '192.0.2.10', 5)).toEqual([200, 200, 200, 429, 429]);
    });

    it("keeps a token's allow-list on the peer's address", async () => {
      const user = await t.createUser({ quota: 1_000_000 });
      const token = await addToken(t, user.id, { allow_ips: '203.0.113.7' });
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/chat/completions',
        remoteAddress: '192.0.2.20',
        headers: {
          authorization: `Bearer ${token.key}`,
          'content-type': 'application/json',
          'x-forwarded-for': '203.0.113.7',
        },
        payload: { model: MODEL, messages: [{ role: 'user', content: 'hi' }] },
      });
      expect(res.statusCode).toBe(403);
    });
  });

  describe('from a peer listed in TRUSTED_PROXIES', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({
        config: { criticalRateLimit: { max: 3, windowMs: 60_000 }, trustedProxies: ['10.0.0.0/8'] },
      });
    });
    afterAll(async () => t?.close());

    it('rate-limits sign-in by the client address the proxy forwards', async () => {
      // Each call names another client: none of them reaches the limit.
      expect(await loginStatuses(t, '10.1.2.3', 5)).toEqual([200, 200, 200, 200, 200]);
    });

    it('marks the session cookie Secure when the proxy says the client came over HTTPS', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/user/login',
        remoteAddress: '10.9.9.9',
        headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.200' },
        payload: { username: 'root', password: '123456' },
      });
      expect(res.json()).toMatchObject({ success: true });
      expect(res.cookies.find((c) => c.name === SESSION_COOKIE)?.secure).toBe(true);
    });

    it('still limits a client that is not behind the proxy by its own address', async () => {
      expect(await loginStatuses(t, '192.0.2.30', 4)).toEqual([200, 200, 200, 429]);
    });
  });
});

describe('TRUSTED_PROXIES parsing', () => {
  it('reads comma-separated IPs and CIDRs, empty meaning none', () => {
    expect(parseTrustedProxies(undefined)).toEqual([]);
    expect(parseTrustedProxies('')).toEqual([]);
    expect(parseTrustedProxies(' 127.0.0.1, 10.0.0.0/8 ,::1,fd00::/8')).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
    ]);
  });

  it.each(['localhost', '10.0.0.0/33', '1.2.3', '10.0.0.0/8/1', 'fd00::/129'])('refuses "%s"', (value) => {
    expect(() => parseTrustedProxies(value)).toThrow(/TRUSTED_PROXIES/);
  });
});
