// Unauthenticated OAuth steps cannot be used to grow the database or to guess: each is rate-limited
// per client address, and pending states are capped and expire.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@sluice/shared';
import { testDialects } from '../../test-support/databases.js';
import { createTestApp, expectRefusal } from '../../test-support/test-app.js';
import type { Caller, TestApp } from '../../test-support/test-app.js';
import { MAX_PENDING_STATES } from './oauth-state.js';

describe('OAuth state limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { criticalRateLimit: { max: 3, windowMs: 60_000 } } });
  });
  afterAll(async () => t?.close());

  const stateFrom = (remoteAddress: string) =>
    t.app.inject({ method: 'GET', url: '/api/oauth/state', remoteAddress });

  it('limits state requests per client address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await stateFrom('192.0.2.1')).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect((await stateFrom('192.0.2.2')).json()).toMatchObject({ success: true });
  });

  it.each(['/api/oauth/github', '/api/oauth/linuxdo', '/api/oauth/telegram/login'])(
    'limits %s per client address',
    async (url) => {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        statuses.push((await t.app.inject({ method: 'GET', url, remoteAddress: '192.0.2.9' })).statusCode);
      }
      expect(statuses.at(-1)).toBe(429);
    },
  );

  // Binding checks a code (six digits by email, a short WeChat code) or a signature: a signed-in
  // attacker must not be able to guess on, nor dodge the limit by signing in as someone else.
  it.each([
    ['/api/oauth/email/bind', '198.51.100.1', '203.0.113.1'],
    ['/api/oauth/wechat/bind', '198.51.100.2', '203.0.113.2'],
    ['/api/oauth/telegram/bind', '198.51.100.3', '203.0.113.3'],
  ])('limits %s per client address, whoever is signed in', async (url, address, otherAddress) => {
    const [first, second] = [await t.createUser(), await t.createUser()];
    const bind = (as: Caller, remoteAddress: string) =>
      t.app.inject({ method: 'GET', url, remoteAddress, headers: as.headers });
    const allowed: number[] = [];
    for (let i = 0; i < 3; i++) allowed.push((await bind(first, address)).statusCode);
    expect(allowed).toEqual([200, 200, 200]);
    expect((await bind(second, address)).statusCode).toBe(429);
    expect((await bind(first, address)).statusCode).toBe(429);
    // Another address is counted on its own.
    expect((await bind(first, otherAddress)).statusCode).toBe(200);
  });
});

describe.each(testDialects())('pending OAuth states on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => t?.close());

  const fill = async (expiresAt: number) => {
    const now = t.app.ctx.clock.now();
    for (let start = 0; start < MAX_PENDING_STATES; start += 1000) {
      const rows = Array.from({ length: 1000 }, (_, i) => ({
        purpose: 'oauth_state',
        target: `pending${start + i}`,
        code: '',
        created_at: now,
        expires_at: expiresAt,
      }));
      await t.db.db.insertInto('verification_codes').values(rows).execute();
    }
  };

  it('refuses new states while the cap is reached, and counts only live ones', async () => {
    const now = t.app.ctx.clock.now();
    await fill(now + 600);
    const refused = await t.call({ method: 'GET', url: '/api/oauth/state' });
    expectRefusal(refused, MSG.oauthTooManyPending);
    await t.db.db
      .updateTable('verification_codes')
      .set({ expires_at: now - 1 })
      .where('purpose', '=', 'oauth_state')
      .execute();
    const issued = await t.call({ method: 'GET', url: '/api/oauth/state' });
    expect(issued.json()).toMatchObject({ success: true });
    // Issuing clears the expired rows, so they do not pile up either.
    const left = await t.db.db
      .selectFrom('verification_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(1);
  });
});
