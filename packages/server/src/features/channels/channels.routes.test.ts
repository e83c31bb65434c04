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

describe.each(testDialects())('channel management on %s', (dialect) => {
  let t: TestApp;
  let admin: Caller;
  let user: Caller;

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
  const abilities = (channelId: number) =>
    t.db.db
      .selectFrom('abilities')
      .select(['group', 'model', 'enabled', 'priority', 'weight', 'tag'])
      .where('channel_id', '=', channelId)
      .orderBy('group')
      .orderBy('model')
      .execute();
  const storedKey = async (id: number) =>
    (await t.db.db.selectFrom('channels').select('key').where('id', '=', id).executeTakeFirstOrThrow()).key;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.createUser({ role: ROLE.admin });
    user = await t.createUser();
  });
  afterAll(async () => t?.close());
  beforeEach(async () => {
    await t.db.db.deleteFrom('abilities').execute();
    await t.db.db.deleteFrom('channels').execute();
  });

  describe('create', () => {
    it('creates a channel with the documented defaults and never returns its key', async () => {
      const [id] = await create({ name: 'main', key: 'sk-secret-key-1', models: 'gpt-4o,gpt-4o-mini' });
      const res = await call<ChannelView>('GET', `/api/channel/${id}`);
      expect(res.body.data).toMatchObject({
        id,
        name: 'main',
        type: 1,
        status: 1,
        group: 'default',
        models: 'gpt-4o,gpt-4o-mini',
        test_models: ['gpt-4o', 'gpt-4o-mini'],
        auto_ban: 1,
        priority: 0,
        weight: 0,
        tag: '',
        other_info: '{}',
      });
      expect(res.body.data).not.toHaveProperty('key');
      expect(res.raw).not.toContain('sk-secret-key-1');
      expect(await storedKey(id as number)).toBe('sk-secret-key-1');
    });

    it('normalises lists, base_url, weight and the per-type default of other', async () => {
      const [openai] = await create(
        channel({
          models: [' gpt-4o ', 'gpt-4o', 'o1'],
          groups: undefined,
          group: 'vip, default',
          base_url: 'https://up.example.com//',
          weight: -5,
          priority: '7',
          model_mapping: '{"gpt-4o":"gpt-4o-2024-08-06"}',
          status_code_mapping: '{"400":"500"}',
        }),
      );
      const [azure] = await create(channel({ type: 3, name: 'azure' }));
      const [spark] = await create(channel({ type: 18, name: 'spark', key: 'app|secret|key' }));
      const [azureOwn] = await create(channel({ type: 3, name: 'azure2', other: '2024-02-01' }));
      const view = async (id?: number) => (await call<ChannelView>('GET', `/api/channel/${id}`)).body.data;
      expect(await view(openai)).toMatchObject({
        models: 'gpt-4o,o1',
        group: 'vip,default',
        base_url: 'https://up.example.com',
        weight: 0,
        priority: 7,
        model_mapping: '{"gpt-4o":"gpt-4o-2024-08-06"}',
      });
      expect((await view(azure)).other).toBe('2023-06-01-preview');
      expect((await view(spark)).other).toBe('v2.1');
      expect((await view(azureOwn)).other).toBe('2024-02-01');
    });

    it('answers the spec messages for invalid forms', async () => {
      const cases: [object, string][] = [
        [channel({ name: '' }), MSG.fillChannelNameAndKey],
        [channel({ key: '  ' }), MSG.fillChannelNameAndKey],
        [channel({ models: [] }), MSG.chooseAtLeastOneModel],
        [channel({ models: ' , ' }), MSG.chooseAtLeastOneModel],
        [channel({ model_mapping: '{not json' }), MSG.notValidJson],
        [channel({ model_mapping: '["a"]' }), MSG.notValidJson],
        [channel({ model_mapping: '{"a":1}' }), MSG.modelMappingNotStrings],
        [channel({ status_code_mapping: 'null' }), MSG.notValidJson],
        [channel({ priority: '1.5' }), MSG.priorityNotInteger],
        [channel({ priority: -1000 }), MSG.priorityTooLow],
        [channel({ type: 999 }), MSG.unknownChannelType],
      ];
      for (const [payload, message] of cases) {
        expectRefusal((await call('POST', '/api/channel/', payload)).res, message);
      }
      expect((await call<ChannelView[]>('GET', '/api/channel/')).body.data).toEqual([]);
    });

    it('accepts empty mappings', async () => {
      const [id] = await create(channel({ model_mapping: '', status_code_mapping: '  ' }));
      expect((await call<ChannelView>('GET', `/api/channel/${id}`)).body.data.model_mapping).toBe('');
    });

    it('creates one channel per line of a multi-line key', async () => {
      const res = await call<{ ids: number[]; count: number }>(
        'POST',
        '/api/channel/',
        channel({ name: 'batch', key: 'sk-a\n\n  sk-b  \r\nsk-c\n' }),
      );
      expect(res.body.data.count).toBe(3);
      const keys = await Promise.all(res.body.data.ids.map(storedKey));
      expect(keys.sort()).toEqual(['sk-a', 'sk-b', 'sk-c']);
      const list = (await call<ChannelView[]>('GET', '/api/channel/')).body.data;
      expect(list.map((c) => c.name)).toEqual(['batch', 'batch', 'batch']);
      for (const id of res.body.data.ids) expect(await abilities(id)).toHaveLength(2);
    });

    it('creates one Vertex channel per service-account object', async () => {
      const account = (n: number) => ({
        type: 'service_account',
        client_email: `sa${n}@p.iam`,
        private_key: 'k}{"',
      });
      const asArray = await call<{ count: number; ids: number[] }>(
        'POST',
        '/api/channel/',
        channel({ type: 41, name: 'vx', key: JSON.stringify([account(1), account(2)]) }),
      );
      expect(asArray.body.data.count).toBe(2);
      const pasted = `${JSON.stringify(account(3), null, 2)}\n${JSON.stringify(account(4), null, 2)}`;
      const asObjects = await call<{ count: number; ids: number[] }>(
        'POST',
        '/api/channel/',
        channel({ type: 41, name: 'vx2', key: pasted }),
      );
      expect(asObjects.body.data.count).toBe(2);
      const stored = JSON.parse(await storedKey(asObjects.body.data.ids[1] as number)) as unknown;
      expect(stored).toEqual(account(4));
      const view = (await call<ChannelView>('GET', `/api/channel/${asObjects.body.data.ids[0]}`)).body.data;
      // Left empty: the relay picks the region per model (us-central1, europe-west1 for Claude).
      expect(view.other).toBe('');

      const bad = await call('POST', '/api/channel/', channel({ type: 41, key: '{"a":1} trailing' }));
      expectRefusal(bad.res, MSG.vertexKeyInvalid);
    });
  });

  describe('update', () => {
    it('replaces the given fields, keeps the key when it is empty, and rebuilds abilities', async () => {
      const [id] = await create(channel());
      const res = await call<ChannelView>('PUT', '/api/channel/', {
        id,
        name: 'renamed',
        key: '',
        models: 'a,b',
        groups: ['default', 'vip'],
        priority: 2,
        base_url: 'https://x.example/',
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        name: 'renamed',
        models: 'a,b',
        group: 'default,vip',
        priority: 2,
      });
      expect(res.body.data.base_url).toBe('https://x.example');
      expect(res.body.data).not.toHaveProperty('key');
      expect(await storedKey(id as number)).toBe('sk-secret-key-1');
      expect((await abilities(id as number)).map((a) => `${a.group}/${a.model}/${a.priority}`)).toEqual([
        'default/a/2',
        'default/b/2',
        'vip/a/2',
        'vip/b/2',
      ]);
      await call('PUT', '/api/channel/', { id, key: 'sk-new' });
      expect(await storedKey(id as number)).toBe('sk-new');
    });

    it('applies the inline edits of status, priority and weight', async () => {
      const [id] = await create(channel());
      const disabled = await call<ChannelView>('PUT', '/api/channel/', { id, status: 2 });
      expect(disabled.body.data.status).toBe(2);
      expect((await abilities(id as number)).every((a) => a.enabled === 0)).toBe(true);
      const enabled = await call<ChannelView>('PUT', '/api/channel/', { id, status: 1 });
      expect(enabled.body.data.status).toBe(1);
      expect((await abilities(id as number)).every((a) => a.enabled === 1)).toBe(true);
      expect(
        (await call<ChannelView>('PUT', '/api/channel/', { id, priority: -999 })).body.data.priority,
      ).toBe(-999);
      expect((await call<ChannelView>('PUT', '/api/channel/', { id, weight: -3 })).body.data.weight).toBe(0);
      expect((await call<ChannelView>('PUT', '/api/channel/', { id, weight: '12' })).body.data.weight).toBe(
        12,
      );

      const bad: [object, string][] = [
        [{ id, priority: -1000 }, MSG.priorityTooLow],
        [{ id, priority: 'x' }, MSG.priorityNotInteger],
        [{ id, status: 3 }, MSG.channelStatusInvalid],
        [{ id, name: '' }, MSG.fillChannelNameAndKey],
        [{ id, models: [] }, MSG.chooseAtLeastOneModel],
        [{ id, model_mapping: 'x' }, MSG.notValidJson],
      ];
      for (const [payload, message] of bad) {
        expectRefusal((await call('PUT', '/api/channel/', payload)).res, message);
      }
      expectRefusal((await call('PUT', '/api/channel/', { id: 999999, status: 1 })).res, MSG.channelNotFound);
    });
  });

  describe('abilities', () => {
    it('holds one row per group and model, disabled when the channel is', async () => {
      const [id] = await create(
        channel({ groups: ['default', 'vip'], models: 'm1,m2,m3', priority: 4, weight: 9, tag: 'tg' }),
      );
      const rows = await abilities(id as number);
      expect(rows).toHaveLength(6);
      expect(rows.every((r) => r.enabled === 1 && r.priority === 4 && r.weight === 9 && r.tag === 'tg')).toBe(
        true,
      );
      await call('PUT', '/api/channel/', { id, status: 2 });
      expect((await abilities(id as number)).every((r) => r.enabled === 0)).toBe(true);
    });

    it('rebuilds the whole index with fix', async () => {
      const [a] = await create(channel({ models: 'm1,m2' }));
      const [b] = await create(channel({ models: 'm3', groups: ['x', 'y'] }));
      await t.db.db.deleteFrom('abilities').execute();
      await t.db.db
        .insertInto('abilities')
        .values({ group: 'stale', model: 'gone', channel_id: 424242 })
        .execute();
      const res = await call<number>('POST', '/api/channel/fix');
      expect(res.body.data).toBe(2);
      expect(await abilities(a as number)).toHaveLength(2);
      expect(await abilities(b as number)).toHaveLength(2);
      expect(await abilities(424242)).toHaveLength(0);
    });
  });

  describe('delete', () => {
    it('deletes one channel with its abilities', async () => {
      const [id] = await create(channel());
      const deleted = await call('DELETE', `/api/channel/${id}/`);
      expect({ status: deleted.status, success: deleted.body.success }).toEqual({
        status: 200,
        success: true,
      });
      expectRefusal((await call('GET', `/api/channel/${id}`)).res, MSG.channelNotFound);
      expect(await abilities(id as number)).toHaveLength(0);
      expectRefusal((await call('DELETE', `/api/channel/${id}`)).res, MSG.channelNotFound);
    });

    it('deletes disabled channels and a selection, answering counts', async () => {
      const [on] = await create(channel());
      const [off] = await create(channel());
      const [auto] = await create(channel());
      await call('PUT', '/api/channel/', { id: off, status: 2 });
      await t.db.db
        .updateTable('channels')
        .set({ status: 3 })
        .where('id', '=', auto as number)
        .execute();
      const res = await call<number>('DELETE', '/api/channel/disabled');
      expect(res.body.data).toBe(2);
      expect((await call('GET', `/api/channel/${on}`)).status).toBe(200);
      expect(await abilities(off as number)).toHaveLength(0);

      const [x] = await create(channel());
      const batch = await call<number>('POST', '/api/channel/batch', { ids: [on, x, 999999] });
      expect(batch.body.data).toBe(2);
      expect((await call<ChannelView[]>('GET', '/api/channel/')).body.data).toEqual([]);
      for (const payload of [{ ids: [] }, {}]) {
        expectRefusal((await call('POST', '/api/channel/batch', payload)).res, MSG.selectChannelsToDelete);
      }
    });
  });

  describe('copy', () => {
    it('copies a channel with its key, a suffixed name and a reset balance', async () => {
      const [id] = await create(channel({ name: 'orig', tag: 'tg' }));
      await t.db.db
        .updateTable('channels')
        .set({ balance: 12.5, used_quota: 99 })
        .where('id', '=', id as number)
        .execute();
      const res = await call<{ id: number }>('POST', `/api/channel/copy/${id}`);
      const copy = (await call<ChannelView>('GET', `/api/channel/${res.body.data.id}`)).body.data;
      expect(copy).toMatchObject({
        name: 'orig_copy',
        tag: 'tg',
        balance: 0,
        used_quota: 0,
        models: 'gpt-4o,gpt-4o-mini',
      });
      expect(await storedKey(res.body.data.id)).toBe('sk-secret-key-1');
      expect(await abilities(res.body.data.id)).toHaveLength(2);
    });
  });

  describe('model catalogs', () => {
    it('serves the per-type catalog and the list of known and configured models', async () => {
      const types = await call<Record<string, string[]>>('GET', '/api/models');
      expect(types.body.data['2']).toContain('mj_imagine');
      expect(types.body.data['5']).toEqual(expect.arrayContaining(['mj_imagine', 'swap_face', 'mj_pan']));
      expect(types.body.data['36']).toEqual(['suno_music', 'suno_lyrics']);
      await create(channel({ models: 'gpt-4o,my-private-model' }));
      const models = await call<{ id: string; object: string; owned_by: string }[]>(
        'GET',
        '/api/channel/models',
      );
      expect(models.body.data).toContainEqual({
        id: 'my-private-model',
        object: 'model',
        owned_by: 'custom',
      });
      expect(models.body.data).toContainEqual({ id: 'gpt-4o', object: 'model', owned_by: 'OpenAI' });
      expect(models.body.data.filter((m) => m.id === 'gpt-4o')).toHaveLength(1);
    });

    it('lists the distinct models of enabled channels only', async () => {
      await create(channel({ models: 'gpt-4o,o1', groups: ['default', 'vip'] }));
      await create(channel({ models: 'o1,claude-3-haiku' }));
      const [off] = await create(channel({ models: 'only-on-a-disabled-channel,gpt-4o' }));
      await call('PUT', '/api/channel/', { id: off, status: 2 });
      const res = await call<string[]>('GET', '/api/channel/models_enabled');
      expect(res.body).toMatchObject({ success: true, message: '' });
      expect(res.body.data).toEqual(['claude-3-haiku', 'gpt-4o', 'o1']);
      await call('PUT', '/api/channel/', { id: off, status: 1 });
      expect((await call<string[]>('GET', '/api/channel/models_enabled')).body.data).toContain(
        'only-on-a-disabled-channel',
      );
    });
  });

  describe('paths', () => {
    it('answers an unknown word under /api/channel/ as not found, not as a bad id', async () => {
      const [id] = await create(channel());
      for (const [method, url] of [
        ['GET', '/api/channel/nonsense'],
        ['GET', '/api/channel/fetch_models'],
        ['GET', `/api/channel/${id}abc`],
        ['GET', '/api/channel/1e3'],
        ['GET', '/api/channel/0x10'],
        ['GET', '/api/channel/-1'],
        ['GET', '/api/channel/99999999999999999999'],
        ['DELETE', '/api/channel/nonsense/'],
        ['POST', '/api/channel/copy/nonsense'],
        ['GET', '/api/channel/test/nonsense'],
        ['GET', '/api/channel/update_balance/nonsense'],
      ] as const) {
        expectRefusal((await call(method, url)).res, MSG.notFound);
      }
      // Decimal ids of channels that do not exist are the channel's own "not found".
      expectRefusal((await call('GET', '/api/channel/0')).res, MSG.channelNotFound);
      expectRefusal((await call('GET', '/api/channel/424242')).res, MSG.channelNotFound);
      expect((await call<ChannelView>('GET', `/api/channel/${id}`)).body.data.id).toBe(id);
    });
  });

  describe('cache invalidation and permissions', () => {
    it('tells the relay to reload after a write', async () => {
      let reloads = 0;
      const off = t.app.ctx.bus.subscribe('channels', () => reloads++);
      const [id] = await create(channel());
      await call('PUT', '/api/channel/', { id, priority: 3 });
      await call('POST', '/api/channel/batch/tag', { ids: [id], tag: 'tg' });
      await call('DELETE', `/api/channel/${id}`);
      off();
      expect(reloads).toBe(4);
    });

    it('refuses regular users', async () => {
      for (const [method, url] of [
        ['GET', '/api/channel/'],
        ['POST', '/api/channel/'],
        ['GET', '/api/channel/search'],
        ['GET', '/api/models'],
        ['PUT', '/api/channel/tag'],
        ['GET', '/api/channel/models_enabled'],
        ['POST', '/api/channel/fetch_models'],
        ['POST', '/api/channel/batch/tag'],
      ] as const) {
        const res = await t.call({ method, url, as: user, payload: {} });
        expectRefusal(res, MSG.forbidden);
      }
    });
  });
});
