import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, ROLE } from '@sluice/shared';
import { testDialects } from '../../test-support/databases.js';
import { createTestApp, expectRefusal } from '../../test-support/test-app.js';
import type { Caller, TestApp } from '../../test-support/test-app.js';

interface Answer {
  statusCode: number;
  body: string;
  json: () => { success: boolean; message: string; data: unknown };
}
const failure = (res: Answer) => ({ status: res.statusCode, message: res.json().message });
const dataOf = <T>(res: Answer): T => res.json().data as T;

interface Page<T> {
  items: T[];
  total: number;
  page: number;
  page_size: number;
}

interface WireUser {
  id: number;
  username: string;
  display_name: string;
  email: string;
  group: string;
  quota: number;
  role: number;
  status: number;
  DeletedAt: number | null;
}

describe.each(testDialects())('user management on %s', (dialect) => {
  let t: TestApp;
  let root: Caller;
  let admin: Caller;
  let user: Caller;
  beforeAll(async () => {
    // Root signs in as 123456 by the operator's choice: no first password change stands in the way.
    t = await createTestApp({ dialect, config: { initialRootPassword: '123456' } });
    root = await t.login('root', '123456');
    admin = await t.createUser({ role: ROLE.admin });
    user = await t.createUser();
  });
  afterAll(async () => t?.close());

  const row = (id: number) =>
    t.db.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const manage = (as: Caller, id: number, action: string) =>
    t.call({ method: 'POST', url: '/api/user/manage', as, payload: { id, action } });
  const update = (as: Caller, payload: object) => t.call({ method: 'PUT', url: '/api/user/', as, payload });
  const canUse = async (caller: Caller) =>
    (await t.call({ method: 'GET', url: '/api/user/self', as: caller })).statusCode === 200;

  describe('who may call', () => {
    const adminRoutes: Array<[string, string]> = [
      ['GET', '/api/user/'],
      ['GET', '/api/user/search?keyword=a'],
      ['GET', '/api/user/1'],
      ['POST', '/api/user/'],
      ['PUT', '/api/user/'],
      ['POST', '/api/user/manage'],
    ];
    const selfRoutes: Array<[string, string]> = [
      ['GET', '/api/user/self'],
      ['PUT', '/api/user/self'],
      ['DELETE', '/api/user/self'],
      ['GET', '/api/user/token'],
      ['GET', '/api/user/aff'],
      ['GET', '/api/user/models'],
      ['GET', '/api/user/self/groups'],
      ['POST', '/api/user/aff_transfer'],
    ];
    type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

    it('answers 401 without a session and with a New-Api-User header naming someone else', async () => {
      for (const [method, url] of [...adminRoutes, ...selfRoutes]) {
        const payload = method === 'GET' ? undefined : {};
        const anonymous = await t.call({ method: method as Method, url, payload });
        expect([url, anonymous.statusCode]).toEqual([url, 401]);
        const mismatched = await t.call({
          method: method as Method,
          url,
          payload,
          headers: { ...admin.headers, 'new-api-user': String(user.id) },
        });
        expect([url, mismatched.statusCode, mismatched.json().message]).toEqual([
          url,
          401,
          MSG.userHeaderMismatch,
        ]);
      }
    });

    it('refuses regular users on the management routes', async () => {
      for (const [method, url] of adminRoutes) {
        const payload = method === 'GET' ? undefined : {};
        const res = await t.call({ method: method as Method, url, payload, as: user });
        expectRefusal(res, MSG.forbidden);
      }
    });
  });

  describe('list and search', () => {
    it('lists every user newest first, deregistered ones included, page by page', async () => {
      const a = await t.createUser();
      const b = await t.createUser();
      await t.db.db.updateTable('users').set({ deleted_at: 1234 }).where('id', '=', a.id).execute();
      const total = Number(
        (
          await t.db.db
            .selectFrom('users')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
      const first = dataOf<Page<WireUser>>(
        await t.call({ method: 'GET', url: '/api/user/?p=1&page_size=2', as: admin }),
      );
      // With page_size, p counts from 1 as in new-api's paged lists.
      expect(first).toMatchObject({ page: 1, page_size: 2, total });
      expect(first.items.map((u) => u.id)).toEqual([b.id, a.id]);
      expect(first.items[1]?.DeletedAt).toBe(1234);
      expect(first.items[0]?.DeletedAt).toBeNull();
      const second = dataOf<Page<WireUser>>(
        await t.call({ method: 'GET', url: '/api/user/?p=2&page_size=2', as: admin }),
      );
      expect(second).toMatchObject({ page: 2, page_size: 2, total });
      expect(second.items).toHaveLength(2);
      expect(Math.max(...second.items.map((u) => u.id))).toBeLessThan(a.id);
      // Without page_size: the spec's plain array of at most 10 rows.
      const all = dataOf<WireUser[]>(await t.call({ method: 'GET', url: '/api/user/', as: admin }));
      expect(Array.isArray(all)).toBe(true);
      expect(all.length).toBe(Math.min(total, 10));
      expect(all.map((u) => u.id)).toEqual([...all.map((u) => u.id)].sort((x, y) => y - x));
    });

    it('reads a page number that does not parse as the first page', async () => {
      for (const p of ['abc', '-3', '0', '1.5', '99999999999999999999']) {
        const res = await t.call({ method: 'GET', url: `/api/user/?p=${p}&page_size=3`, as: admin });
        expect(res.statusCode).toBe(200);
        const page = dataOf<Page<WireUser>>(res);
        expect(page.page).toBe(1);
        expect(page.items.map((u) => u.id)).toEqual(
          dataOf<Page<WireUser>>(
            await t.call({ method: 'GET', url: '/api/user/?page_size=3', as: admin }),
          ).items.map((u) => u.id),
        );
      }
      const plain = await t.call({ method: 'GET', url: '/api/user/search?p=zz&keyword=', as: admin });
      expect(Array.isArray(dataOf(plain))).toBe(true);
    });

    it('never sends password hashes or access tokens', async () => {
      const token = dataOf<string>(await t.call({ method: 'GET', url: '/api/user/token', as: user }));
      for (const url of ['/api/user/', `/api/user/search?keyword=${user.username}`, `/api/user/${user.id}`]) {
        const res = await t.call({ method: 'GET', url, as: admin });
        expect(res.statusCode).toBe(200);
        expect(res.body).not.toContain('"password"');
        expect(res.body).not.toContain('access_token');
        expect(res.body).not.toContain('$2');
        expect(res.body).not.toContain(token);
      }
    });

    it('finds users by id, by part of username, display name or email, and by group', async () => {
      const target = await t.createUser({ group: 'vip' });
      await t.db.db
        .updateTable('users')
        .set({ display_name: 'Zebra Keeper', email: 'Someone.Unique@Example.org' })
        .where('id', '=', target.id)
        .execute();
      const search = async (query: string) =>
        dataOf<WireUser[]>(await t.call({ method: 'GET', url: `/api/user/search?${query}`, as: admin })).map(
          (u) => u.id,
        );
      expect(await search(`keyword=${target.id}`)).toContain(target.id);
      expect(await search(`keyword=${target.username.slice(2, 7).toUpperCase()}`)).toContain(target.id);
      expect(await search('keyword=zebra%20KEEP')).toEqual([target.id]);
      expect(await search('keyword=unique@example')).toEqual([target.id]);
      expect(await search('keyword=zebra&group=default')).toEqual([]);
      expect(await search('keyword=zebra&group=vip')).toEqual([target.id]);
      expect(await search('group=vip')).toContain(target.id);
      // LIKE wildcards in the keyword are taken literally.
      expect(await search('keyword=%25')).toEqual([]);
      expect(await search('keyword=_')).toEqual([]);
    });

    it('pages search results with the total of all matches when page_size is sent', async () => {
      const tag = `pg${Date.now() % 100000}`;
      const made: number[] = [];
      for (let i = 0; i < 3; i++) {
        const u = await t.createUser({ username: `${tag}${i}` });
        made.push(u.id);
      }
      const page = (p: number) =>
        t.call({ method: 'GET', url: `/api/user/search?keyword=${tag}&p=${p}&page_size=2`, as: admin });
      const first = dataOf<Page<WireUser>>(await page(1));
      expect(first).toMatchObject({ page: 1, page_size: 2, total: 3 });
      expect(first.items.map((u) => u.id)).toEqual([made[2], made[1]]);
      const second = dataOf<Page<WireUser>>(await page(2));
      expect(second).toMatchObject({ page: 2, page_size: 2, total: 3 });
      expect(second.items.map((u) => u.id)).toEqual([made[0]]);
      expect(dataOf<Page<WireUser>>(await page(5))).toMatchObject({ items: [], total: 3 });
    });
  });

  describe('GET /api/user/:id', () => {
    it('shows lower roles and oneself, refuses equal or higher roles, 404 for unknown ids', async () => {
      expect(
        dataOf<WireUser>(await t.call({ method: 'GET', url: `/api/user/${user.id}`, as: admin })).id,
      ).toBe(user.id);
      expect((await t.call({ method: 'GET', url: `/api/user/${admin.id}`, as: admin })).statusCode).toBe(200);
      const peer = await t.createUser({ role: ROLE.admin });
      for (const id of [peer.id, root.id]) {
        expect(failure(await t.call({ method: 'GET', url: `/api/user/${id}`, as: admin }))).toEqual({
          status: 200,
          message: MSG.cannotActOnEqualOrHigher,
        });
      }
      expect(failure(await t.call({ method: 'GET', url: '/api/user/999999', as: admin }))).toEqual({
        status: 200,
        message: MSG.userNotFound,
      });
      expect(failure(await t.call({ method: 'GET', url: '/api/user/abc', as: admin }))).toEqual({
        status: 200,
        message: MSG.userIdInvalid,
      });
    });
  });

  describe('POST /api/user/', () => {
    it('creates a user without the sign-up bonus', async () => {
      await t.app.ctx.options.set('QuotaForNewUser', '5000');
      try {
        const res = await t.call({
          method: 'POST',
          url: '/api/user/',
          as: admin,
          payload: { username: 'made-by-admin', password: 'password123', display_name: 'Made' },
        });
        expect(res.statusCode).toBe(200);
        const made = dataOf<WireUser>(res);
        expect(made).toMatchObject({ username: 'made-by-admin', display_name: 'Made', quota: 0, role: 1 });
        expect(res.body).not.toContain('"password"');
        await t.login('made-by-admin', 'password123');
      } finally {
        await t.app.ctx.options.set('QuotaForNewUser', '0');
      }
    });

    it('lets only a higher role create admins', async () => {
      const asAdmin = await t.call({
        method: 'POST',
        url: '/api/user/',
        as: admin,
        payload: { username: 'would-be-admin', password: 'password123', role: ROLE.admin },
      });
      expect(failure(asAdmin)).toEqual({ status: 200, message: MSG.cannotCreateEqualOrHigher });
      const asRoot = await t.call({
        method: 'POST',
        url: '/api/user/',
        as: root,
        payload: { username: 'real-admin', password: 'password123', role: ROLE.admin },
      });
      expect(dataOf<WireUser>(asRoot).role).toBe(ROLE.admin);
      const odd = await t.call({
        method: 'POST',
        url: '/api/user/',
        as: root,
        payload: { username: 'odd-role', password: 'password123', role: 5 },
      });
      expect(failure(odd)).toEqual({ status: 200, message: MSG.unknownRole });
    });

    it('checks username and password, and refuses a taken username', async () => {
      const cases: Array<[object, string]> = [
        [{ password: 'password123' }, MSG.enterUsernamePassword],
        [{ username: 'no-password' }, MSG.enterUsernamePassword],
        [{ username: 'shortpw', password: 'short' }, MSG.passwordTooShort],
        [{ username: 'x'.repeat(21), password: 'password123' }, MSG.usernameTooLong],
        [{ username: user.username, password: 'password123' }, MSG.usernameTaken],
      ];
      for (const [payload, message] of cases) {
        expectRefusal(await t.call({ method: 'POST', url: '/api/user/', as: admin, payload }), message);
      }
    });
  });

  describe('PUT /api/user/', () => {
    it('changes username, display name, group and quota, and logs the quota change', async () => {
      const target = await t.createUser({ quota: 100 });
      const res = await update(admin, {
        id: target.id,
        username: `${target.username}x`,
        display_name: 'Renamed',
        group: 'vip',
        quota: 2500,
        password: '',
      });
      expect(res.statusCode).toBe(200);
      expect(dataOf<WireUser>(res)).toMatchObject({
        username: `${target.username}x`,
        display_name: 'Renamed',
        group: 'vip',
        quota: 2500,
      });
      // An empty password keeps the old one and the sessions.
      await t.login(`${target.username}x`, target.password);
      expect(await canUse(target)).toBe(true);
      const logs = await t.db.db.selectFrom('logs').selectAll().where('user_id', '=', target.id).execute();
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatchObject({ type: 3, content: MSG.adminChangedQuota(100, 2500) });
      // The facts the console words the row from; who changed it sits where only admins see it.
      expect(JSON.parse(logs[0]?.other ?? '')).toEqual({
        event: 'admin_set_quota',
        quota_from: 100,
        quota_to: 2500,
        quota_delta: 2400,
        admin_info: { admin_id: admin.id },
      });
    });

    it('writes no log row when the quota stays the same', async () => {
      const target = await t.createUser({ quota: 100 });
      await update(admin, { id: target.id, quota: 100, display_name: 'Same quota' });
      const logs = await t.db.db.selectFrom('logs').select('id').where('user_id', '=', target.id).execute();
      expect(logs).toHaveLength(0);
    });

    it('a new password replaces the old one and signs the user out everywhere', async () => {
      const target = await t.createUser();
      const res = await update(admin, { id: target.id, password: 'brand-new-pass' });
      expect(res.statusCode).toBe(200);
      expect(await canUse(target)).toBe(false);
      await t.login(target.username, 'brand-new-pass');
      const old = await t.call({
        method: 'POST',
        url: '/api/user/login',
        payload: { username: target.username, password: target.password },
      });
      expectRefusal(old);
    });

    it('refuses bad quota, short passwords, taken usernames, unknown and deregistered users', async () => {
      const target = await t.createUser({ quota: 7 });
      const gone = await t.createUser();
      await t.db.db.updateTable('users').set({ deleted_at: 1 }).where('id', '=', gone.id).execute();
      const cases: Array<[object, string]> = [
        [{ id: target.id, quota: -1 }, MSG.quotaInvalid],
        [{ id: target.id, quota: 1.5 }, MSG.quotaInvalid],
        [{ id: target.id, quota: '12' }, MSG.quotaInvalid],
        [{ id: target.id, password: 'short' }, MSG.passwordTooShort],
        [{ id: target.id, username: user.username }, MSG.usernameTaken],
        [{ id: target.id, username: user.username, quota: 9 }, MSG.usernameTaken],
        [{ id: 999999, quota: 1 }, MSG.userNotFound],
        [{ id: gone.id, quota: 1 }, MSG.userDeregistered],
      ];
      for (const [payload, message] of cases) expectRefusal(await update(admin, payload), message);
      expect(Number((await row(target.id)).quota)).toBe(7);
      expect((await row(target.id)).username).toBe(target.username);
    });

    it('refuses to edit users of equal or higher role, oneself included', async () => {
      const peer = await t.createUser({ role: ROLE.admin });
      for (const id of [peer.id, admin.id, root.id]) {
        expect(failure(await update(admin, { id, quota: 1 }))).toEqual({
          status: 200,
          message: MSG.cannotActOnEqualOrHigher,
        });
      }
      expect(Number((await row(peer.id)).quota)).toBe(0);
    });
  });

  describe('POST /api/user/manage', () => {
    it('lets only a super admin promote, to admin and no further', async () => {
      const target = await t.createUser();
      expect(failure(await manage(admin, target.id, 'promote'))).toEqual({
        status: 200,
        message: MSG.onlyRootCanPromote,
      });
      const res = await manage(root, target.id, 'promote');
      expect(res.statusCode).toBe(200);
      expect(dataOf(res)).toEqual({ status: 1, role: ROLE.admin });
      expect(failure(await manage(root, target.id, 'promote'))).toEqual({
        status: 200,
        message: MSG.alreadyAdmin,
      });
      expect((await row(target.id)).role).toBe(ROLE.admin);
    });

    it('demotes admins, and refuses regular users and super admins', async () => {
      const target = await t.createUser({ role: ROLE.admin });
      expect(dataOf(await manage(root, target.id, 'demote'))).toEqual({ status: 1, role: ROLE.user });
      expect(failure(await manage(root, target.id, 'demote'))).toEqual({
        status: 200,
        message: MSG.alreadyUser,
      });
      const otherRoot = await t.createUser({ role: ROLE.root });
      expect(failure(await manage(root, otherRoot.id, 'demote'))).toEqual({
        status: 200,
        message: MSG.cannotDemoteRoot,
      });
      expect(failure(await manage(admin, root.id, 'demote'))).toEqual({
        status: 200,
        message: MSG.cannotDemoteRoot,
      });
      expect((await row(otherRoot.id)).role).toBe(ROLE.root);
    });

    it('refuses any action on equal or higher roles', async () => {
      const peer = await t.createUser({ role: ROLE.admin });
      for (const action of ['demote', 'disable', 'enable', 'delete']) {
        expect(failure(await manage(admin, peer.id, action))).toEqual({
          status: 200,
          message: MSG.cannotActOnEqualOrHigher,
        });
      }
      expect(failure(await manage(admin, admin.id, 'disable'))).toEqual({
        status: 200,
        message: MSG.cannotActOnEqualOrHigher,
      });
      expect(failure(await manage(admin, root.id, 'delete'))).toEqual({
        status: 200,
        message: MSG.cannotDeleteRoot,
      });
      expect(await row(peer.id)).toMatchObject({ status: 1, deleted_at: null });
    });

    it('disabling bans the user, ends their sessions and access token; enabling lets them back', async () => {
      const target = await t.createUser();
      const token = dataOf<string>(await t.call({ method: 'GET', url: '/api/user/token', as: target }));
      expect(dataOf(await manage(admin, target.id, 'disable'))).toEqual({ status: 2, role: ROLE.user });
      expect(await canUse(target)).toBe(false);
      const sessions = await t.db.db
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', target.id)
        .execute();
      expect(sessions).toHaveLength(0);
      const viaToken = await t.call({
        method: 'GET',
        url: '/api/user/self',
        headers: { authorization: token },
      });
      expect(viaToken.statusCode).toBe(401);
      const login = await t.call({
        method: 'POST',
        url: '/api/user/login',
        payload: { username: target.username, password: target.password },
      });
      expect(failure(login)).toEqual({ status: 200, message: MSG.userBanned });

      expect(dataOf(await manage(admin, target.id, 'enable'))).toEqual({ status: 1, role: ROLE.user });
      await t.login(target.username, target.password);
    });

    it('deleting deregisters the user for good', async () => {
      const target = await t.createUser();
      const token = dataOf<string>(await t.call({ method: 'GET', url: '/api/user/token', as: target }));
      const res = await manage(admin, target.id, 'delete');
      expect(res.statusCode).toBe(200);
      expect((await row(target.id)).deleted_at).not.toBeNull();
      expect(await canUse(target)).toBe(false);
      const viaToken = await t.call({
        method: 'GET',
        url: '/api/user/self',
        headers: { authorization: token },
      });
      expect(viaToken.statusCode).toBe(401);
      const login = await t.call({
        method: 'POST',
        url: '/api/user/login',
        payload: { username: target.username, password: target.password },
      });
      expect(failure(login)).toEqual({ status: 200, message: MSG.usernamePasswordWrong });
      expect(failure(await manage(admin, target.id, 'enable'))).toEqual({
        status: 200,
        message: MSG.userDeregistered,
      });
      const listed = dataOf<WireUser[]>(
        await t.call({ method: 'GET', url: `/api/user/search?keyword=${target.id}`, as: admin }),
      );
      expect(listed.find((u) => u.id === target.id)?.DeletedAt).not.toBeNull();
    });

    it('checks the action and the id', async () => {
      expect(failure(await manage(admin, user.id, 'explode'))).toEqual({
        status: 200,
        message: MSG.unknownUserAction,
      });
      expect(failure(await manage(admin, 999999, 'disable'))).toEqual({
        status: 200,
        message: MSG.userNotFound,
      });
      expect(failure(await manage(admin, 0, 'disable'))).toEqual({ status: 200, message: MSG.userIdInvalid });
    });
  });
});
