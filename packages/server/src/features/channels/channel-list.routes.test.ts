// The channel list: order, paging, tag aggregation and search, never with keys.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MSG, ROLE } from '@sluice/shared';
import type { ChannelView } from '@sluice/shared';
import { testDialects } from '../../test-support/databases.js';
import { createTestApp } from '../../test-support/test-app.js';
import type { Caller, TestApp } from '../../test-support/test-app.js';

interface Body<T = unknown> {
  success: boolean;
  message: string;
  data: T;
}

describe.each(testDialects())('channel list and search on %s', (dialect) => {
  let t: TestApp;
  let admin: Caller;

  const call = async <T = unknown>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
  ) => {
    const res = await t.call({ method, url, as: admin, ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: res.json<Body<T>>(), raw: res.body };
  };
  const create = async (payload: object): Promise<number[]> => {
    const res = await call<{ ids: number[]; count: number }>('POST', '/api/channel/', payload);
    expect(res.body.message).toBe('');
    expect(res.status).toBe(200);
    return res.body.data.ids;
  };
  const channel = (overrides: object = {}) => ({
    name: 'main',
    type: 1,
    key: 'sk-secret-key-1',
    models: ['gpt-4o', 'gpt-4o-mini'],
    groups: ['default'],
    ...overrides,
  });
  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.createUser({ role: ROLE.admin });
  });
  afterAll(async () => t?.close());
  beforeEach(async () => {
    await t.db.db.deleteFrom('abilities').execute();
    await t.db.db.deleteFrom('channels').execute();
  });

  describe('list, read and search', () => {
    it('orders by priority then id, or by id, and pages 0-based', async () => {
      const [a] = await create(channel({ name: 'a', priority: 5 }));
      const [b] = await create(channel({ name: 'b', priority: 0 }));
      const [c] = await create(channel({ name: 'c', priority: 5 }));
      const names = async (url: string) =>
        (await call<ChannelView[]>('GET', url)).body.data.map((ch) => ch.name);
      expect(await names('/api/channel/')).toEqual(['c', 'a', 'b']);
      expect(await names('/api/channel/?id_sort=true')).toEqual(['c', 'b', 'a']);
      expect(await names('/api/channel/?p=0&page_size=2')).toEqual(['c', 'a']);
      expect(await names('/api/channel/?p=1&page_size=2')).toEqual(['b']);
      const bySort = (await call<ChannelView[]>('GET', '/api/channel/?id_sort=true')).body.data;
      expect(bySort.map((ch) => ch.id)).toEqual([c, b, a]);
      const list = await call('GET', '/api/channel/');
      expect(list.raw).not.toContain('sk-secret-key-1');
      expect((await call('GET', '/api/channel/?page_size=abc')).status).toBe(400);
    });

    it('answers 404 for an unknown channel and 400 for a bad id', async () => {
      const missing = await call('GET', '/api/channel/999999');
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe(MSG.channelNotFound);
      expect((await call('GET', '/api/channel/abc')).status).toBe(400);
    });

    it('aggregates tagged channels into one row per tag and pages the rows', async () => {
      const [t1] = await create(
        channel({ name: 't1', tag: 'team', priority: 3, group: 'default', models: 'm1' }),
      );
      const [t2] = await create(
        channel({ name: 't2', tag: 'team', priority: 3, weight: 2, groups: ['vip'], models: 'm2,m1' }),
      );
      await create(channel({ name: 'solo', priority: 1 }));
      await create(channel({ name: 'other-tag', tag: 'ops', priority: 0 }));
      await call('PUT', '/api/channel/', { id: t2, status: 2 });
      await t.db.db
        .updateTable('channels')
        .set({ used_quota: 10, response_time: 300 })
        .where('id', '=', t1 as number)
        .execute();
      await t.db.db
        .updateTable('channels')
        .set({ used_quota: 5, response_time: 100 })
        .where('id', '=', t2 as number)
        .execute();

      const res = await call<Record<string, unknown>[]>('GET', '/api/channel/?tag_mode=true');
      expect(res.body.data.map((r) => r.name)).toEqual(['team', 'solo', 'ops']);
      const team = res.body.data[0];
      expect(team).toMatchObject({
        is_tag: true,
        tag: 'team',
        status: 0,
        enabled_count: 1,
        channel_count: 2,
        priority: 3,
        weight: null,
        group: 'vip,default',
        used_quota: 15,
        response_time: 200,
      });
      expect((team?.children as ChannelView[]).map((c) => c.name)).toEqual(['t2', 't1']);
      expect(res.raw).not.toContain('sk-secret-key-1');
      expect(new Set(String(team?.models).split(','))).toEqual(new Set(['m1', 'm2']));
      expect(res.body.data[1]).not.toHaveProperty('is_tag');

      const page2 = await call<Record<string, unknown>[]>(
        'GET',
        '/api/channel/?tag_mode=true&p=1&page_size=2',
      );
      expect(page2.body.data.map((r) => r.name)).toEqual(['ops']);
    });

    it('searches by id, name, key, group membership and model', async () => {
      const [alpha] = await create(
        channel({ name: 'Alpha Main', key: 'sk-alpha-123', groups: ['vip2'], models: 'gpt-4o' }),
      );
      await create(
        channel({ name: 'beta', key: 'sk-beta-456', groups: ['vip', 'default'], models: 'claude-3-opus' }),
      );
      const names = async (query: string) =>
        (await call<ChannelView[]>('GET', `/api/channel/search?${query}`)).body.data
          .map((c) => c.name)
          .sort();
      expect(await names(`keyword=${alpha}`)).toEqual(['Alpha Main']);
      expect(await names('keyword=alpha%20main')).toEqual(['Alpha Main']);
      expect(await names('keyword=beta-45')).toEqual(['beta']);
      expect(await names('group=vip')).toEqual(['beta']);
      expect(await names('model=CLAUDE')).toEqual(['beta']);
      expect(await names('keyword=main&model=claude')).toEqual([]);
      expect(await names('keyword=')).toEqual(['Alpha Main', 'beta']);
      const byKey = await call('GET', '/api/channel/search?keyword=sk-alpha');
      expect(byKey.raw).not.toContain('sk-alpha-123');
    });

    it('searches in tag mode', async () => {
      await create(channel({ name: 'x1', tag: 'grp', models: 'gpt-4o' }));
      await create(channel({ name: 'x2', tag: 'grp', models: 'gpt-4o' }));
      const res = await call<Record<string, unknown>[]>('GET', '/api/channel/search?model=gpt&tag_mode=true');
      expect(res.body.data).toHaveLength(1);
      expect(res.body.data[0]).toMatchObject({ is_tag: true, tag: 'grp', channel_count: 2 });
    });
  });
});
