import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOG_TYPE, MSG, REDEMPTION_STATUS, ROLE } from '@sluice/shared';
import type { RedemptionView } from '@sluice/shared';
import { testDialects } from '../../test-support/databases.js';
import { createTestApp, expectRefusal } from '../../test-support/test-app.js';
import type { Caller, TestApp } from '../../test-support/test-app.js';

interface Answer<T> {
  success: boolean;
  message: string;
  data: T;
}

interface Page<T> {
  items: T[];
  total: number;
  page: number;
  page_size: number;
}

describe.each(testDialects())('redemption codes on %s', (dialect) => {
  let t: TestApp;
  let admin: Caller;
  let user: Caller;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.createUser({ role: ROLE.admin });
    user = await t.createUser({ quota: 1000 });
  });
  afterAll(async () => t?.close());

  const createCodes = async (payload: Record<string, unknown>) => {
    const res = await t.call({ method: 'POST', url: '/api/redemption/', as: admin, payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Answer<string[]>>().data;
  };
  const codeRow = (key: string) =>
    t.db.db.selectFrom('redemptions').selectAll().where('key', '=', key).executeTakeFirstOrThrow();
  const quotaOf = async (id: number) =>
    Number(
      (await t.db.db.selectFrom('users').select('quota').where('id', '=', id).executeTakeFirstOrThrow())
        .quota,
    );
  const redeem = (as: Caller, key: unknown) =>
    t.call({ method: 'POST', url: '/api/user/topup', as, payload: { key } });

  it('creates a batch of distinct 32-character codes', async () => {
    const keys = await createCodes({ name: 'promo', quota: 100000, count: 5 });
    expect(keys).toHaveLength(5);
    for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(new Set(keys).size).toBe(5);
    expect(await codeRow(keys[0] as string)).toMatchObject({ name: 'promo', status: 1, used_user_id: 0 });
  });

  it.each([
    [{ quota: 1 }, MSG.redemptionNameRequired],
    [{ name: '', quota: 1 }, MSG.redemptionNameRequired],
    [{ name: 'x'.repeat(21), quota: 1 }, MSG.redemptionNameTooLong(20)],
    [{ name: 'n', quota: 0 }, MSG.redemptionQuotaInvalid],
    [{ name: 'n', quota: 2.5 }, MSG.redemptionQuotaInvalid],
    [{ name: 'n', quota: 1, count: 0 }, MSG.redemptionCountInvalid(100)],
    [{ name: 'n', quota: 1, count: 101 }, MSG.redemptionCountInvalid(100)],
  ])('refuses %o with "%s"', async (payload, message) => {
    const res = await t.call({ method: 'POST', url: '/api/redemption/', as: admin, payload });
    expectRefusal(res);
    expect(res.json().message).toBe(message);
  });

  it('refuses the admin routes to a regular user', async () => {
    expectRefusal(await t.call({ method: 'GET', url: '/api/redemption/', as: user }));
    const post = await t.call({
      method: 'POST',
      url: '/api/redemption/',
      as: user,
      payload: { name: 'x', quota: 1 },
    });
    expectRefusal(post);
  });

  it('lists newest first with 0-based pages, and searches by id or name', async () => {
    await createCodes({ name: 'paging', quota: 7, count: 12 });
    const page0 = (await t.call({ method: 'GET', url: '/api/redemption/?p=0', as: admin })).json<
      Answer<RedemptionView[]>
    >().data;
    const page1 = (await t.call({ method: 'GET', url: '/api/redemption/?p=1', as: admin })).json<
      Answer<RedemptionView[]>
    >().data;
    expect(page0).toHaveLength(10);
    const ids = [...page0, ...page1].map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const target = page0[3] as RedemptionView;
    const byId = await t.call({
      method: 'GET',
      url: `/api/redemption/search?keyword=${target.id}`,
      as: admin,
    });
    expect(byId.json<Answer<RedemptionView[]>>().data.map((r) => r.id)).toContain(target.id);
    const byName = await t.call({
      method: 'GET',
      url: '/api/redemption/search?keyword=pagin&size=100',
      as: admin,
    });
    expect(byName.json<Answer<RedemptionView[]>>().data).toHaveLength(12);
    const one = await t.call({ method: 'GET', url: `/api/redemption/${target.id}`, as: admin });
    expect(one.json<Answer<RedemptionView>>().data.key).toBe(target.key);
  });

  it('answers the page object with the total of all matches when page_size is sent', async () => {
    await createCodes({ name: 'pagedlist', quota: 3, count: 5 });
    const get = async (url: string) =>
      (await t.call({ method: 'GET', url, as: admin })).json<Answer<unknown>>();
    const live = Number(
      (
        await t.db.db
          .selectFrom('redemptions')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('deleted_at', 'is', null)
          .executeTakeFirstOrThrow()
      ).n,
    );
    // With page_size, p counts from 1 as in new-api's paged lists.
    const first = (await get('/api/redemption/?p=1&page_size=2')).data as Page<RedemptionView>;
    expect(first).toMatchObject({ page: 1, page_size: 2, total: live });
    expect(first.items).toHaveLength(2);
    const search = (p: string) => get(`/api/redemption/search?keyword=pagedlist&p=${p}&page_size=2`);
    const hits = (await search('3')).data as Page<RedemptionView>;
    expect(hits).toMatchObject({ page: 3, page_size: 2, total: 5 });
    expect(hits.items.map((r) => r.name)).toEqual(['pagedlist']);
    // A page number that does not parse is the first page, on both routes.
    for (const p of ['first', '-1', '', '0']) {
      const body = await search(p);
      expect(body.success).toBe(true);
      expect(body.data).toMatchObject({ page: 1, total: 5 });
      const plain = await get(`/api/redemption/?p=${p}`);
      expect(plain.success).toBe(true);
      expect((plain.data as RedemptionView[]).map((r) => r.id)).toEqual(
        ((await get('/api/redemption/?p=0')).data as RedemptionView[]).map((r) => r.id),
      );
    }
  });

  it('redeems a code once: credits the quota, marks it used and writes a top-up log', async () => {
    const [key] = await createCodes({ name: 'welcome', quota: 250000 });
    const before = await quotaOf(user.id);
    const res = await redeem(user, key);
    expect(res.statusCode).toBe(200);
    expect(res.json<Answer<number>>().data).toBe(250000);
    expect(await quotaOf(user.id)).toBe(before + 250000);
    const row = await codeRow(key as string);
    expect(row).toMatchObject({ status: REDEMPTION_STATUS.used, used_user_id: user.id });
    expect(Number(row.redeemed_time)).toBeGreaterThan(0);
    const log = await t.db.db
      .selectFrom('logs')
      .selectAll()
      .where('user_id', '=', user.id)
      .where('type', '=', LOG_TYPE.topup)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(log.content).toBe(`redeemed code "welcome" (id ${Number(row.id)}) for $0.50`);
    // The facts the console words the row from, in the reader's language.
    expect(JSON.parse(log.other)).toEqual({
      event: 'redeem',
      redemption_id: Number(row.id),
      redemption_name: 'welcome',
      quota: 250000,
      quota_delta: 250000,
    });
    expect(Number(log.quota)).toBe(250000);

    const again = await redeem(user, key);
    expectRefusal(again);
    expect(again.json().message).toBe(MSG.redemptionUsed);
    expect(await quotaOf(user.id)).toBe(before + 250000);
  });

  it('refuses unknown, disabled, deleted and empty codes with clear messages', async () => {
    const [disabled, deleted] = await createCodes({ name: 'closed', quota: 5, count: 2 });
    const disabledRow = await codeRow(disabled as string);
    const deletedRow = await codeRow(deleted as string);
    await t.call({
      method: 'PUT',
      url: '/api/redemption/?status_only=true',
      as: admin,
      payload: { id: disabledRow.id, status: 2 },
    });
    await t.call({ method: 'DELETE', url: `/api/redemption/${deletedRow.id}/`, as: admin });
    const before = await quotaOf(user.id);
    for (const [key, message] of [
      ['no-such-code', MSG.redemptionInvalid],
      [disabled, MSG.redemptionDisabled],
      [deleted, MSG.redemptionInvalid],
      ['', MSG.enterRedemptionCode],
      [undefined, MSG.enterRedemptionCode],
    ] as const) {
      const res = await redeem(user, key);
      expectRefusal(res);
      expect(res.json().message).toBe(message);
    }
    expect(await quotaOf(user.id)).toBe(before);
  });

  it('edits only unused codes and never re-enables or disables a used one', async () => {
    const [key] = await createCodes({ name: 'editable', quota: 10 });
    const { id } = await codeRow(key as string);
    const edit = await t.call({
      method: 'PUT',
      url: '/api/redemption/',
      as: admin,
      payload: { id, name: 'renamed', quota: 20 },
    });
    expect(edit.json<Answer<RedemptionView>>().data).toMatchObject({ name: 'renamed', quota: 20 });

    await redeem(user, key);
    const late = await t.call({
      method: 'PUT',
      url: '/api/redemption/',
      as: admin,
      payload: { id, quota: 999 },
    });
    expectRefusal(late);
    expect(late.json().message).toBe(MSG.redemptionNotEditable);
    for (const status of [1, 2]) {
      const res = await t.call({
        method: 'PUT',
        url: '/api/redemption/?status_only=true',
        as: admin,
        payload: { id, status },
      });
      expectRefusal(res);
      expect(res.json().message).toBe(MSG.redemptionUsedCannotChange);
    }
    expect(await codeRow(key as string)).toMatchObject({ status: REDEMPTION_STATUS.used, quota: 20 });

    const missing = await t.call({
      method: 'PUT',
      url: '/api/redemption/',
      as: admin,
      payload: { id: 999999, name: 'x' },
    });
    expectRefusal(missing);
  });

  it('re-enables a disabled code so it can be redeemed', async () => {
    const [key] = await createCodes({ name: 'toggle', quota: 3 });
    const { id } = await codeRow(key as string);
    const put = (status: number) =>
      t.call({ method: 'PUT', url: '/api/redemption/?status_only=true', as: admin, payload: { id, status } });
    expect((await put(2)).json<Answer<RedemptionView>>().data.status).toBe(2);
    expect((await put(1)).json<Answer<RedemptionView>>().data.status).toBe(1);
    expect((await redeem(user, key)).statusCode).toBe(200);
  });

  it('credits exactly once when 50 redeems of one code race', async () => {
    const [key] = await createCodes({ name: 'race', quota: 777 });
    const racers = await Promise.all(Array.from({ length: 5 }, () => t.createUser({ quota: 0 })));
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => redeem(racers[i % racers.length] as Caller, key)),
    );
    const wins = results.filter((r) => r.json().success);
    expect(wins).toHaveLength(1);
    for (const lost of results.filter((r) => !r.json().success)) expectRefusal(lost, MSG.redemptionUsed);
    const quotas = await Promise.all(racers.map((r) => quotaOf(r.id)));
    expect(quotas.reduce((a, b) => a + b, 0)).toBe(777);
    const logs = await t.db.db
      .selectFrom('logs')
      .select('id')
      .where(
        'user_id',
        'in',
        racers.map((r) => r.id),
      )
      .execute();
    expect(logs).toHaveLength(1);
  });

  it("tells the relay's cache that the user's quota changed", async () => {
    const [key] = await createCodes({ name: 'cache', quota: 1 });
    const heard: Array<string | undefined> = [];
    const stop = t.app.ctx.bus.subscribe('users', (id) => heard.push(id));
    await redeem(user, key);
    stop();
    expect(heard).toEqual([String(user.id)]);
  });

  it('works with a personal access token for both the admin routes and redeeming', async () => {
    await t.db.db
      .updateTable('users')
      .set({ access_token: 'pat-redeem-admin' })
      .where('id', '=', admin.id)
      .execute();
    await t.db.db
      .updateTable('users')
      .set({ access_token: 'pat-redeem-user' })
      .where('id', '=', user.id)
      .execute();
    const created = await t.call({
      method: 'POST',
      url: '/api/redemption/',
      headers: { authorization: 'Bearer pat-redeem-admin' },
      payload: { name: 'pat', quota: 9 },
    });
    const key = created.json<Answer<string[]>>().data[0];
    const res = await t.call({
      method: 'POST',
      url: '/api/user/topup',
      headers: { authorization: 'pat-redeem-user' },
      payload: { key },
    });
    expect(res.json<Answer<number>>().data).toBe(9);
  });
});
