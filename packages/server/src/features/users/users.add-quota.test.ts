import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockUpstream } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { LOG_TYPE, MSG, ROLE, USER_STATUS } from '@sluice/shared';
import { testDialects } from '../../test-support/databases.js';
import { addChannel, addToken, billingWritten, setOptions } from '../../test-support/relay-kit.js';
import type { TestToken } from '../../test-support/relay-kit.js';
import { createTestApp, expectRefusal } from '../../test-support/test-app.js';
import type { Caller, TestApp } from '../../test-support/test-app.js';

const MODEL = 'add-quota-model';

describe.each(testDialects())('admin quota adjustments on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let root: Caller;
  let admin: Caller;

  beforeAll(async () => {
    mock = await startMockUpstream({ record: false });
    // Root signs in as 123456 by the operator's choice: no first password change stands in the way.
    t = await createTestApp({ dialect, config: { initialRootPassword: '123456' } });
    await setOptions(t, { ModelRatio: { [MODEL]: 1 }, GroupRatio: { default: 1 } });
    await addChannel(t, { base_url: mock.url, models: MODEL });
    root = await t.login('root', '123456');
    admin = await t.createUser({ role: ROLE.admin });
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  const row = (id: number) =>
    t.db.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const quotaOf = async (id: number) => Number((await row(id)).quota);
  const addQuota = (as: Caller, id: number, value: unknown) =>
    t.call({ method: 'POST', url: '/api/user/manage', as, payload: { id, action: 'add_quota', value } });
  const manageLogs = (id: number) =>
    t.db.db
      .selectFrom('logs')
      .selectAll()
      .where('user_id', '=', id)
      .where('type', '=', LOG_TYPE.manage)
      .orderBy('id')
      .execute();

  const chat = (token: TestToken) =>
    t.call({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${token.key}` },
      payload: { model: MODEL, messages: [{ role: 'user', content: 'hello there' }] },
    });

  it('adds and subtracts a signed amount and logs each change with its amount', async () => {
    const target = await t.createUser({ quota: 1000 });
    const added = await addQuota(admin, target.id, 250);
    expect(added.json<{ success: boolean; data: unknown }>()).toMatchObject({
      success: true,
      data: { quota: 1250, role: ROLE.user, status: USER_STATUS.enabled },
    });
    expect(await addQuota(admin, target.id, -1250)).toMatchObject({ statusCode: 200 });
    expect(await quotaOf(target.id)).toBe(0);

    const logs = await manageLogs(target.id);
    expect(logs.map((log) => log.content)).toEqual([MSG.adminAddedQuota(250), MSG.adminAddedQuota(-1250)]);
    expect(logs.map((log) => JSON.parse(log.other))).toEqual([
      { event: 'admin_add_quota', quota_delta: 250, admin_info: { admin_id: admin.id } },
      { event: 'admin_add_quota', quota_delta: -1250, admin_info: { admin_id: admin.id } },
    ]);
  });

  it('refuses amounts that are not whole numbers and results below 0, changing nothing', async () => {
    const target = await t.createUser({ quota: 100 });
    const bad: unknown[] = [1.5, '12', null, Number.MAX_SAFE_INTEGER + 2, -1e300, undefined];
    for (const value of bad) expectRefusal(await addQuota(admin, target.id, value), MSG.quotaDeltaInvalid);
    expectRefusal(await addQuota(admin, target.id, -101), MSG.quotaResultOutOfRange);
    expect(await quotaOf(target.id)).toBe(100);
    expect(await manageLogs(target.id)).toHaveLength(0);
  });

  it('stores quota as a 64-bit integer up to the safe range and refuses to pass it', async () => {
    const rich = await t.createUser({ quota: 0 });
    const top = Number.MAX_SAFE_INTEGER;
    expect((await addQuota(admin, rich.id, top)).json<{ data: { quota: number } }>().data.quota).toBe(top);
    expect(await quotaOf(rich.id)).toBe(top);
    expectRefusal(await addQuota(admin, rich.id, 1), MSG.quotaResultOutOfRange);
    expect(await quotaOf(rich.id)).toBe(top);
  });

  it('keeps the rank rules: admins cannot add to themselves or peers, root can add to itself', async () => {
    const peer = await t.createUser({ role: ROLE.admin, quota: 5 });
    for (const id of [peer.id, admin.id, root.id]) {
      expectRefusal(await addQuota(admin, id, 10), MSG.cannotActOnEqualOrHigher);
    }
    const plain = await t.createUser();
    expectRefusal(await addQuota(plain, plain.id, 10));
    expect(await quotaOf(plain.id)).toBe(0);
    const before = await quotaOf(root.id);
    expect((await addQuota(root, root.id, 10)).json<{ success: boolean }>().success).toBe(true);
    expect(await quotaOf(root.id)).toBe(before + 10);
    expect(await quotaOf(peer.id)).toBe(5);
  });

  it('lets the relay spend added quota at once, and never erases spend made meanwhile', async () => {
    const START = 200_000;
    const spender = await t.createUser({ quota: START });
    const token = await addToken(t, spender.id, { unlimited_quota: 1 });
    expect((await chat(token)).statusCode).toBe(200);
    await billingWritten(t);

    // Relay calls and adjustments interleave; every one must count exactly once.
    const amounts = [400_000, -200, 300, 500_000, -100, 700];
    const calls: Promise<{ statusCode: number }>[] = [];
    const adjustments: Promise<{ statusCode: number; body: string }>[] = [];
    for (const amount of amounts) {
      calls.push(chat(token), chat(token));
      adjustments.push(addQuota(admin, spender.id, amount));
    }
    const answers = await Promise.all(calls);
    for (const res of await Promise.all(adjustments)) {
      expect(JSON.parse(res.body), res.body).toMatchObject({ success: true });
    }
    expect(answers.map((res) => res.statusCode)).toEqual(calls.map(() => 200));
    await billingWritten(t);

    const logs = await t.db.db
      .selectFrom('logs')
      .select(['type', 'quota', 'other'])
      .where('user_id', '=', spender.id)
      .execute();
    const spent = logs
      .filter((log) => log.type === LOG_TYPE.consume)
      .reduce((sum, log) => sum + Number(log.quota), 0);
    const added = logs
      .filter((log) => log.type === LOG_TYPE.manage)
      .reduce((sum, log) => sum + (JSON.parse(log.other) as { quota_delta: number }).quota_delta, 0);
    expect(spent).toBeGreaterThan(0);
    expect(added).toBe(amounts.reduce((sum, amount) => sum + amount, 0));
    expect(await quotaOf(spender.id)).toBe(START - spent + added);
    expect(Number((await row(spender.id)).used_quota)).toBe(spent);
  });

  it('a user with no quota left can call again as soon as quota is added', async () => {
    const broke = await t.createUser({ quota: 0 });
    const token = await addToken(t, broke.id, { unlimited_quota: 1 });
    expect((await chat(token)).statusCode).toBe(403);
    await addQuota(admin, broke.id, 100_000);
    expect((await chat(token)).statusCode).toBe(200);
  });

  describe('root editing its own account through PUT /api/user/', () => {
    it('changes quota, display name, group and password but never role or status', async () => {
      const self = await t.createUser({ role: ROLE.root, quota: 10 });
      const elsewhere = await t.login(self.username, self.password);
      const res = await t.call({
        method: 'PUT',
        url: '/api/user/',
        as: self,
        payload: {
          id: self.id,
          quota: 777,
          display_name: 'Root Self',
          group: 'vip',
          password: 'another-root-pass',
          role: ROLE.user,
          status: USER_STATUS.banned,
        },
      });
      expect(res.json<{ success: boolean }>().success, res.body).toBe(true);
      expect(await row(self.id)).toMatchObject({
        display_name: 'Root Self',
        group: 'vip',
        role: ROLE.root,
        status: USER_STATUS.enabled,
      });
      expect(await quotaOf(self.id)).toBe(777);
      // The new password ends the other sessions and keeps the one that made the change.
      const signedIn = async (as: Caller) =>
        (await t.call({ method: 'GET', url: '/api/user/self', as })).statusCode === 200;
      expect(await signedIn(self)).toBe(true);
      expect(await signedIn(elsewhere)).toBe(false);
      await t.login(self.username, 'another-root-pass');
    });

    it('cannot demote or disable itself through the manage call', async () => {
      expectRefusal(
        await t.call({
          method: 'POST',
          url: '/api/user/manage',
          as: root,
          payload: { id: root.id, action: 'demote' },
        }),
        MSG.cannotDemoteRoot,
      );
      expectRefusal(
        await t.call({
          method: 'POST',
          url: '/api/user/manage',
          as: root,
          payload: { id: root.id, action: 'disable' },
        }),
        MSG.cannotActOnEqualOrHigher,
      );
      expect(await row(root.id)).toMatchObject({ role: ROLE.root, status: USER_STATUS.enabled });
    });
  });
});
