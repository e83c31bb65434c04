// The drawing and async task lists as new-api's console calls them: 0-based `p`, a plain array of
// rows, drawing times in milliseconds and task times in seconds, filters that do not parse ignored,
// and users seeing only their own rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '@sluice/shared';
import type { MidjourneyItem, TaskItem } from '@sluice/shared';
import { testDialects } from '../../test-support/databases.js';
import { createTestApp, expectRefusal } from '../../test-support/test-app.js';
import type { Caller, TestApp } from '../../test-support/test-app.js';

interface Answer<T> {
  success: boolean;
  message: string;
  data: T;
}

/** Drawing times: unix milliseconds. */
const T0_MS = 1_800_000_000_000;
/** Task times: unix seconds. */
const T0 = 1_800_000_000;

describe.each(testDialects())('drawing and task lists on %s', (dialect) => {
  let t: TestApp;
  let admin: Caller;
  let alice: Caller;
  let bob: Caller;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.createUser({ role: ROLE.admin });
    alice = await t.createUser();
    bob = await t.createUser();
    const text = { prompt: 'a cat', prompt_en: 'a cat', description: '', state: '', image_url: '' };
    const more = { fail_reason: '', buttons: '[]', properties: '{}', status: 'SUCCESS' };
    // Alice's 12 drawings, 100 s apart, each taking 30.5 s; then Bob's one (the newest id).
    await t.db.db
      .insertInto('midjourneys')
      .values([
        ...Array.from({ length: 12 }, (_, i) => ({
          ...text,
          ...more,
          user_id: alice.id,
          mj_id: `mj-a${i}`,
          action: 'IMAGINE',
          channel_id: i % 2 === 0 ? 3 : 4,
          submit_time: T0_MS + i * 100_000,
          start_time: T0_MS + i * 100_000 + 500,
          finish_time: T0_MS + i * 100_000 + 30_500,
        })),
        {
          ...text,
          ...more,
          user_id: bob.id,
          mj_id: 'mj-b0',
          action: 'UPSCALE',
          channel_id: 3,
          submit_time: T0_MS + 50_000,
          start_time: 0,
          finish_time: 0,
        },
      ])
      .execute();
    const task = { fail_reason: '', properties: '{}', data: '{}', platform: 'suno', finish_time: 0 };
    await t.db.db
      .insertInto('tasks')
      .values([
        { ...task, user_id: alice.id, task_id: 'suno-1', action: 'MUSIC', channel_id: 5, submit_time: T0 },
        {
          ...task,
          user_id: alice.id,
          task_id: 'suno-2',
          action: 'LYRICS',
          channel_id: 6,
          submit_time: T0 + 10,
          finish_time: T0 + 70,
        },
        { ...task, user_id: bob.id, task_id: 'suno-3', action: 'MUSIC', channel_id: 5, submit_time: T0 + 20 },
      ])
      .execute();
  });
  afterAll(async () => t?.close());

  /** One page as the console asks for it; the answer must be a plain array. */
  const rows = async <T>(as: Caller, url: string, query: Record<string, string | number> = {}) => {
    const res = await t.call({
      method: 'GET',
      url,
      as,
      query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
    });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<Answer<T[]>>();
    expect(answer.success, answer.message).toBe(true);
    expect(Array.isArray(answer.data), res.body).toBe(true);
    return answer.data;
  };
  const mjIds = async (as: Caller, url: string, query: Record<string, string | number> = {}) =>
    (await rows<MidjourneyItem>(as, url, query)).map((r) => r.mj_id);
  const taskIds = async (as: Caller, url: string, query: Record<string, string | number> = {}) =>
    (await rows<TaskItem>(as, url, query)).map((r) => r.task_id);

  it('pages all drawings for admins from p=0, newest first, as plain arrays', async () => {
    const first = await rows<MidjourneyItem>(admin, '/api/mj/', { p: 0 });
    expect(first).toHaveLength(10);
    expect(first[0]).toMatchObject({ mj_id: 'mj-b0', channel_id: 3, user_id: bob.id });
    expect(first.slice(1, 3).map((r) => r.mj_id)).toEqual(['mj-a11', 'mj-a10']);
    // The second page is short: the console knows it is the last.
    expect(await mjIds(admin, '/api/mj/', { p: 1 })).toEqual(['mj-a2', 'mj-a1', 'mj-a0']);
    expect(await mjIds(admin, '/api/mj/', { p: 2 })).toEqual([]);
    // No p, a p that does not parse and a negative one are all the first page.
    const firstIds = first.map((r) => r.mj_id);
    expect(await mjIds(admin, '/api/mj/')).toEqual(firstIds);
    expect(await mjIds(admin, '/api/mj/', { p: 'abc' })).toEqual(firstIds);
    expect(await mjIds(admin, '/api/mj/', { p: 'NaN' })).toEqual(firstIds);
    expect(await mjIds(admin, '/api/mj/', { p: -2 })).toEqual(firstIds);
    expect(await mjIds(admin, '/api/mj/', { p: '1.5' })).toEqual(firstIds);
    // A page number too large to be one is read as the first page too, never an error.
    expect(await mjIds(admin, '/api/mj/', { p: '100000000000000000000' })).toEqual(firstIds);
    expect(await mjIds(admin, '/api/mj/', { p: 999_999 })).toEqual([]);
  });

  it('honours page_size, capped at 100', async () => {
    expect(await mjIds(admin, '/api/mj/', { p: 1, page_size: 5 })).toEqual([
      'mj-a7',
      'mj-a6',
      'mj-a5',
      'mj-a4',
      'mj-a3',
    ]);
    expect(await mjIds(admin, '/api/mj/', { p: 2, page_size: 5 })).toHaveLength(3);
    expect(await mjIds(admin, '/api/mj/', { page_size: 1000 })).toHaveLength(13);
    expect(await mjIds(admin, '/api/mj/', { page_size: 'many' })).toHaveLength(10);
    // Huge numbers in the filters match nothing rather than overflow a 64-bit column.
    expect(await mjIds(admin, '/api/mj/', { channel_id: '1'.repeat(30) })).toEqual([]);
    expect(await mjIds(admin, '/api/mj/', { start_timestamp: '9'.repeat(30) })).toEqual([]);
  });

  it('answers drawing times in milliseconds and filters on them in milliseconds', async () => {
    const [a3] = await rows<MidjourneyItem>(admin, '/api/mj/', { mj_id: 'mj-a3' });
    expect(a3).toMatchObject({
      submit_time: T0_MS + 300_000,
      start_time: T0_MS + 300_500,
      finish_time: T0_MS + 330_500,
    });
    expect(
      await mjIds(admin, '/api/mj/', { start_timestamp: T0_MS + 100_000, end_timestamp: T0_MS + 300_000 }),
    ).toEqual(['mj-a3', 'mj-a2', 'mj-a1']);
    // One millisecond past a drawing's submit time leaves it out.
    expect(
      await mjIds(admin, '/api/mj/', { start_timestamp: T0_MS + 100_001, end_timestamp: T0_MS + 300_000 }),
    ).toEqual(['mj-a3', 'mj-a2']);
    // The same moment in seconds is long before every drawing: as an end bound it matches none.
    expect(await mjIds(admin, '/api/mj/', { end_timestamp: T0 + 300 })).toEqual([]);
  });

  it('ignores drawing filters that do not parse instead of refusing them', async () => {
    const all = { page_size: 100 };
    expect(
      await mjIds(admin, '/api/mj/', { ...all, start_timestamp: 'NaN', end_timestamp: 'NaN' }),
    ).toHaveLength(13);
    expect(await mjIds(admin, '/api/mj/', { ...all, start_timestamp: '', end_timestamp: '' })).toHaveLength(
      13,
    );
    expect(await mjIds(admin, '/api/mj/', { ...all, channel_id: 'NaN', mj_id: '' })).toHaveLength(13);
    // The classic console's query when its date fields are cleared, with a real filter beside them.
    expect(
      await mjIds(admin, '/api/mj/', {
        p: 0,
        channel_id: 4,
        mj_id: '',
        start_timestamp: 'NaN',
        end_timestamp: 'NaN',
      }),
    ).toEqual(['mj-a11', 'mj-a9', 'mj-a7', 'mj-a5', 'mj-a3', 'mj-a1']);
    expect(await mjIds(admin, '/api/mj/', { mj_id: 'mj-a5' })).toEqual(['mj-a5']);
  });

  it('shows a user only their own drawings, ignoring the channel filter, without channel ids', async () => {
    const mine = await rows<MidjourneyItem>(bob, '/api/mj/self/', { channel_id: 4 });
    expect(mine.map((r) => r.mj_id)).toEqual(['mj-b0']);
    expect(mine[0]).toMatchObject({ user_id: bob.id, submit_time: T0_MS + 50_000 });
    expect(mine[0]).not.toHaveProperty('channel_id');
    expect(await mjIds(alice, '/api/mj/self', { mj_id: 'mj-b0' })).toEqual([]);
    const alicePage2 = await rows<MidjourneyItem>(alice, '/api/mj/self', { p: 1 });
    expect(alicePage2.map((r) => r.mj_id)).toEqual(['mj-a1', 'mj-a0']);
    expect(alicePage2.every((r) => r.user_id === alice.id)).toBe(true);
    expect(
      await mjIds(alice, '/api/mj/self/', { start_timestamp: 'NaN', end_timestamp: T0_MS + 100_000 }),
    ).toEqual(['mj-a1', 'mj-a0']);
    expectRefusal(await t.call({ method: 'GET', url: '/api/mj/', as: alice }));
  });

  it('pages tasks for admins from p=0 with times and filters in seconds', async () => {
    const all = await rows<TaskItem>(admin, '/api/task/', { p: 0 });
    expect(all.map((r) => r.task_id)).toEqual(['suno-3', 'suno-2', 'suno-1']);
    expect(all[1]).toMatchObject({ submit_time: T0 + 10, finish_time: T0 + 70, channel_id: 6 });
    expect(await taskIds(admin, '/api/task/', { p: 0, page_size: 2 })).toEqual(['suno-3', 'suno-2']);
    expect(await taskIds(admin, '/api/task/', { p: 1, page_size: 2 })).toEqual(['suno-1']);
    expect(await taskIds(admin, '/api/task/', { p: 'x', page_size: 2 })).toEqual(['suno-3', 'suno-2']);
    expect(await taskIds(admin, '/api/task/', { channel_id: 5 })).toEqual(['suno-3', 'suno-1']);
    expect(await taskIds(admin, '/api/task/', { task_id: 'suno-2' })).toEqual(['suno-2']);
    expect(await taskIds(admin, '/api/task/', { start_timestamp: T0 + 5, end_timestamp: T0 + 15 })).toEqual([
      'suno-2',
    ]);
    expect(
      await taskIds(admin, '/api/task/', { start_timestamp: 'NaN', end_timestamp: 'NaN', channel_id: '' }),
    ).toHaveLength(3);
    expectRefusal(await t.call({ method: 'GET', url: '/api/task/', as: alice }));
  });

  it('shows a user only their own tasks, ignoring the channel filter, without channel ids', async () => {
    const mine = await rows<TaskItem>(alice, '/api/task/self', { start_timestamp: T0 + 5, channel_id: 5 });
    expect(mine.map((r) => r.task_id)).toEqual(['suno-2']);
    expect(mine[0]).not.toHaveProperty('channel_id');
    expect(await taskIds(alice, '/api/task/self/', { start_timestamp: 'NaN' })).toEqual(['suno-2', 'suno-1']);
    expect(await taskIds(alice, '/api/task/self', { task_id: 'suno-3' })).toEqual([]);
  });

  it('works with a personal access token', async () => {
    await t.db.db
      .updateTable('users')
      .set({ access_token: 'pat-tasks-bob' })
      .where('id', '=', bob.id)
      .execute();
    const res = await t.call({
      method: 'GET',
      url: '/api/task/self',
      headers: { authorization: 'pat-tasks-bob' },
    });
    expect(res.json<Answer<TaskItem[]>>().data.map((i) => i.task_id)).toEqual(['suno-3']);
  });
  it("shows Sluice's image address for a drawing when MjForwardUrlEnabled is on, the upstream's when off", async () => {
    await t.db.db
      .insertInto('midjourneys')
      .values({
        prompt: 'a dog',
        prompt_en: '',
        description: '',
        state: '',
        image_url: 'http://10.0.0.7:8080/attachments/dog.png',
        fail_reason: '',
        buttons: '[]',
        properties: '{}',
        status: 'SUCCESS',
        user_id: alice.id,
        mj_id: '1800000000000123456',
        action: 'IMAGINE',
        channel_id: 3,
        submit_time: T0_MS,
      })
      .execute();
    const image = async () =>
      (await rows<MidjourneyItem>(alice, '/api/mj/self', { mj_id: '1800000000000123456' }))[0]?.image_url;
    await t.app.ctx.options.set('ServerAddress', 'https://relay.example.com/');
    await t.app.ctx.options.set('MjForwardUrlEnabled', 'true');
    expect(await image()).toBe('https://relay.example.com/mj/image/1800000000000123456');
    await t.app.ctx.options.set('MjForwardUrlEnabled', 'false');
    expect(await image()).toBe('http://10.0.0.7:8080/attachments/dog.png');
  });
});
