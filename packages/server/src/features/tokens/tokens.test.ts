import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, TOKEN_STATUS } from '@sluice/shared';
import type { TokenView } from '@sluice/shared';
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

describe.each(testDialects())('tokens API on %s', (dialect) => {
  let t: TestApp;
  let alice: Caller;
  let bob: Caller;
  const future = () => Math.floor(Date.now() / 1000) + 86400;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    alice = await t.createUser({ group: 'default' });
    bob = await t.createUser({ group: 'svip' });
  });
  afterAll(async () => t?.close());

  const create = async (as: Caller, payload: Record<string, unknown>) => {
    const res = await t.call({ method: 'POST', url: '/api/token/', as, payload });
    return { status: res.statusCode, body: res.json<Answer<TokenView[]>>() };
  };
  const createOne = async (as: Caller, payload: Record<string, unknown> = {}) => {
    const { status, body } = await create(as, { name: 'key', remain_quota: 500000, ...payload });
    expect(status, body.message).toBe(200);
    const token = body.data[0];
    if (!token) throw new Error('no token created');
    return token;
  };
  const rowOf = (id: number) =>
    t.db.db.selectFrom('tokens').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('creates a token whose 48-character key is stored and returned without sk-', async () => {
    const token = await createOne(alice, { name: 'laptop', expired_time: -1 });
    expect(token.key).toMatch(/^[A-Za-z0-9]{48}$/);
    expect(token).toMatchObject({ name: 'laptop', status: 1, remain_quota: 500000, unlimited_quota: false });
    expect((await rowOf(token.id)).key).toBe(token.key);
  });

  it('creates a batch: names after the first get a random 6-character suffix, keys all differ', async () => {
    const { status, body } = await create(alice, { name: 'batch', remain_quota: 1, count: 3 });
    expect(status).toBe(200);
    expect(body.data.map((d) => d.name)[0]).toBe('batch');
    for (const token of body.data.slice(1)) expect(token.name).toMatch(/^batch-[A-Za-z0-9]{6}$/);
    expect(new Set(body.data.map((d) => d.key)).size).toBe(3);
  });

  it.each([
    [{ remain_quota: 1 }, MSG.tokenNameRequired],
    [{ name: '   ' }, MSG.tokenNameRequired],
    [{ name: 'x'.repeat(31) }, MSG.tokenNameTooLong(30)],
    [{ name: 'q', remain_quota: 1.5 }, MSG.tokenQuotaInvalid],
    [{ name: 'q', remain_quota: -1 }, MSG.tokenQuotaInvalid],
    [{ name: 'e', expired_time: 'tomorrow' }, MSG.expiryFormatError],
    [{ name: 'e', expired_time: 1000 }, MSG.expiryInPast],
    [{ name: 'c', count: 0 }, MSG.tokenCountInvalid(100)],
    [{ name: 'c', count: 2.5 }, MSG.tokenCountInvalid(100)],
    [{ name: 'g', group: 'svip' }, MSG.tokenGroupNotUsable('svip')],
    [{ name: 'i', allow_ips: '10.0.0.1\nnot-an-ip' }, MSG.allowIpInvalid('not-an-ip')],
    [{ name: 'i', allow_ips: '10.0.0.0/33' }, MSG.allowIpInvalid('10.0.0.0/33')],
  ])('refuses %o with "%s"', async (payload, message) => {
    expectRefusal(await t.call({ method: 'POST', url: '/api/token/', as: alice, payload }), message);
  });

  it("accepts the admin's selectable groups and the user's own group", async () => {
    expect((await createOne(alice, { name: 'vip', group: 'vip' })).group).toBe('vip');
    expect((await createOne(bob, { name: 'own', group: 'svip' })).group).toBe('svip');
  });

  it('keeps IP addresses and CIDR ranges one per line, and model limits as a clean list', async () => {
    const token = await createOne(alice, {
      name: 'limits',
      allow_ips: ' 10.0.0.1 \n\n192.168.0.0/16\n::1\n10.0.0.1',
      model_limits_enabled: true,
      model_limits: 'gpt-4o, gpt-4o-mini,,gpt-4o',
    });
    expect(token.allow_ips).toBe('10.0.0.1\n192.168.0.0/16\n::1');
    expect(token.model_limits).toBe('gpt-4o,gpt-4o-mini');
    expect(token.model_limits_enabled).toBe(true);
  });

  it('lists only the caller’s tokens, newest first, with 0-based pages', async () => {
    const carol = await t.createUser();
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) ids.push((await createOne(carol, { name: `t${i}` })).id);
    const page = async (p: number, size?: number) => {
      const url = `/api/token/?p=${p}${size ? `&size=${size}` : ''}`;
      return (await t.call({ method: 'GET', url, as: carol })).json<Answer<TokenView[]>>().data;
    };
    expect((await page(0)).map((r) => r.id)).toEqual(ids.slice().reverse().slice(0, 10));
    expect((await page(1)).map((r) => r.id)).toEqual(ids.slice(0, 2).reverse());
    expect(await page(0, 1000)).toHaveLength(12);
    const aliceList = (await t.call({ method: 'GET', url: '/api/token/', as: alice })).json<
      Answer<TokenView[]>
    >().data;
    expect(aliceList.every((r) => r.user_id === alice.id)).toBe(true);
  });

  it('answers the page object when page_size is sent, and reads a bad page number as the first', async () => {
    const dave = await t.createUser();
    const ids: number[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await createOne(dave, { name: i < 3 ? `pick${i}` : `skip${i}` })).id);
    const get = async (url: string) =>
      (await t.call({ method: 'GET', url, as: dave })).json<Answer<unknown>>();
    const newest = ids.slice().reverse();
    // With page_size, p counts from 1 as in new-api's paged lists.
    expect((await get('/api/token/?p=2&page_size=2')).data).toMatchObject({
      page: 2,
      page_size: 2,
      total: 5,
      items: newest.slice(2, 4).map((id) => ({ id })),
    });
    // page_size takes the place of size.
    expect((await get('/api/token/?p=0&size=1&page_size=4')).data).toMatchObject({ page_size: 4, total: 5 });
    const search = (await get('/api/token/search?keyword=pick&p=1&page_size=2')).data as Page<TokenView>;
    expect(search).toMatchObject({ page: 1, page_size: 2, total: 3 });
    expect(search.items.map((r) => r.name)).toEqual(['pick2', 'pick1']);
    for (const p of ['nope', '-2', '3.5']) {
      const plain = await get(`/api/token/?p=${p}&size=2`);
      expect(plain.success).toBe(true);
      expect((plain.data as TokenView[]).map((r) => r.id)).toEqual(newest.slice(0, 2));
      expect((await get(`/api/token/search?keyword=pick&p=${p}&page_size=2`)).data).toMatchObject({
        page: 1,
        items: [{ name: 'pick2' }, { name: 'pick1' }],
      });
    }
  });

  it('searches by part of the name and by part of the key, with or without sk-', async () => {
    const token = await createOne(alice, { name: 'findme-search' });
    const byName = await t.call({ method: 'GET', url: '/api/token/search?keyword=dme-sea', as: alice });
    expect(byName.json<Answer<TokenView[]>>().data.map((r) => r.id)).toEqual([token.id]);
    for (const key of [token.key.slice(5, 30), `sk-${token.key}`]) {
      const res = await t.call({ method: 'GET', url: `/api/token/search?token=${key}`, as: alice });
      expect(res.json<Answer<TokenView[]>>().data.map((r) => r.id)).toEqual([token.id]);
    }
    const otherUser = await t.call({ method: 'GET', url: `/api/token/search?token=${token.key}`, as: bob });
    expect(otherUser.json<Answer<TokenView[]>>().data).toEqual([]);
    // LIKE wildcards in the keyword are matched literally.
    const wildcard = await t.call({ method: 'GET', url: '/api/token/search?keyword=%25', as: alice });
    expect(wildcard.json<Answer<TokenView[]>>().data).toEqual([]);
  });

  it('updates fields, keeps the ones left out, and never changes status on a plain update', async () => {
    const token = await createOne(alice, { name: 'before', allow_ips: '10.0.0.1' });
    const res = await t.call({
      method: 'PUT',
      url: '/api/token/',
      as: alice,
      payload: { id: token.id, name: 'after', remain_quota: 42, unlimited_quota: true, status: 2 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<Answer<TokenView>>().data).toMatchObject({
      name: 'after',
      remain_quota: 42,
      unlimited_quota: true,
      allow_ips: '10.0.0.1',
      status: 1,
    });
    const bad = await t.call({
      method: 'PUT',
      url: '/api/token/',
      as: alice,
      payload: { id: token.id, expired_time: 5 },
    });
    expectRefusal(bad);
    expect(bad.json().message).toBe(MSG.expiryInPast);
  });

  it("hides another user's token: read, update, status change and delete all answer 404", async () => {
    const token = await createOne(alice, { name: 'private' });
    const attempts = [
      { method: 'GET' as const, url: `/api/token/${token.id}` },
      { method: 'PUT' as const, url: '/api/token/', payload: { id: token.id, name: 'stolen' } },
      { method: 'PUT' as const, url: '/api/token/?status_only=true', payload: { id: token.id, status: 2 } },
      { method: 'DELETE' as const, url: `/api/token/${token.id}/` },
    ];
    for (const attempt of attempts) {
      const res = await t.call({ ...attempt, as: bob });
      expectRefusal(res);
    }
    const row = await rowOf(token.id);
    expect(row).toMatchObject({ name: 'private', status: 1, deleted_at: null });
    const own = await t.call({ method: 'GET', url: `/api/token/${token.id}`, as: alice });
    expect(own.json<Answer<TokenView>>().data.key).toBe(token.key);
  });

  it('disables and enables a token', async () => {
    const token = await createOne(alice, { name: 'toggle' });
    for (const status of [2, 1]) {
      const res = await t.call({
        method: 'PUT',
        url: '/api/token/?status_only=true',
        as: alice,
        payload: { id: token.id, status },
      });
      expect(res.json<Answer<TokenView>>().data.status).toBe(status);
      expect((await rowOf(token.id)).status).toBe(status);
    }
    const invalid = await t.call({
      method: 'PUT',
      url: '/api/token/?status_only=true',
      as: alice,
      payload: { id: token.id, status: 3 },
    });
    expectRefusal(invalid);
  });

  it('refuses to enable an expired token or one whose quota is used up', async () => {
    const expired = await createOne(alice, { name: 'old', expired_time: future() });
    await t.db.db.updateTable('tokens').set({ expired_time: 1000 }).where('id', '=', expired.id).execute();
    const shown = await t.call({ method: 'GET', url: `/api/token/${expired.id}`, as: alice });
    expect(shown.json<Answer<TokenView>>().data.status).toBe(TOKEN_STATUS.expired);
    const empty = await createOne(alice, { name: 'empty', remain_quota: 0 });
    for (const [token, message] of [
      [expired, MSG.tokenExpired],
      [empty, MSG.tokenExhausted],
    ] as const) {
      const payload = (status: number) => ({ id: token.id, status });
      await t.call({ method: 'PUT', url: '/api/token/?status_only=true', as: alice, payload: payload(2) });
      const res = await t.call({
        method: 'PUT',
        url: '/api/token/?status_only=true',
        as: alice,
        payload: payload(1),
      });
      expectRefusal(res);
      expect(res.json().message).toBe(message);
      expect((await rowOf(token.id)).status).toBe(TOKEN_STATUS.disabled);
    }
    // Once the quota is raised, enabling works.
    await t.call({
      method: 'PUT',
      url: '/api/token/',
      as: alice,
      payload: { id: empty.id, remain_quota: 10 },
    });
    const res = await t.call({
      method: 'PUT',
      url: '/api/token/?status_only=true',
      as: alice,
      payload: { id: empty.id, status: 1 },
    });
    expect(res.json<Answer<TokenView>>().data.status).toBe(TOKEN_STATUS.enabled);
  });

  it('deletes a token: it leaves the list, cannot be read, and its key stops working', async () => {
    const token = await createOne(alice, { name: 'doomed' });
    const del = await t.call({ method: 'DELETE', url: `/api/token/${token.id}/`, as: alice });
    expect(del.statusCode).toBe(200);
    expectRefusal(await t.call({ method: 'GET', url: `/api/token/${token.id}`, as: alice }));
    const list = await t.call({ method: 'GET', url: '/api/token/?size=100', as: alice });
    expect(list.json<Answer<TokenView[]>>().data.some((r) => r.id === token.id)).toBe(false);
    const row = await rowOf(token.id);
    expect(row.deleted_at).not.toBeNull();
    expect(row.status).toBe(TOKEN_STATUS.disabled);
    expectRefusal(
      await t.call({ method: 'DELETE', url: `/api/token/${token.id}/`, as: alice }),
      MSG.notFound,
    );
  });

  it("tells the relay's cache about every token write", async () => {
    const heard: Array<string | undefined> = [];
    const stop = t.app.ctx.bus.subscribe('tokens', (id) => heard.push(id));
    const token = await createOne(alice, { name: 'cached' });
    await t.call({ method: 'PUT', url: '/api/token/', as: alice, payload: { id: token.id, name: 'c2' } });
    await t.call({
      method: 'PUT',
      url: '/api/token/?status_only=true',
      as: alice,
      payload: { id: token.id, status: 2 },
    });
    await t.call({ method: 'DELETE', url: `/api/token/${token.id}/`, as: alice });
    stop();
    expect(heard).toEqual(Array(4).fill(String(token.id)));
  });

  it('works with a personal access token instead of the session', async () => {
    await t.db.db
      .updateTable('users')
      .set({ access_token: 'pat-tokens-alice' })
      .where('id', '=', alice.id)
      .execute();
    const res = await t.call({
      method: 'POST',
      url: '/api/token/',
      headers: { authorization: 'pat-tokens-alice' },
      payload: { name: 'via-pat' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<Answer<TokenView[]>>().data[0]?.user_id).toBe(alice.id);
  });

  it('leaves a row equal to one submitted version after 50 parallel updates', async () => {
    const token = await createOne(alice, { name: 'race' });
    // Built once: the expiry times must not move between sending and checking.
    const expiresAt = future();
    const versions = Array.from({ length: 50 }, (_, i) => ({
      id: token.id,
      name: `v${i}`,
      remain_quota: i * 1000,
      expired_time: i % 2 === 0 ? -1 : expiresAt + i,
      unlimited_quota: i % 3 === 0,
      model_limits_enabled: i % 2 === 1,
      model_limits: `model-${i}`,
      allow_ips: `10.0.${i}.1`,
      group: i % 2 === 0 ? 'vip' : 'default',
    }));
    const results = await Promise.all(
      versions.map((payload) => t.call({ method: 'PUT', url: '/api/token/', as: alice, payload })),
    );
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    const row = await rowOf(token.id);
    const i = Number(row.name.slice(1));
    const v = versions[i];
    expect({
      name: row.name,
      remain_quota: Number(row.remain_quota),
      expired_time: Number(row.expired_time),
      unlimited_quota: row.unlimited_quota === 1,
      model_limits_enabled: row.model_limits_enabled === 1,
      model_limits: row.model_limits,
      allow_ips: row.allow_ips,
      group: row.group,
    }).toEqual({ ...v, id: undefined });
  });
});
