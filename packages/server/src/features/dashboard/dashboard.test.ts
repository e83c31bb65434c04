import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '@sluice/shared';
import type { DashboardRow } from '@sluice/shared';
import { testDialects } from '../../test-support/databases.js';
import { createTestApp, expectRefusal } from '../../test-support/test-app.js';
import type { Caller, TestApp } from '../../test-support/test-app.js';

interface Answer<T> {
  success: boolean;
  message: string;
  data: T;
}

// Monday 2030-01-07 00:00 UTC.
const MONDAY = Date.UTC(2030, 0, 7) / 1000;
const HOUR = 3600;
const DAY = 86400;

describe.each(testDialects())('data dashboard on %s', (dialect) => {
  let t: TestApp;
  let admin: Caller;
  let alice: Caller;
  let bob: Caller;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.createUser({ role: ROLE.admin });
    alice = await t.createUser();
    bob = await t.createUser();
    const bucket = (who: Caller, model: string, at: number, n: number) => ({
      user_id: who.id,
      username: who.username,
      model_name: model,
      created_at: at,
      count: n,
      quota: n * 100,
      token_used: n * 10,
    });
    await t.db.db
      .insertInto('quota_data')
      .values([
        bucket(alice, 'gpt-4o', MONDAY + 1 * HOUR, 1),
        bucket(alice, 'gpt-4o', MONDAY + 2 * HOUR, 2),
        bucket(alice, 'claude-3', MONDAY + 2 * HOUR, 4),
        bucket(alice, 'gpt-4o', MONDAY + DAY + 20 * HOUR, 8),
        bucket(alice, 'gpt-4o', MONDAY + 7 * DAY, 16),
        bucket(bob, 'gpt-4o', MONDAY + 2 * HOUR, 32),
      ])
      .execute();
  });
  afterAll(async () => t?.close());

  const rows = async (as: Caller, url: string, query: Record<string, string | number>) => {
    const res = await t.call({
      method: 'GET',
      url,
      as,
      query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Answer<DashboardRow[]>>().data;
  };
  const range = { start_timestamp: MONDAY, end_timestamp: MONDAY + 14 * DAY };
  const row = (model_name: string, created_at: number, n: number): DashboardRow => ({
    model_name,
    created_at,
    count: n,
    quota: n * 100,
    token_used: n * 10,
  });

  it('groups a user’s own usage by model and hour', async () => {
    expect(await rows(alice, '/api/data/self', { ...range, granularity: 'hour' })).toEqual([
      row('gpt-4o', MONDAY + HOUR, 1),
      row('claude-3', MONDAY + 2 * HOUR, 4),
      row('gpt-4o', MONDAY + 2 * HOUR, 2),
      row('gpt-4o', MONDAY + DAY + 20 * HOUR, 8),
      row('gpt-4o', MONDAY + 7 * DAY, 16),
    ]);
  });

  it('re-buckets by day and by week (weeks start on Monday)', async () => {
    expect(await rows(alice, '/api/data/self', { ...range, granularity: 'day' })).toEqual([
      row('claude-3', MONDAY, 4),
      row('gpt-4o', MONDAY, 3),
      row('gpt-4o', MONDAY + DAY, 8),
      row('gpt-4o', MONDAY + 7 * DAY, 16),
    ]);
    expect(await rows(alice, '/api/data/self', { ...range, granularity: 'week' })).toEqual([
      row('claude-3', MONDAY, 4),
      row('gpt-4o', MONDAY, 11),
      row('gpt-4o', MONDAY + 7 * DAY, 16),
    ]);
  });

  it("starts days at the viewer's midnight when given a UTC offset", async () => {
    // UTC+8: Tuesday 20:00 UTC is already Wednesday locally.
    const local = await rows(alice, '/api/data/self', { ...range, granularity: 'day', utc_offset: 480 });
    expect(local).toContainEqual(row('gpt-4o', MONDAY + 2 * DAY - 8 * HOUR, 8));
    expect(local).toContainEqual(row('gpt-4o', MONDAY - 8 * HOUR, 3));
  });

  it('uses DataExportDefaultTime when no granularity is asked for, and honours the time range', async () => {
    await t.app.ctx.options.set('DataExportDefaultTime', 'week');
    expect(
      await rows(alice, '/api/data/self', {
        start_timestamp: MONDAY + 7 * DAY,
        end_timestamp: MONDAY + 8 * DAY,
      }),
    ).toEqual([row('gpt-4o', MONDAY + 7 * DAY, 16)]);
  });

  it('shows admins everyone’s usage, or one user’s by username', async () => {
    const everyone = await rows(admin, '/api/data/', { ...range, granularity: 'day' });
    expect(everyone).toContainEqual(row('gpt-4o', MONDAY, 35));
    const bobs = await rows(admin, '/api/data/', { ...range, granularity: 'day', username: bob.username });
    expect(bobs).toEqual([row('gpt-4o', MONDAY, 32)]);
  });

  it('keeps users to their own data', async () => {
    expect(
      await rows(bob, '/api/data/self', { ...range, granularity: 'week', username: alice.username }),
    ).toEqual([row('gpt-4o', MONDAY, 32)]);
    expectRefusal(await t.call({ method: 'GET', url: '/api/data/', as: bob }));
  });

  it('works with a personal access token', async () => {
    await t.db.db
      .updateTable('users')
      .set({ access_token: 'pat-dash-bob' })
      .where('id', '=', bob.id)
      .execute();
    const res = await t.call({
      method: 'GET',
      url: '/api/data/self',
      query: { start_timestamp: String(MONDAY), end_timestamp: String(MONDAY + DAY), granularity: 'day' },
      headers: { authorization: 'pat-dash-bob' },
    });
    expect(res.json<Answer<DashboardRow[]>>().data).toEqual([row('gpt-4o', MONDAY, 32)]);
  });
});
