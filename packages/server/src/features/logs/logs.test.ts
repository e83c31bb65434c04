import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOG_TYPE, MSG, ROLE } from '@sluice/shared';
import type { LogItem, LogStat, Page } from '@sluice/shared';
import type { Insertable } from 'kysely';
import type { LogsTable } from '../../db/tables.js';
import type { Clock } from '../../platform/clock.js';
import { testDialects } from '../../test-support/databases.js';
import { createTestApp, expectRefusal } from '../../test-support/test-app.js';
import type { Caller, TestApp } from '../../test-support/test-app.js';
import { LOG_RETENTION_JOB } from './log-retention.js';

interface Answer<T> {
  success: boolean;
  message: string;
  data: T;
}

const NOW = 1_900_000_000;
const clock: Clock = { now: () => NOW, nowMs: () => NOW * 1000 };

describe.each(testDialects())('logs API on %s', (dialect) => {
  let t: TestApp;
  let root: Caller;
  let admin: Caller;
  let alice: Caller;
  let bob: Caller;

  const log = (who: Caller, p: Partial<Insertable<LogsTable>>): Insertable<LogsTable> => ({
    user_id: who.id,
    username: who.username,
    created_at: NOW - 3600,
    type: LOG_TYPE.consume,
    content: '',
    token_name: 'main',
    model_name: 'gpt-4o',
    quota: 100,
    prompt_tokens: 10,
    completion_tokens: 5,
    channel_id: 1,
    other: JSON.stringify({ model_ratio: 1.25, admin_info: { use_channel: [1] } }),
    ...p,
  });

  beforeAll(async () => {
    t = await createTestApp({ dialect, clock });
    root = await t.createUser({ role: ROLE.root });
    admin = await t.createUser({ role: ROLE.admin });
    alice = await t.createUser();
    bob = await t.createUser();
    // The suite counts exactly the rows it writes: the first start's row (root's initial quota) goes.
    await t.db.db.deleteFrom('logs').execute();
    const rows: Insertable<LogsTable>[] = [];
    // Alice: 25 consumption rows one minute apart, the newest 30 s ago; one top-up.
    for (let i = 0; i < 25; i++) {
      rows.push(
        log(alice, {
          created_at: NOW - 30 - i * 60,
          model_name: i % 5 === 0 ? 'claude-3' : 'gpt-4o',
          token_name: i < 10 ? 'laptop' : 'server',
          channel_id: i % 2 === 0 ? 7 : 8,
          quota: 1000 + i,
          prompt_tokens: 100,
          completion_tokens: 20,
        }),
      );
    }
    rows.push(
      log(alice, {
        type: LOG_TYPE.topup,
        created_at: NOW - 10,
        quota: 500000,
        content: 'top-up',
        channel_id: 0,
      }),
    );
    // Bob: three rows, one of them within the last minute.
    rows.push(
      log(bob, { created_at: NOW - 5, quota: 7, prompt_tokens: 1, completion_tokens: 1, channel_id: 9 }),
    );
    rows.push(log(bob, { created_at: NOW - 86400 * 40, quota: 3 }));
    rows.push(log(bob, { created_at: NOW - 86400 * 50, quota: 3, other: 'not json' }));
    await t.db.db.insertInto('logs').values(rows).execute();
    for (const [id, name] of [
      [7, 'primary'],
      [9, 'backup'],
    ] as const) {
      await t.db.db
        .insertInto('channels')
        .values({
          id,
          name,
          key: `key-${name}`,
          other: '',
          models: 'gpt-4o',
          model_mapping: '',
          status_code_mapping: '',
          other_info: '',
          setting: '',
        })
        .execute();
    }
  });
  afterAll(async () => t?.close());

  const get = async <T>(as: Caller, url: string, query: Record<string, string | number> = {}) => {
    const res = await t.call({
      method: 'GET',
      url,
      as,
      query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
    });
    return { status: res.statusCode, body: res.json<Answer<T>>() };
  };
  const list = (as: Caller, url: string, query: Record<string, string | number> = {}) =>
    get<Page<LogItem>>(as, url, query).then((r) => r.body.data);

  it('pages every user’s logs newest first with 1-based pages and a total', async () => {
    const first = await list(admin, '/api/log/', { p: 1, page_size: 10 });
    expect(first).toMatchObject({ page: 1, page_size: 10, total: 29 });
    expect(first.items).toHaveLength(10);
    const all = [
      ...first.items,
      ...(await list(admin, '/api/log/', { p: 2, page_size: 10 })).items,
      ...(await list(admin, '/api/log/', { p: 3, page_size: 10 })).items,
    ];
    expect(all).toHaveLength(29);
    const times = all.map((r) => r.created_at);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(new Set(all.map((r) => r.id)).size).toBe(29);
    expect(first.items[0]).toMatchObject({ username: bob.username, channel: 9, is_stream: false });
    // Admins see the routing details.
    expect(JSON.parse(first.items[0]?.other ?? '{}')).toHaveProperty('admin_info');
    expect((await list(admin, '/api/log/', { p: 4, page_size: 10 })).items).toEqual([]);
  });

  it('filters by type, username, token, model, channel and time range', async () => {
    const total = async (query: Record<string, string | number>) =>
      (await list(admin, '/api/log/', query)).total;
    expect(await total({ type: LOG_TYPE.topup })).toBe(1);
    expect(await total({ type: LOG_TYPE.consume })).toBe(28);
    expect(await total({ type: 0, username: bob.username })).toBe(3);
    expect(await total({ token_name: 'laptop' })).toBe(10);
    expect(await total({ model_name: 'claude-3' })).toBe(5);
    expect(await total({ channel: 7 })).toBe(13);
    expect(await total({ start_timestamp: NOW - 300, end_timestamp: NOW })).toBe(7);
    expect(await total({ username: alice.username, model_name: 'gpt-4o', channel: 8 })).toBe(10);
    expect(await total({ username: 'nobody' })).toBe(0);
  });

  it('names each row’s channel for admins as the channel is called now, and nothing once it is gone', async () => {
    const channelNames = async () => {
      const items = (await list(admin, '/api/log/', { page_size: 100 })).items;
      return new Map(items.map((r) => [r.channel, r.channel_name]));
    };
    // Channels 1 and 8 do not exist (as after a deletion); 7 and 9 do; the top-up row has none.
    expect(await channelNames()).toEqual(
      new Map([
        [0, ''],
        [1, ''],
        [7, 'primary'],
        [8, ''],
        [9, 'backup'],
      ]),
    );
    await t.db.db.updateTable('channels').set({ name: 'primary (eu)' }).where('id', '=', 7).execute();
    expectRefusal(await t.call({ method: 'DELETE', url: '/api/channel/9', as: alice }));
    const deleted = await t.call({ method: 'DELETE', url: '/api/channel/9', as: admin });
    expect(deleted.json<Answer<unknown>>().success).toBe(true);
    expect(await channelNames()).toEqual(
      new Map([
        [0, ''],
        [1, ''],
        [7, 'primary (eu)'],
        [8, ''],
        [9, ''],
      ]),
    );
  });

  it('shows a user only their own rows, without channel ids or admin details', async () => {
    const mine = await list(alice, '/api/log/self/', { page_size: 100 });
    expect(mine.total).toBe(26);
    expect(mine.items.every((r) => r.user_id === alice.id)).toBe(true);
    for (const item of mine.items) {
      expect(item).not.toHaveProperty('channel');
      expect(item).not.toHaveProperty('channel_name');
      expect(item.other).not.toContain('admin_info');
    }
    expect(JSON.parse(mine.items[1]?.other ?? '')).toEqual({ model_ratio: 1.25 });
    // The admin-only filters cannot widen or probe a user's view.
    expect((await list(alice, '/api/log/self/', { username: bob.username })).total).toBe(26);
    expect((await list(alice, '/api/log/self/', { channel: 7 })).total).toBe(26);
    const bobs = await list(bob, '/api/log/self', { page_size: 100 });
    expect(bobs.total).toBe(3);
    // Details that cannot be read are dropped rather than shown.
    expect(bobs.items[2]?.other).toBe('');
  });

  it('refuses the all-users list and stats to a regular user', async () => {
    for (const url of ['/api/log/', '/api/log/stat']) {
      expectRefusal(await t.call({ method: 'GET', url, as: alice }));
    }
  });

  it('sums consumption and counts the last minute for the stat badges', async () => {
    const all = await get<LogStat>(admin, '/api/log/stat');
    const aliceQuota = Array.from({ length: 25 }, (_, i) => 1000 + i).reduce((a, b) => a + b, 0);
    // Top-ups are not consumption; rpm/tpm count rows of the last 60 s.
    expect(all.body.data).toEqual({ quota: aliceQuota + 7 + 3 + 3, rpm: 2, tpm: 120 + 2 });
    const filtered = await get<LogStat>(admin, '/api/log/stat', {
      username: alice.username,
      token_name: 'laptop',
    });
    expect(filtered.body.data).toEqual({
      quota: Array.from({ length: 10 }, (_, i) => 1000 + i).reduce((a, b) => a + b, 0),
      rpm: 1,
      tpm: 120,
    });
    const self = await get<LogStat>(bob, '/api/log/self/stat', { username: alice.username });
    expect(self.body.data).toEqual({ quota: 13, rpm: 1, tpm: 2 });
    const empty = await get<LogStat>(bob, '/api/log/self/stat', { model_name: 'none' });
    expect(empty.body.data).toEqual({ quota: 0, rpm: 0, tpm: 0 });
  });

  it('ignores a number that does not parse, as new-api does, instead of refusing the page', async () => {
    const total = async (as: Caller, url: string, query: Record<string, string>) =>
      (await list(as, url, query)).total;
    // The classic log page sends start_timestamp=NaN when a date is cleared; new-api reads that, like
    // any spelling Go's Atoi does not take, as 0: no filter. Read as numbers, '0x1' and '1e0' would be
    // channel 1 (two rows) and '2.0' channel 2 (none).
    for (const bad of ['NaN', '', 'yesterday', '0x1', '1e0', '2.0', 'Infinity']) {
      const filters = { start_timestamp: bad, end_timestamp: bad, channel: bad, type: bad };
      expect(await total(admin, '/api/log/', filters), bad).toBe(29);
      expect(await total(alice, '/api/log/self/', filters), bad).toBe(26);
    }
    // A cleared date beside filters that parse leaves those working.
    expect(
      await total(admin, '/api/log/', { channel: '7', start_timestamp: 'NaN', end_timestamp: 'NaN' }),
    ).toBe(13);
    expect(
      await total(alice, '/api/log/self/', {
        type: String(LOG_TYPE.topup),
        start_timestamp: 'NaN',
        end_timestamp: String(NOW),
      }),
    ).toBe(1);
    // Decimal digits with blanks around them still count.
    expect(await total(admin, '/api/log/', { channel: ' 7 ' })).toBe(13);
    const all = (await get<LogStat>(admin, '/api/log/stat')).body.data;
    const nanStat = await get<LogStat>(admin, '/api/log/stat', {
      start_timestamp: 'NaN',
      end_timestamp: 'NaN',
      channel: '',
    });
    expect(nanStat.body).toMatchObject({ success: true, data: all });
    // A type that parses but names none is still refused.
    expectRefusal(
      await t.call({ method: 'GET', url: '/api/log/', as: admin, query: { type: '9' } }),
      'unknown log type',
    );
  });

  it('reads a page number or size that does not parse as the first page and the default size', async () => {
    const first = await list(admin, '/api/log/', { page_size: 10 });
    const pageOf = async (query: Record<string, string>) => {
      const page = await list(admin, '/api/log/', query);
      return { page: page.page, page_size: page.page_size, ids: page.items.map((r) => r.id) };
    };
    const firstPage = { page: 1, page_size: 10, ids: first.items.map((r) => r.id) };
    // '2.0', '0x2' and '1e1' are not page 2 or 10; 0 and negatives are before the first page.
    for (const p of ['NaN', '', '0', '-3', '2.0', '0x2', '1e1', '99999999999999999999']) {
      expect(await pageOf({ p, page_size: '10' }), p).toEqual(firstPage);
    }
    for (const size of ['abc', '', '0', '-5', '1e1']) {
      expect(await pageOf({ p: '1', page_size: size }), size).toEqual(firstPage);
    }
    expect((await pageOf({ p: '2', page_size: '10' })).page).toBe(2);
  });

  it('works with a personal access token', async () => {
    await t.db.db
      .updateTable('users')
      .set({ access_token: 'pat-logs-alice' })
      .where('id', '=', alice.id)
      .execute();
    const res = await t.call({
      method: 'GET',
      url: '/api/log/self/',
      headers: { authorization: 'pat-logs-alice' },
    });
    expect(res.json<Answer<Page<LogItem>>>().data.total).toBe(26);
  });

  it('purges logs older than the target time for the super admin only', async () => {
    const target = NOW - 86400 * 45;
    expectRefusal(await t.call({ method: 'DELETE', url: `/api/log/?target_timestamp=${target}`, as: admin }));
    const missing = await t.call({ method: 'DELETE', url: '/api/log/', as: root });
    expectRefusal(missing);
    expect(missing.json().message).toBe(MSG.selectLogTime);
    const res = await t.call({ method: 'DELETE', url: `/api/log/?target_timestamp=${target}`, as: root });
    expect(res.json<Answer<number>>().data).toBe(1);
    expect((await list(admin, '/api/log/')).total).toBe(28);
  });

  it('deletes logs past LogRetentionDays in the background job, and keeps them when it is 0', async () => {
    await t.app.ctx.options.set('LogRetentionDays', '0');
    expect(await t.app.ctx.scheduler.runNow(LOG_RETENTION_JOB)).toBe(true);
    expect((await list(admin, '/api/log/')).total).toBe(28);
    await t.app.ctx.options.set('LogRetentionDays', '30');
    expect(await t.app.ctx.scheduler.runNow(LOG_RETENTION_JOB)).toBe(true);
    const left = await list(admin, '/api/log/', { page_size: 100 });
    expect(left.total).toBe(27);
    expect(left.items.every((r) => r.created_at >= NOW - 30 * 86400)).toBe(true);
  });
});

describe.each(testDialects())('log facts on %s', (dialect) => {
  let t: TestApp;
  let admin: Caller;
  let alice: Caller;

  beforeAll(async () => {
    t = await createTestApp({ dialect, clock });
    admin = await t.createUser({ role: ROLE.admin });
    alice = await t.createUser({ quota: 100 });
  });
  afterAll(async () => t?.close());

  const otherOfFirst = async (as: Caller, url: string) => {
    const res = await t.call({ method: 'GET', url, as, query: { type: String(LOG_TYPE.manage) } });
    const items = res.json<Answer<Page<LogItem>>>().data.items;
    expect(items).toHaveLength(1);
    return JSON.parse(items[0]?.other ?? '') as unknown;
  };

  it('records an admin’s quota change as facts, and tells only admins who made it', async () => {
    const res = await t.call({
      method: 'PUT',
      url: '/api/user/',
      as: admin,
      payload: { id: alice.id, username: alice.username, display_name: 'Alice', quota: 2600, password: '' },
    });
    expect(res.json<Answer<unknown>>().success).toBe(true);
    const facts = { event: 'admin_set_quota', quota_from: 100, quota_to: 2600, quota_delta: 2500 };
    expect(await otherOfFirst(admin, '/api/log/')).toEqual({ ...facts, admin_info: { admin_id: admin.id } });
    expect(await otherOfFirst(alice, '/api/log/self/')).toEqual(facts);
  });
});
