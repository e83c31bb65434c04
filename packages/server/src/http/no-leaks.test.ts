// Every GET route of the console API, called by a super admin and by a regular user, must not give
// away password hashes, another user's credentials, secret options or upstream keys. The routes
// come from app.routeTable, so a route added later is checked without touching this file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPTION_KEYS, ROLE, isSecretOption } from '@sluice/shared';
import { insertId } from '../db/insert-id.js';
import { randomString } from '../platform/random.js';
import { testDialects } from '../test-support/databases.js';
import { fillPathParams, readRouteTable, unreachableEndpoints } from '../test-support/route-table.js';
import { createTestApp } from '../test-support/test-app.js';
import type { TestApp } from '../test-support/test-app.js';
import { SESSION_COOKIE } from './auth-guard.js';

const GET_ROUTES = (await readRouteTable()).filter((r) => r.method === 'GET');
const BCRYPT_HASH = /\$2[aby]\$\d\d\$/;

describe.each(testDialects())('no leaks on %s', (dialect) => {
  let t: TestApp;
  /** Strings that must never appear in an answer, with what each one is. */
  const forbidden = new Map<string, string>();
  /** Ids to put into path parameters, so /:id routes return real rows. */
  let ids: number[] = [];
  let otherUsername = '';
  /** The callers, by role. */
  const callers = new Map<number, number>();

  beforeAll(async () => {
    t = await createTestApp({ dialect, endpoints: unreachableEndpoints() });
    const db = t.db.db;
    const unique = randomString(10);

    const password = `victim-pw-${unique}`;
    const other = await t.createUser({ username: `victim${unique.toLowerCase()}`, password });
    otherUsername = other.username;
    const accessToken = `victimaccess${unique}${randomString(20)}`;
    await db.updateTable('users').set({ access_token: accessToken }).where('id', '=', other.id).execute();
    forbidden.set(password, "the other user's password");
    forbidden.set(accessToken, "the other user's access token");

    for (const key of OPTION_KEYS.filter(isSecretOption)) {
      const value = `leak-${key}-${randomString(12)}`;
      await t.app.ctx.options.set(key, value);
      forbidden.set(value, `secret option ${key}`);
    }

    const tokenKey = randomString(48);
    const tokenId = await insertId(
      db.insertInto('tokens').values({
        user_id: other.id,
        key: tokenKey,
        name: 'victim token',
        model_limits: '',
        allow_ips: '',
        deleted_at: null,
      }),
      t.db.dialect,
    );
    forbidden.set(tokenKey, "the other user's token key");

    const channelKey = `sk-upstream-${randomString(40)}`;
    const channelId = await insertId(
      db.insertInto('channels').values({
        name: 'leak check',
        key: channelKey,
        base_url: 'http://127.0.0.1:9',
        other: '',
        models: 'gpt-4o-mini',
        model_mapping: '',
        status_code_mapping: '',
        other_info: '',
        setting: '',
      }),
      t.db.dialect,
    );
    forbidden.set(channelKey, 'a channel key');

    ids = [...new Set([other.id, tokenId, channelId])];
    for (const role of [ROLE.root, ROLE.user]) callers.set(role, (await t.createUser({ role })).id);
  });
  afterAll(async () => t?.close());

  const urlsOf = (url: string): string[] => {
    const filled = ids.map((id) => fillPathParams(url, id));
    // A second call with a search keyword, so search routes return the other user too.
    return [...new Set(filled)].flatMap((u) => [u, `${u}?keyword=${otherUsername}&p=0`]);
  };

  /** A new session per call: some GET routes sign the caller out. */
  async function sessionOf(role: number): Promise<Record<string, string>> {
    const userId = callers.get(role) ?? 0;
    const sessionId = await t.app.ctx.sessions.create(userId);
    const cookie = `${SESSION_COOKIE}=${encodeURIComponent(t.app.signCookie(sessionId))}`;
    return { cookie, 'new-api-user': String(userId) };
  }

  function expectNoLeak(url: string, body: string) {
    expect(BCRYPT_HASH.test(body), `${url} returns a password hash`).toBe(false);
    for (const [secret, what] of forbidden)
      expect(body.includes(secret), `${url} returns ${what}`).toBe(false);
  }

  it('has GET routes to check', () => {
    expect(GET_ROUTES.map((r) => r.url)).toContain('/api/option/');
  });

  describe.each([
    ['a super admin', ROLE.root],
    ['a regular user', ROLE.user],
  ])('as %s', (_who, role) => {
    it.each(GET_ROUTES)('GET $url', async (route) => {
      for (const url of urlsOf(route.url)) {
        const res = await t.call({ method: 'GET', url, headers: await sessionOf(role) });
        expectNoLeak(url, res.body);
      }
    });
  });
});
