import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, ROLE } from '@sluice/shared';
import { syncAbilities } from '../../db/abilities.js';
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

describe.each(testDialects())('own account on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    // Root signs in as 123456 by the operator's choice: no first password change stands in the way.
    t = await createTestApp({ dialect, config: { initialRootPassword: '123456' } });
  });
  afterAll(async () => t?.close());

  const row = (id: number) =>
    t.db.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const self = (as: Caller) => t.call({ method: 'GET', url: '/api/user/self', as });
  const putSelf = (as: Caller, payload: object) =>
    t.call({ method: 'PUT', url: '/api/user/self', as, payload });

  describe('profile', () => {
    it('shows the own user without the password hash or access token', async () => {
      const me = await t.createUser({ quota: 42 });
      await t.call({ method: 'GET', url: '/api/user/token', as: me });
      const res = await self(me);
      expect(dataOf(res)).toMatchObject({
        id: me.id,
        username: me.username,
        quota: 42,
        role: 1,
        DeletedAt: null,
      });
      expect(res.body).not.toContain('"password"');
      expect(res.body).not.toContain('access_token');
    });

    it('changes username and display name but never group, quota or role', async () => {
      const me = await t.createUser({ quota: 10 });
      const res = await putSelf(me, {
        username: `${me.username}z`,
        display_name: 'New Name',
        group: 'vip',
        quota: 999999,
        role: ROLE.root,
        password: '',
      });
      expect(res.statusCode).toBe(200);
      expect(await row(me.id)).toMatchObject({
        username: `${me.username}z`,
        display_name: 'New Name',
        group: 'default',
        quota: 10,
        role: ROLE.user,
      });
      // An empty password keeps the old one.
      await t.login(`${me.username}z`, me.password);
    });

    it('checks the fields', async () => {
      const me = await t.createUser();
      const other = await t.createUser();
      const cases: Array<[object, string]> = [
        [{ password: 'short' }, MSG.passwordTooShort],
        [{ password: 'p'.repeat(21) }, MSG.passwordTooLong],
        [{ username: '' }, MSG.enterUsernamePassword],
        [{ username: 'u'.repeat(21) }, MSG.usernameTooLong],
        [{ display_name: 'd'.repeat(21) }, MSG.displayNameTooLong],
        [{ username: other.username }, MSG.usernameTaken],
      ];
      for (const [payload, message] of cases) expectRefusal(await putSelf(me, payload), message);
      expect((await row(me.id)).username).toBe(me.username);
    });

    it('a password change signs out the other sessions and keeps this one', async () => {
      const me = await t.createUser();
      const elsewhere = await t.login(me.username, me.password);
      const res = await putSelf(me, { password: 'another-pass1' });
      expect(res.statusCode).toBe(200);
      expect((await self(me)).statusCode).toBe(200);
      expect((await self(elsewhere)).statusCode).toBe(401);
      await t.login(me.username, 'another-pass1');
    });
  });

  describe('deleting the own account', () => {
    it('deregisters the account and ends its sessions', async () => {
      const me = await t.createUser();
      const second = await t.login(me.username, me.password);
      const res = await t.call({ method: 'DELETE', url: '/api/user/self', as: me });
      expect(res.statusCode).toBe(200);
      expect((await row(me.id)).deleted_at).not.toBeNull();
      expect((await self(me)).statusCode).toBe(401);
      expect((await self(second)).statusCode).toBe(401);
      const login = await t.call({
        method: 'POST',
        url: '/api/user/login',
        payload: { username: me.username, password: me.password },
      });
      expectRefusal(login);
    });

    it('is refused to the super admin', async () => {
      const root = await t.login('root', '123456');
      expect(failure(await t.call({ method: 'DELETE', url: '/api/user/self', as: root }))).toEqual({
        status: 200,
        message: MSG.rootCannotDeleteSelf,
      });
      expect((await self(root)).statusCode).toBe(200);
    });
  });

  describe('access token', () => {
    it('is a fresh 32-character token that works instead of the cookie, with or without Bearer', async () => {
      const me = await t.createUser();
      const token = dataOf<string>(await t.call({ method: 'GET', url: '/api/user/token', as: me }));
      expect(token).toMatch(/^[A-Za-z0-9]{32}$/);
      expect((await row(me.id)).access_token).toBe(token);
      for (const authorization of [token, `Bearer ${token}`]) {
        const res = await t.call({ method: 'GET', url: '/api/user/self', headers: { authorization } });
        expect(dataOf<{ id: number }>(res).id).toBe(me.id);
      }
      const withHeader = await t.call({
        method: 'GET',
        url: '/api/user/aff',
        headers: { authorization: token, 'new-api-user': String(me.id) },
      });
      expect(withHeader.statusCode).toBe(200);
      const mismatch = await t.call({
        method: 'GET',
        url: '/api/user/self',
        headers: { authorization: token, 'new-api-user': String(me.id + 1) },
      });
      expect(mismatch.statusCode).toBe(401);
    });

    it('replaces the previous token, and each user gets a different one', async () => {
      const me = await t.createUser();
      const other = await t.createUser();
      const first = dataOf<string>(await t.call({ method: 'GET', url: '/api/user/token', as: me }));
      const second = dataOf<string>(await t.call({ method: 'GET', url: '/api/user/token', as: me }));
      const others = dataOf<string>(await t.call({ method: 'GET', url: '/api/user/token', as: other }));
      expect(new Set([first, second, others]).size).toBe(3);
      const old = await t.call({ method: 'GET', url: '/api/user/self', headers: { authorization: first } });
      expect(old.statusCode).toBe(401);
      const current = await t.call({
        method: 'GET',
        url: '/api/user/self',
        headers: { authorization: second },
      });
      expect(current.statusCode).toBe(200);
      expect(current.body).not.toContain(others);
    });
  });

  describe('invites', () => {
    it('answers the own invite code', async () => {
      const me = await t.createUser();
      const code = dataOf<string>(await t.call({ method: 'GET', url: '/api/user/aff', as: me }));
      expect(code).toBe((await row(me.id)).aff_code);
      expect(code.length).toBeGreaterThan(0);
    });

    it('gives an invite code to an imported account that has none', async () => {
      const me = await t.createUser();
      await t.db.db.updateTable('users').set({ aff_code: '' }).where('id', '=', me.id).execute();
      const code = dataOf<string>(await t.call({ method: 'GET', url: '/api/user/aff', as: me }));
      expect(code).toMatch(/^[A-Za-z0-9]{8}$/);
      expect((await row(me.id)).aff_code).toBe(code);
    });

    const transfer = (as: Caller, quota: unknown) =>
      t.call({ method: 'POST', url: '/api/user/aff_transfer', as, payload: { quota } });

    it('moves invite earnings into quota', async () => {
      const me = await t.createUser({ quota: 5 });
      await t.db.db.updateTable('users').set({ aff_quota: 1_200_000 }).where('id', '=', me.id).execute();
      const res = await transfer(me, 500_000);
      expect(res.statusCode).toBe(200);
      expect(await row(me.id)).toMatchObject({ aff_quota: 700_000, quota: 500_005 });
    });

    it('refuses amounts under one unit, fractions and more than the earnings', async () => {
      const me = await t.createUser();
      await t.db.db.updateTable('users').set({ aff_quota: 600_000 }).where('id', '=', me.id).execute();
      for (const amount of [499_999, 500_000.5, '500000', undefined]) {
        expect(failure(await transfer(me, amount))).toEqual({
          status: 200,
          message: MSG.transferMinimum(500000),
        });
      }
      expect(failure(await transfer(me, 600_001))).toEqual({
        status: 200,
        message: MSG.affQuotaInsufficient,
      });
      expect(await row(me.id)).toMatchObject({ aff_quota: 600_000, quota: 0 });
    });

    it('never moves more than the earnings when 50 transfers race', async () => {
      const me = await t.createUser();
      const available = 7_300_000; // room for 14 transfers of one unit, not 15
      await t.db.db.updateTable('users').set({ aff_quota: available }).where('id', '=', me.id).execute();
      const results = await Promise.all(Array.from({ length: 50 }, () => transfer(me, 500_000)));
      const succeeded = results.filter((r) => r.json().success).length;
      expect(succeeded).toBe(14);
      for (const r of results.filter((x) => !x.json().success)) {
        expectRefusal(r, MSG.affQuotaInsufficient);
      }
      const after = await row(me.id);
      expect(Number(after.aff_quota)).toBe(available - succeeded * 500_000);
      expect(Number(after.aff_quota)).toBeGreaterThanOrEqual(0);
      expect(Number(after.quota)).toBe(succeeded * 500_000);
    });
  });

  describe('models and groups', () => {
    it('lists the distinct models of enabled channels in the own group', async () => {
      const channel = (id: number, group: string, models: string, status: number) =>
        syncAbilities(t.db.db, { id, group, models, status, priority: 0, weight: 0, tag: '' });
      await channel(101, 'default,vip', 'gpt-b,gpt-a', 1);
      await channel(102, 'default', 'gpt-a,claude-x', 1);
      await channel(103, 'default', 'disabled-model', 2);
      await channel(104, 'vip', 'vip-only', 1);
      const me = await t.createUser();
      const vip = await t.createUser({ group: 'vip' });
      expect(dataOf(await t.call({ method: 'GET', url: '/api/user/models', as: me }))).toEqual([
        'claude-x',
        'gpt-a',
        'gpt-b',
      ]);
      expect(dataOf(await t.call({ method: 'GET', url: '/api/user/models', as: vip }))).toEqual([
        'gpt-a',
        'gpt-b',
        'vip-only',
      ]);
    });

    it('lists the usable groups with ratio and description, plus the own group', async () => {
      await t.app.ctx.options.set('GroupRatio', JSON.stringify({ default: 1, vip: 0.5, svip: 2 }));
      const me = await t.createUser({ group: 'svip' });
      const res = await t.call({ method: 'GET', url: '/api/user/self/groups', as: me });
      expect(dataOf(res)).toEqual({
        default: { ratio: 1, desc: 'Default group' },
        vip: { ratio: 0.5, desc: 'VIP group' },
        svip: { ratio: 2, desc: MSG.ownGroupDesc },
      });
      const plain = await t.createUser({ group: 'nowhere' });
      const res2 = await t.call({ method: 'GET', url: '/api/user/self/groups', as: plain });
      expect(dataOf<Record<string, unknown>>(res2).nowhere).toEqual({ ratio: 1, desc: MSG.ownGroupDesc });
    });
  });
});
