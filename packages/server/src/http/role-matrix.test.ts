// Every /api route, as every role, against the lowest role the checked-in table (route-roles.ts)
// states for it as a number: a route added, removed or given a lower level in code alone, or a level
// name that auth-guard.ts maps to a lower role, fails here until the table, which is reviewed against
// the spec, says so too.
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, ROLE, USER_STATUS } from '@sluice/shared';
import type { OptionKey } from '@sluice/shared';
import { randomString } from '../platform/random.js';
import { testDialects } from '../test-support/databases.js';
import {
  fillPathParams,
  hasBody,
  readRouteTable,
  unreachableEndpoints,
} from '../test-support/route-table.js';
import { createTestApp } from '../test-support/test-app.js';
import type { Caller, TestApp } from '../test-support/test-app.js';
import { AUTH_MIN_ROLE } from './auth-guard.js';
import { ROUTE_ROLES } from './route-roles.js';
import type { RouteRole } from './route-roles.js';

const routeKey = (r: { method: string; url: string }): string => `${r.method} ${r.url}`;

const ROUTES = [...ROUTE_ROLES];
/** What the app registers, to hold it to the table. */
const LIVE = await readRouteTable();
const GUARDED = ROUTES.filter((r) => r.role > ROLE.guest);
const PUBLIC = ROUTES.filter((r) => r.role === ROLE.guest);
/** 0 stands for a visitor without a session. */
const ROLES = [ROLE.guest, ROLE.user, ROLE.admin, ROLE.root];

/**
 * Refusals that come from a business rule, not from the caller's level. Each is excused only with
 * its own message: the guard's generic 403 is never excused.
 */
const BUSINESS_REFUSALS: Array<{ method: string; url: string; role: number; message: string; why: string }> =
  [
    {
      method: 'DELETE',
      url: '/api/user/self',
      role: ROLE.root,
      message: MSG.rootCannotDeleteSelf,
      why: 'a super admin cannot delete their own account',
    },
  ];

/**
 * Sign-in methods switched on (with credentials that lead nowhere), so an empty call reaches the
 * route's own input checks instead of stopping at "the administrator has not enabled …".
 */
const FEATURES_ON: Array<[OptionKey, string]> = [
  ['GitHubClientId', 'matrix-client'],
  ['GitHubClientSecret', 'matrix-secret'],
  ['GitHubOAuthEnabled', 'true'],
  ['LinuxDOClientId', 'matrix-client'],
  ['LinuxDOClientSecret', 'matrix-secret'],
  ['LinuxDOOAuthEnabled', 'true'],
  ['WeChatServerAddress', 'http://127.0.0.1:9'],
  ['WeChatServerToken', 'matrix-token'],
  ['WeChatAuthEnabled', 'true'],
  ['TelegramBotToken', '1:matrix'],
  ['TelegramBotName', 'matrix_bot'],
  ['TelegramOAuthEnabled', 'true'],
];

const excused = (route: RouteRole, role: number, message: unknown) =>
  BUSINESS_REFUSALS.some(
    (r) => r.method === route.method && r.url === route.url && r.role === role && r.message === message,
  );

/** The envelope, or an empty one when a route answers with something else (a redirect, a page). */
function envelopeOf(text: string): { success?: boolean; message?: string } {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? value : {};
  } catch {
    return {};
  }
}

describe.each(testDialects())('role matrix on %s', (dialect) => {
  let t: TestApp;
  /** Accounts for the cases the guard refuses before any handler runs, so they can be shared. */
  let bystander: Caller;
  let headerless: Record<string, string>;
  let impostor: Caller;
  let tokenHolder: { token: string };
  let banned: Caller;

  beforeAll(async () => {
    t = await createTestApp({ dialect, endpoints: unreachableEndpoints() });
    for (const [key, value] of FEATURES_ON) await t.app.ctx.options.set(key, value);
    bystander = await t.createUser();
    const { 'new-api-user': _dropped, ...rest } = (await t.createUser({ role: ROLE.root })).headers;
    headerless = rest;
    impostor = await t.createUser({ role: ROLE.root });
    const holder = await t.createUser({ role: ROLE.root });
    tokenHolder = { token: randomString(32) };
    await t.db.db
      .updateTable('users')
      .set({ access_token: tokenHolder.token })
      .where('id', '=', holder.id)
      .execute();
    banned = await t.createUser({ role: ROLE.root });
    await t.db.db
      .updateTable('users')
      .set({ status: USER_STATUS.banned })
      .where('id', '=', banned.id)
      .execute();
  });
  afterAll(async () => t?.close());

  /**
   * One empty call. Path parameters name `targetId`; other resources with that id simply do not
   * exist (404 is fine).
   */
  function send(
    route: RouteRole,
    targetId: number,
    auth: { as?: Caller; headers?: Record<string, string> } = {},
  ) {
    return t.call({
      method: route.method as InjectOptions['method'],
      url: fillPathParams(route.url, targetId),
      ...(hasBody(route.method) ? { payload: {} } : {}),
      ...auth,
    });
  }

  it('has every route of the app in the table and every table row in the app', () => {
    const tableKeys = ROUTES.map(routeKey);
    const liveKeys = LIVE.map(routeKey);
    expect(
      liveKeys.filter((key) => !tableKeys.includes(key)),
      'routes missing from route-roles.ts',
    ).toEqual([]);
    expect(
      tableKeys.filter((key) => !liveKeys.includes(key)),
      'table rows the app does not serve',
    ).toEqual([]);
    expect(new Set(tableKeys).size, 'a route listed twice').toBe(tableKeys.length);
  });

  it('declares in code a level that means the role the table gives each route', () => {
    const declared = new Map(LIVE.map((r) => [routeKey(r), r.auth]));
    const differing = ROUTES.flatMap((r) => {
      const level = declared.get(routeKey(r));
      const role = level === undefined ? undefined : AUTH_MIN_ROLE[level];
      return role === r.role
        ? []
        : [`${routeKey(r)}: table ${r.role}, code ${level ?? 'none'} (${role ?? 'no role'})`];
    });
    expect(differing).toEqual([]);
  });

  describe.each(GUARDED)('$method $url (role $role)', (route) => {
    const needed = route.role;
    const hasParams = fillPathParams(route.url, 0) !== route.url;

    it.each(ROLES)('as role %i', async (role) => {
      // A fresh caller (some routes sign out or delete the caller) and, for /:id routes, a fresh
      // regular user to act on, whom any admin may manage.
      const as = role === ROLE.guest ? undefined : await t.createUser({ role });
      const targetId = hasParams ? (await t.createUser()).id : bystander.id;
      const res = await send(route, targetId, as ? { as } : {});
      const body = envelopeOf(res.body);
      if (role === ROLE.guest) {
        expect(res.statusCode).toBe(401);
        expect(body.success).toBe(false);
      } else if (role < needed) {
        // A refusal in new-api's way: HTTP 200, success false, the guard's sentence.
        expect(res.statusCode).toBe(200);
        expect(body).toMatchObject({ success: false, message: MSG.forbidden });
      } else {
        if (excused(route, role, body.message)) return;
        expect(res.statusCode, res.body).not.toBe(401);
        expect(body.message, res.body).not.toBe(MSG.forbidden);
        // An empty call is bad input, never a crash.
        expect(res.statusCode, res.body).not.toBe(500);
      }
    });

    it('refuses a session without the New-Api-User header', async () => {
      expect((await send(route, bystander.id, { headers: headerless })).statusCode).toBe(401);
    });

    it("refuses a session whose New-Api-User header names someone else's id", async () => {
      const headers = { ...impostor.headers, 'new-api-user': String(bystander.id) };
      expect((await send(route, bystander.id, { headers })).statusCode).toBe(401);
    });

    it('refuses an access token sent with a mismatched New-Api-User header', async () => {
      const headers = { authorization: tokenHolder.token, 'new-api-user': String(bystander.id) };
      expect((await send(route, bystander.id, { headers })).statusCode).toBe(401);
    });

    it('refuses a banned user', async () => {
      expect((await send(route, bystander.id, { as: banned })).statusCode).toBe(401);
    });
  });

  describe.each(PUBLIC)('$method $url (public)', (route) => {
    it('answers a visitor without 401 or 403', async () => {
      const res = await send(route, bystander.id);
      expect(res.statusCode, res.body).not.toBe(401);
      expect(envelopeOf(res.body).message, res.body).not.toBe(MSG.forbidden);
      expect(res.statusCode, res.body).not.toBe(500);
    });
  });
});
