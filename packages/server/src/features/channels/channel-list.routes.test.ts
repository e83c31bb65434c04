// The channel list: order, paging, tag mode's paging and search, never with keys.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MSG, ROLE } from '@sluice/shared';
import type { ChannelView } from '@sluice/shared';
import { testDialects } from '../../test-support/databases.js';
import { createTestApp, expectRefusal } from '../../test-support/test-app.js';
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
    return { status: res.statusCode, body: res.json<Body<T>>(), raw: res.body, res };
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
      // Paging that does not parse is the first page at the default size, as on every list (new-api
      // reads it with Atoi and drops the error), never a refusal.
      expect(await names('/api/channel/?p=NaN&page_size=abc')).toEqual(['c', 'a', 'b']);
      expect(await names('/api/channel/?p=0x1&page_size=2')).toEqual(['c', 'a']);
      expect(await names('/api/channel/?p=1.0&page_size=2.0')).toEqual(['c', 'a', 'b']);
    });

    it('refuses an unknown channel and a path that is no id', async () => {
      expectRefusal((await call('GET', '/api/channel/999999')).res, MSG.channelNotFound);
      expectRefusal((await call('GET', '/api/channel/abc')).res, MSG.notFound);
    });

    it('pages tags in tag mode and answers every channel of the page, plain', async () => {
      const [t1] = await create(channel({ name: 't1', tag: 'team', priority: 3, models: 'm1' }));
      const [t2] = await create(channel({ name: 't2', tag: 'team', priority: 3, groups: ['vip'] }));
      const [solo] = await create(channel({ name: 'solo', priority: 1 }));
      const [ops1] = await create(channel({ name: 'ops1', tag: 'ops', priority: 0 }));
      const [late] = await create(channel({ name: 'late', tag: 'team', priority: -5 }));
      const [ops2] = await create(channel({ name: 'ops2', tag: 'ops', priority: -9 }));
      const page = async (query: string) =>
        (await call<Record<string, unknown>[]>('GET', `/api/channel/?tag_mode=true&${query}`)).body.data;

      // Entries in list order: team (its first channel has priority 3), solo, ops. A tag brings
      // all of its channels, even those whose own place in the list is further down.
      const all = await page('page_size=10');
      expect(all.map((c) => c.id)).toEqual([t2, t1, late, solo, ops1, ops2]);
      for (const row of all) {
        expect(row).not.toHaveProperty('is_tag');
        expect(row).not.toHaveProperty('children');
        expect(row).toHaveProperty('response_time');
      }
      expect(JSON.stringify(all)).not.toContain('sk-secret-key-1');

      expect((await page('p=0&page_size=2')).map((c) => c.name)).toEqual(['t2', 't1', 'late', 'solo']);
      expect((await page('p=1&page_size=2')).map((c) => c.name)).toEqual(['ops1', 'ops2']);
      expect((await page('p=1&page_size=1')).map((c) => c.name)).toEqual(['solo']);
      expect(await page('p=3&page_size=1')).toEqual([]);
      // id_sort orders the entries and each tag's channels by id.
      expect((await page('id_sort=true&page_size=2')).map((c) => c.id)).toEqual([ops2, ops1, late, t2, t1]);
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

    it('searches in tag mode: a tag with a match comes whole, as plain channels', async () => {
      const [x1] = await create(channel({ name: 'x1', tag: 'grp', models: 'gpt-4o' }));
      const [x2] = await create(channel({ name: 'x2', tag: 'grp', models: 'claude-3-haiku' }));
      await create(channel({ name: 'y1', tag: 'other', models: 'claude-3-haiku' }));
      const [lone] = await create(channel({ name: 'lone', models: 'gpt-4o' }));
      await create(channel({ name: 'quiet', models: 'claude-3-haiku' }));
      const res = await call<Record<string, unknown>[]>('GET', '/api/channel/search?model=gpt&tag_mode=true');
      expect(res.body.data.map((c) => c.id)).toEqual([lone, x2, x1]);
      expect(res.body.data.every((c) => !('is_tag' in c))).toBe(true);
      const plain = await call<ChannelView[]>('GET', '/api/channel/search?model=gpt');
      expect(plain.body.data.map((c) => c.id)).toEqual([lone, x1]);
    });
  });
});
