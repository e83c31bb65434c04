import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../test-support/test-app.js';
import type { TestApp } from '../test-support/test-app.js';
import { setOptions } from '../test-support/relay-kit.js';
import { GUARD_SCRIPT_HASH } from './first-paints.js';

const cspOf = (headers: Record<string, unknown>): Map<string, string[]> =>
  new Map(
    String(headers['content-security-policy'] ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name = '', ...values]) => [name, values]),
  );

describe('security headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it.each(['/api/status', '/api/nothing-here', '/some/console/page'])('are sent with %s', async (url) => {
    const res = await t.call({ method: 'GET', url });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('same-origin');
    const csp = cspOf(res.headers);
    // Own files, and the one inline script: a first paint's guard, by its hash.
    expect(csp.get('script-src')).toEqual(["'self'", GUARD_SCRIPT_HASH, "'self'", "'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    // Task results (Suno songs, Midjourney images) load from the upstream's own hosts.
    expect(csp.get('media-src')).toEqual(["'self'", 'https:', 'http:']);
    expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'blob:', 'https:', 'http:']);
    expect(csp.has('upgrade-insecure-requests')).toBe(false);
  });

  it("allow a sign-in widget's script only while its login method is on", async () => {
    await setOptions(t, { TurnstileCheckEnabled: true, TelegramOAuthEnabled: true });
    try {
      const csp = cspOf((await t.call({ method: 'GET', url: '/api/status' })).headers);
      expect(csp.get('script-src')).toEqual([
        "'self'",
        GUARD_SCRIPT_HASH,
        'https://challenges.cloudflare.com',
        'https://telegram.org',
      ]);
    } finally {
      await setOptions(t, { TurnstileCheckEnabled: false, TelegramOAuthEnabled: false });
    }
  });

  it('let forms post to the configured payment gateway only', async () => {
    await setOptions(t, { PayAddress: 'https://pay.example.com/submit.php' });
    try {
      const csp = cspOf((await t.call({ method: 'GET', url: '/api/status' })).headers);
      expect(csp.get('form-action')).toEqual(["'self'", 'https://pay.example.com']);
    } finally {
      await setOptions(t, { PayAddress: '' });
    }
  });

  it('are not added to relay answers', async () => {
    const res = await t.call({ method: 'GET', url: '/v1/models' });
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-security-policy']).toBeUndefined();
  });
});
