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

describe.each(testDialects())('channel tags on %s', (dialect) => {
  let t: TestApp;
  let admin: Caller;
  let ids: number[];

  const call = async <T = unknown>(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const res = await t.call({ method, url, as: admin, ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: res.json<Body<T>>(), res };
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
    expectRefusal((await call('POST', '/api/channel/tag/enabled', {})).res, MSG.tagRequired);
    expectRefusal((await call('POST', '/api/channel/tag/disabled', { tag: 'nope' })).res, MSG.tagNotFound);
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
    const cases: [object, string][] = [
      [{ tag: 'team' }, MSG.noChanges],
      [{ tag: 'team', newTag: 'team' }, MSG.noChanges],
      [{ tag: 'team', model_mapping: '{bad' }, MSG.notValidJson],
      [{ tag: 'team', priority: 'high' }, MSG.priorityNotInteger],
      [{ tag: 'team', weight: -1 }, MSG.weightNotNonNegative],
      [{ tag: 'team', weight: 1.5 }, MSG.weightNotNonNegative],
      [{ priority: 1 }, MSG.tagRequired],
      [{ tag: 'nope', priority: 1 }, MSG.tagNotFound],
    ];
    for (const [payload, message] of cases) {
      expectRefusal((await call('PUT', '/api/channel/tag', payload)).res, message);
    }
    expect((await channels()).map((c) => c.priority)).toEqual([0, 0, 0]);
  });

  describe('batch tag', () => {
    const [a, b, c] = [0, 1, 2];
    const tags = async () => (await channels()).map((ch) => ch.tag);
    const abilityTags = async () => (await abilities()).map((r) => r.tag);

    it('sets the tag of the chosen channels, abilities included, and answers how many', async () => {
      const res = await call<number>('POST', '/api/channel/batch/tag', {
        ids: [ids[a], ids[c], ids[c], 999999],
        tag: '  crew ',
      });
      expect(res.body).toEqual({ success: true, message: '', data: 2 });
      expect(await tags()).toEqual(['crew', 'team', 'crew']);
      expect(await abilityTags()).toEqual(['crew', 'team', 'crew']);
    });

    it('clears the tag when it is empty or null', async () => {
      expect(
        (await call<number>('POST', '/api/channel/batch/tag', { ids: [ids[a]], tag: null })).body.data,
      ).toBe(1);
      expect(
        (await call<number>('POST', '/api/channel/batch/tag', { ids: [ids[b]], tag: '' })).body.data,
      ).toBe(1);
      expect(await tags()).toEqual(['', '', 'other']);
      expect(await abilityTags()).toEqual(['', '', 'other']);
      // The tag is gone from the tag-wide actions too.
      expectRefusal((await call('POST', '/api/channel/tag/disabled', { tag: 'team' })).res, MSG.tagNotFound);
    });

    it('refuses an empty selection, bad ids and bad tags without touching any channel', async () => {
      for (const payload of [{}, { ids: [], tag: 'x' }, { ids: 'all', tag: 'x' }, { ids: [ids[a], 'x'] }]) {
        expectRefusal((await call('POST', '/api/channel/batch/tag', payload)).res);
      }
      const noIds = await call('POST', '/api/channel/batch/tag', { tag: 'x' });
      expectRefusal(noIds.res, MSG.selectChannelsFirst);
      expectRefusal((await call('POST', '/api/channel/batch/tag', { ids: [ids[a]], tag: 5 })).res);
      // Longer than the column holds (a database error on PostgreSQL and MySQL otherwise).
      const tooLong = await call('POST', '/api/channel/batch/tag', { ids: [ids[a]], tag: 'x'.repeat(256) });
      expectRefusal(tooLong.res, MSG.tagTooLong(255));
      const renamedTooLong = await call('PUT', '/api/channel/tag', { tag: 'team', newTag: 'x'.repeat(256) });
      expectRefusal(renamedTooLong.res, MSG.tagTooLong(255));
      expect(await tags()).toEqual(['team', 'team', 'other']);
    });

    it('takes a tag as long as the column holds', async () => {
      const res = await call<number>('POST', '/api/channel/batch/tag', {
        ids: [ids[b]],
        tag: 'y'.repeat(255),
      });
      expect(res.body.data).toBe(1);
      expect(await tags()).toEqual(['team', 'y'.repeat(255), 'other']);
    });
  });
});
