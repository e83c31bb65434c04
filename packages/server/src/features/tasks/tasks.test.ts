import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '@sluice/shared';
import type { MidjourneyItem, Page, TaskItem } from '@sluice/shared';
import { testDialects } from '../../test-support/databases.js';
import { createTestApp } from '../../test-support/test-app.js';
import type { Caller, TestApp } from '../../test-support/test-app.js';

interface Answer<T> {
  success: boolean;
  message: string;
  data: T;
}

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
    const text = {
      prompt: 'a cat',
      prompt_en: 'a cat',
      description: '',
      state: '',
      image_url: '',
      fail_reason: '',
    };
    const more = { buttons: '[]', properties: '{}' };
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
          submit_time: T0 + i * 100,
          status: 'SUCCESS',
        })),
        {
          ...text,
          ...more,
          user_id: bob.id,
          mj_id: 'mj-b0',
          action: 'UPSCALE',
          channel_id: 3,
          submit_time: T0 + 50,
          status: 'SUCCESS',
        },
      ])
      .execute();
    const task = { fail_reason: '', properties: '{}', data: '{}' };
    await t.db.db
      .insertInto('tasks')
      .values([
        {
          ...task,
          user_id: alice.id,
          task_id: 'suno-1',
          platform: 'suno',
          action: 'MUSIC',
          channel_id: 5,
          submit_time: T0,
        },
        {
          ...task,
          user_id: alice.id,
          task_id: 'suno-2',
          platform: 'suno',
          action: 'LYRICS',
          channel_id: 6,
          submit_time: T0 + 10,
        },
        {
          ...task,
          user_id: bob.id,
          task_id: 'suno-3',
          platform: 'suno',
          action: 'MUSIC',
          channel_id: 5,
          submit_time: T0 + 20,
        },
      ])
      .execute();
  });
  afterAll(async () => t?.close());

  const page = async <T>(as: Caller, url: string, query: Record<string, string | number> = {}) => {
    const res = await t.call({
      method: 'GET',
      url,
      as,
      query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Answer<Page<T>>>().data;
  };

  it('pages all drawings for admins, newest first, with totals and filters', async () => {
    const first = await page<MidjourneyItem>(admin, '/api/mj/', { p: 1, page_size: 10 });
    expect(first).toMatchObject({ page: 1, page_size: 10, total: 13 });
    expect(first.items[0]).toMatchObject({ mj_id: 'mj-b0', channel_id: 3 });
    expect((await page<MidjourneyItem>(admin, '/api/mj/', { p: 2, page_size: 10 })).items).toHaveLength(3);
    expect((await page<MidjourneyItem>(admin, '/api/mj/', { channel_id: 3 })).total).toBe(7);
    expect(
      (await page<MidjourneyItem>(admin, '/api/mj/', { mj_id: 'mj-a5' })).items.map((i) => i.mj_id),
    ).toEqual(['mj-a5']);
    const window = await page<MidjourneyItem>(admin, '/api/mj/', {
      start_timestamp: T0 + 100,
      end_timestamp: T0 + 300,
    });
    expect(window.items.map((i) => i.mj_id)).toEqual(['mj-a3', 'mj-a2', 'mj-a1']);
  });

  it('shows a user only their own drawings, without channel ids', async () => {
    const mine = await page<MidjourneyItem>(bob, '/api/mj/self/', { channel_id: 4 });
    expect(mine.total).toBe(1);
    expect(mine.items[0]).toMatchObject({ mj_id: 'mj-b0', user_id: bob.id });
    expect(mine.items[0]).not.toHaveProperty('channel_id');
    expect((await page<MidjourneyItem>(alice, '/api/mj/self', { mj_id: 'mj-b0' })).total).toBe(0);
    expect((await t.call({ method: 'GET', url: '/api/mj/', as: alice })).statusCode).toBe(403);
  });

  it('pages tasks for admins and for their owners', async () => {
    const all = await page<TaskItem>(admin, '/api/task/');
    expect(all.total).toBe(3);
    expect(all.items.map((i) => i.task_id)).toEqual(['suno-3', 'suno-2', 'suno-1']);
    expect((await page<TaskItem>(admin, '/api/task/', { channel_id: 5 })).total).toBe(2);
    expect((await page<TaskItem>(admin, '/api/task/', { task_id: 'suno-2' })).items[0]).toMatchObject({
      action: 'LYRICS',
      channel_id: 6,
    });
    const mine = await page<TaskItem>(alice, '/api/task/self', { start_timestamp: T0 + 5 });
    expect(mine.items.map((i) => i.task_id)).toEqual(['suno-2']);
    expect(mine.items[0]).not.toHaveProperty('channel_id');
    expect((await t.call({ method: 'GET', url: '/api/task/', as: alice })).statusCode).toBe(403);
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
    expect(res.json<Answer<Page<TaskItem>>>().data.items.map((i) => i.task_id)).toEqual(['suno-3']);
  });
});
