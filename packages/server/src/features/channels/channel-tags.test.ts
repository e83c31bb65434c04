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

describe.each(testDialects())('channel tags on %s', (dialect) => {
  let t: TestApp;
  let admin: Caller;
  let ids: number[];

  const call = async <T = unknown>(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const res = await t.call({ method, url, as: admin, ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: res.json<Body<T>>() };
  };
  const channels = async () =>
    (await call<ChannelView[]>('GET', '/api/channel/?id_sort=true&page_size=100')).body.data.sort(
      (a, b) => a.id - b.id,
    );
  const abilities = () =>
    t.db.db
      .selectFrom('abilities')
      .selectAll()
      .orderBy('channel_id')
      .orderBy('group')
      .orderBy('model')
      .execute();

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.createUser({ role: ROLE.admin });
  });
  afterAll(async () => t?.close());
  beforeEach(async () => {
    await t.db.db.deleteFrom('abilities').execute();
    await t.db.db.deleteFrom('channels').execute();
    ids = [];
    for (const [name, tag] of [
      ['a', 'team'],
      ['b', 'team'],
      ['c', 'other'],
    ]) {
      const res = await call<{ ids: number[] }>('POST', '/api/channel/', {
        name,
        key: `sk-${name}`,
        models: 'gpt-4o',
        tag,
      });
      ids.push(...res.body.data.ids);
    }
  });

  it('disables and enables every channel of a tag, abilities included', async () => {
    const off = await call<number>('POST', '/api/channel/tag/disabled', { tag: 'team' });
    expect(off.body.data).toBe(2);
    expect((await channels()).map((c) => c.status)).toEqual([2, 2, 1]);
    expect((await abilities()).map((a) => a.enabled)).toEqual([0, 0, 1]);
    const on = await call<number>('POST', '/api/channel/tag/enabled', { tag: 'team' });
    expect(on.body.data).toBe(2);
    expect((await channels()).map((c) => c.status)).toEqual([1, 1, 1]);
    expect((await abilities()).map((a) => a.enabled)).toEqual([1, 1, 1]);
  });

  it('validates the tag of enable and disable', async () => {
    const missing = await call('POST', '/api/channel/tag/enabled', {});
    expect({ status: missing.status, message: missing.body.message }).toEqual({
      status: 400,
      message: MSG.tagRequired,
    });
    const unknown = await call('POST', '/api/channel/tag/disabled', { tag: 'nope' });
    expect({ status: unknown.status, message: unknown.body.message }).toEqual({
      status: 404,
      message: MSG.tagNotFound,
    });
  });

  it('renames a tag and sets fields on all its channels', async () => {
    const res = await call<number>('PUT', '/api/channel/tag', {
      tag: 'team',
      newTag: 'crew',
      priority: 8,
      weight: 3,
      model_mapping: '{"gpt-4o":"gpt-4o-mini"}',
      groups: 'default,vip',
      models: 'gpt-4o,o1',
    });
    expect(res.body.data).toBe(2);
    const [a, b, c] = await channels();
    for (const ch of [a, b]) {
      expect(ch).toMatchObject({
        tag: 'crew',
        priority: 8,
        weight: 3,
        model_mapping: '{"gpt-4o":"gpt-4o-mini"}',
        group: 'default,vip',
        models: 'gpt-4o,o1',
      });
    }
    expect(c).toMatchObject({ tag: 'other', priority: 0, models: 'gpt-4o' });
    const rows = (await abilities()).filter((r) => r.channel_id === ids[0]);
    expect(rows.map((r) => `${r.group}/${r.model}/${r.priority}/${r.weight}/${r.tag}`)).toEqual([
      'default/gpt-4o/8/3/crew',
      'default/o1/8/3/crew',
      'vip/gpt-4o/8/3/crew',
      'vip/o1/8/3/crew',
    ]);
  });

  it('changes only what is given', async () => {
    await call('PUT', '/api/channel/tag', {
      tag: 'team',
      priority: 5,
      newTag: '',
      model_mapping: '',
      models: '',
    });
    const [a] = await channels();
    expect(a).toMatchObject({ tag: 'team', priority: 5, weight: 0, models: 'gpt-4o', model_mapping: '' });
  });

  it('answers the tag edit messages', async () => {
    const cases: [object, number, string][] = [
      [{ tag: 'team' }, 400, MSG.noChanges],
      [{ tag: 'team', newTag: 'team' }, 400, MSG.noChanges],
      [{ tag: 'team', model_mapping: '{bad' }, 400, MSG.notValidJson],
      [{ tag: 'team', priority: 'high' }, 400, MSG.priorityNotInteger],
      [{ tag: 'team', weight: -1 }, 400, MSG.weightNotNonNegative],
      [{ tag: 'team', weight: 1.5 }, 400, MSG.weightNotNonNegative],
      [{ priority: 1 }, 400, MSG.tagRequired],
      [{ tag: 'nope', priority: 1 }, 404, MSG.tagNotFound],
    ];
    for (const [payload, status, message] of cases) {
      const res = await call('PUT', '/api/channel/tag', payload);
      expect({ status: res.status, message: res.body.message }).toEqual({ status, message });
    }
    expect((await channels()).map((c) => c.priority)).toEqual([0, 0, 0]);
  });
});
