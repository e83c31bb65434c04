// The classic new-api console (its 2025 web/, unchanged) pointed at Sluice: each call below is made
// as that console makes it — the same paths and query parameters — and checks the answer fields the
// console reads. A refusal must reach it as HTTP 200 with `success: false` and the reason in
// `message`, or its pages show "Request failed with status code 400" and throw.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockUpstream, withMock } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { LOG_TYPE, MSG, ROLE } from '@sluice/shared';
import type {
  ChannelView,
  LogItem,
  LogStat,
  MidjourneyItem,
  Page,
  RedemptionView,
  TaskItem,
  TokenView,
} from '@sluice/shared';
import { testDialects } from '../test-support/databases.js';
import { createTestApp } from '../test-support/test-app.js';
import type { Caller, TestApp } from '../test-support/test-app.js';
import { addChannel, addToken, billingWritten, setOptions } from '../test-support/relay-kit.js';

const MODEL = 'classic-model';
const DAY_MS = 86_400_000;

interface Envelope<T = unknown> {
  success: boolean;
  message: string;
  data: T;
}

describe.each(testDialects())('the classic new-api console against Sluice on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let root: Caller;
  let user: Caller;
  let channelId: number;
  let siblingId: number;
  /** When the drawing and task rows below were submitted (ms), and the user's own ones. */
  const nowMs = Date.now();
  const recentMs = nowMs - 60_000;
  const oldMs = nowMs - 3 * DAY_MS;

  beforeAll(async () => {
    mock = await startMockUpstream();
    // Root signs in as 123456 by the operator's choice: no first password change stands in the way.
    t = await createTestApp({ dialect, config: { initialRootPassword: '123456' } });
    await setOptions(t, { ModelRatio: { [MODEL]: 1 }, LogConsumeEnabled: true });
    channelId = await addChannel(t, {
      base_url: mock.url,
      models: MODEL,
      name: 'classic upstream',
      tag: 'classic-tag',
    });
    siblingId = await addChannel(t, {
      base_url: mock.url,
      models: MODEL,
      name: 'classic sibling',
      tag: 'classic-tag',
    });
    root = await t.login('root', '123456');
    user = await t.createUser({ quota: 5_000_000 });
    // Drawing and task records as new-api writes them (drawing times in ms, task times in seconds):
    // for the user a recent and a three-day-old one each, and a recent one of root's.
    const done = {
      status: 'SUCCESS',
      progress: '100%',
      fail_reason: '',
      properties: '{}',
      channel_id: channelId,
    };
    const text = {
      prompt: 'a lighthouse',
      prompt_en: 'a lighthouse',
      description: '',
      state: '',
      image_url: '',
    };
    const drawing = { ...done, ...text, action: 'IMAGINE', buttons: '[]' };
    await t.db.db
      .insertInto('midjourneys')
      .values([
        {
          ...drawing,
          user_id: user.id,
          mj_id: 'mj-recent',
          submit_time: recentMs,
          finish_time: recentMs + 42_000,
        },
        { ...drawing, user_id: user.id, mj_id: 'mj-old', submit_time: oldMs, finish_time: oldMs + 42_000 },
        { ...drawing, user_id: root.id, mj_id: 'mj-root', submit_time: recentMs, finish_time: recentMs + 1 },
      ])
      .execute();
    const task = { ...done, platform: 'suno', action: 'MUSIC', data: '{}' };
    const seconds = (ms: number) => Math.floor(ms / 1000);
    await t.db.db
      .insertInto('tasks')
      .values([
        { ...task, user_id: user.id, task_id: 'task-recent', submit_time: seconds(recentMs) },
        { ...task, user_id: user.id, task_id: 'task-old', submit_time: seconds(oldMs) },
        { ...task, user_id: root.id, task_id: 'task-root', submit_time: seconds(recentMs) },
      ])
      .execute();
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  /** What the console's axios instance does: the session cookie plus New-Api-User, JSON answers. */
  const get = async <T>(url: string, as: Caller = root) => {
    const res = await t.call({ method: 'GET', url, as });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json<Envelope<T> & Record<string, unknown>>();
  };
  const send = async <T>(method: 'POST' | 'PUT', url: string, payload: unknown, as: Caller = root) => {
    const res = await t.call({ method, url, payload: payload as Record<string, unknown>, as });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json<Envelope<T> & Record<string, unknown>>();
  };

  it('signs in, reads the status and the own account, and is told a wrong password in the envelope', async () => {
    const status = await get<{ system_name: string }>('/api/status');
    expect(status.success).toBe(true);
    const login = await t.call({
      method: 'POST',
      url: '/api/user/login?turnstile=',
      payload: { username: 'root', password: '123456' },
    });
    expect(login.json()).toMatchObject({ success: true, data: { username: 'root', role: ROLE.root } });
    expect((await get<{ id: number }>('/api/user/self')).data.id).toBe(root.id);
    const wrong = await t.call({
      method: 'POST',
      url: '/api/user/login?turnstile=',
      payload: { username: 'root', password: 'not-the-password' },
    });
    expect(wrong.statusCode).toBe(200);
    expect(wrong.json()).toMatchObject({ success: false });
    expect(wrong.json<Envelope>().message).not.toBe('');
  });

  it('shows the reason of a refused call instead of an HTTP error', async () => {
    for (const [url, as] of [
      ['/api/channel/?p=0&page_size=10', user],
      ['/api/user/987654321', root],
      ['/api/channel/not-a-word', root],
    ] as const) {
      const body = await get(url, as);
      expect(body.success, url).toBe(false);
      expect(body.message, url).not.toBe('');
    }
    const noSession = await t.call({ method: 'GET', url: '/api/user/self' });
    expect(noSession.statusCode).toBe(401);
  });

  it('pages users, redemption codes and tokens the 2025 way when page_size is sent', async () => {
    const users = await get<Page<{ id: number; username: string }>>('/api/user/?p=1&page_size=10');
    expect(users.data).toMatchObject({ page: 1, page_size: 10 });
    expect(users.data.total).toBeGreaterThanOrEqual(2);
    expect(users.data.items.map((u) => u.id)).toContain(user.id);
    const search = await get<Page<{ id: number }>>(
      `/api/user/search?keyword=${user.username}&group=&p=1&page_size=10`,
    );
    expect(search.data.items.map((u) => u.id)).toEqual([user.id]);
    // A page number that does not parse is the first page, never a refusal.
    expect((await get<Page<unknown>>('/api/user/?p=NaN&page_size=10')).data.page).toBe(1);

    await send('POST', '/api/redemption/', { name: 'classic', quota: 1000, count: 3 });
    const codes = await get<Page<{ name: string }>>('/api/redemption/?p=1&page_size=2');
    expect(codes.data).toMatchObject({ page: 1, page_size: 2, total: 3 });
    expect(codes.data.items).toHaveLength(2);

    await addToken(t, root.id, { name: 'classic token' });
    const tokens = await get<Page<{ name: string }>>('/api/token/?p=1&page_size=10');
    expect(tokens.data.items.map((k) => k.name)).toContain('classic token');
    // The older call without page_size keeps the plain array.
    expect(Array.isArray((await get('/api/token/?p=0&size=10')).data)).toBe(true);
  });

  it('searches channels and pages the plain channel list as the classic channel page does', async () => {
    const search = (query: string) => get<ChannelView[]>(`/api/channel/search?${query}`);
    const found = await search('keyword=classic&group=&model=&id_sort=false&tag_mode=false');
    expect(found.data.map((c) => c.name).sort()).toEqual(['classic sibling', 'classic upstream']);
    for (const c of found.data) {
      expect(c).toMatchObject({ status: 1, group: 'default', tag: 'classic-tag', used_quota: 0 });
      expect(typeof c.priority).toBe('number');
      expect(typeof c.response_time).toBe('number');
      expect(c).not.toHaveProperty('key');
    }
    // By model and group, newest first with id_sort; a group nobody serves finds nothing.
    const byModel = await search(`keyword=&group=default&model=${MODEL}&id_sort=true&tag_mode=false`);
    expect(byModel.data.map((c) => c.id)).toEqual([siblingId, channelId]);
    expect((await search('keyword=&group=no-such-group&model=&id_sort=false&tag_mode=false')).data).toEqual(
      [],
    );
    // Tag mode answers the plain channels of the tag; the console folds them into one row.
    const tagged = await search('keyword=classic&group=&model=&id_sort=false&tag_mode=true');
    expect(tagged.data.map((c) => c.id).sort()).toEqual([channelId, siblingId].sort());
    for (const c of tagged.data) expect(c).not.toHaveProperty('children');

    // The plain list, one channel a page: the console asks for the next page while pages are full.
    const page = (p: string) =>
      get<ChannelView[]>(`/api/channel/?p=${p}&page_size=1&id_sort=true&tag_mode=false`);
    expect((await page('0')).data.map((c) => c.id)).toEqual([siblingId]);
    expect((await page('1')).data.map((c) => c.id)).toEqual([channelId]);
    expect((await page('2')).data).toEqual([]);
    // A page number or size that does not parse is the first page at the default size.
    expect((await page('NaN')).data.map((c) => c.id)).toEqual([siblingId]);
    const sized = await get<ChannelView[]>('/api/channel/?p=0&page_size=NaN&id_sort=false&tag_mode=false');
    expect(sized.data.map((c) => c.id).sort()).toEqual([channelId, siblingId].sort());
  });

  it('searches tokens and redemption codes as their classic pages do', async () => {
    const token = await addToken(t, user.id, { name: 'classic searchable' });
    await addToken(t, root.id, { name: 'classic searchable of root' });
    const byName = await get<TokenView[]>(
      encodeURI('/api/token/search?keyword=classic searchable&token='),
      user,
    );
    expect(byName.data.map((k) => k.id)).toEqual([token.id]);
    const [found] = byName.data;
    // The console shows and copies "sk-" + key.
    expect(`sk-${found?.key}`).toBe(token.key);
    expect(found).toMatchObject({ status: 1, expired_time: -1, unlimited_quota: false });
    const byKey = await get<TokenView[]>(`/api/token/search?keyword=&token=${token.key}`, user);
    expect(byKey.data.map((k) => k.id)).toEqual([token.id]);
    expect((await get<TokenView[]>(`/api/token/search?keyword=&token=${token.key}`, root)).data).toEqual([]);

    await send('POST', '/api/redemption/', { name: 'searchable code', quota: 10, count: 2 });
    const codes = await get<Page<RedemptionView>>(
      encodeURI('/api/redemption/search?keyword=searchable code&p=1&page_size=10'),
    );
    expect(codes.data).toMatchObject({ page: 1, page_size: 10, total: 2 });
    expect(codes.data.items.map((c) => [c.name, c.quota, c.status])).toEqual([
      ['searchable code', 10, 1],
      ['searchable code', 10, 1],
    ]);
    const first = codes.data.items[0]?.id;
    const byId = await get<Page<{ id: number }>>(`/api/redemption/search?keyword=${first}&p=1&page_size=10`);
    expect(byId.data.items.map((c) => c.id)).toContain(first);
  });

  it('creates redemption codes and redeems one, a second redemption refused with its reason', async () => {
    const created = await send<string[]>('POST', '/api/redemption/', { name: 'gift', quota: 250, count: 1 });
    const key = created.data[0] as string;
    const redeemed = await send<number>('POST', '/api/user/topup', { key }, user);
    expect(redeemed).toMatchObject({ success: true, data: 250 });
    const again = await send('POST', '/api/user/topup', { key }, user);
    expect(again.success).toBe(false);
    expect(again.message).toBe(MSG.redemptionUsed);
  });

  it('tests a channel and reads time and balance at the top level, a failed test being a refusal', async () => {
    const tested = await get<{ time: number }>(`/api/channel/test/${channelId}?model=${MODEL}`);
    expect(tested.success).toBe(true);
    expect(typeof tested.time).toBe('number');
    expect(tested.data.time).toBe(tested.time);

    // Its own model, so the relay calls of the other cases never land on it.
    const broken = await addChannel(t, {
      base_url: mock.url,
      models: 'broken-model',
      key: 'bad-key',
      auto_ban: 0,
    });
    const failed = await get(`/api/channel/test/${broken}?model=broken-model`);
    expect(failed.success).toBe(false);
    expect(failed.message).not.toBe('');
    expect(failed.message).not.toContain('bad-key');
    expect(typeof failed.time).toBe('number');

    const balance = await get<number>(`/api/channel/update_balance/${channelId}/`);
    expect(balance.success).toBe(true);
    expect(balance.balance).toBe(balance.data);
  });

  it('lists channels in tag mode as plain channels, and calls the 2025 channel routes', async () => {
    const tagged = await get<Array<{ id: number; tag: string; name: string }>>(
      '/api/channel/?p=0&page_size=10&id_sort=false&tag_mode=true',
    );
    const family = tagged.data.filter((c) => c.tag === 'classic-tag');
    expect(family.map((c) => c.name).sort()).toEqual(['classic sibling', 'classic upstream']);
    for (const c of tagged.data) expect(c).not.toHaveProperty('children');

    expect((await get<string[]>('/api/channel/models_enabled')).data).toContain(MODEL);
    const fetched = await send<string[]>('POST', '/api/channel/fetch_models', {
      base_url: mock.url,
      type: 1,
      key: 'sk-upstream',
    });
    expect(fetched.success).toBe(true);
    expect(Array.isArray(fetched.data)).toBe(true);
    const retag = await send<number>('POST', '/api/channel/batch/tag', { ids: [channelId], tag: 'moved' });
    expect(retag).toMatchObject({ success: true, data: 1 });
    expect((await get<{ tag: string }>(`/api/channel/${channelId}`)).data.tag).toBe('moved');
  });

  it('reads logs with channel names, and drawing and task lists as plain arrays from p=0', async () => {
    const token = await addToken(t, user.id);
    const call = await t.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
      payload: { model: MODEL, messages: [{ role: 'user', content: withMock('hello there', {}) }] },
    });
    expect(call.statusCode, call.body).toBe(200);
    await billingWritten(t);
    const now = Math.floor(Date.now() / 1000);
    const logs = await get<Page<{ channel: number; channel_name: string; model_name: string }>>(
      `/api/log/?p=1&page_size=10&type=0&username=&token_name=&model_name=&start_timestamp=${now - 3600}&end_timestamp=${now + 3600}&channel=&group=`,
    );
    const row = logs.data.items.find((l) => l.model_name === MODEL);
    expect(row?.channel_name).toMatch(/^classic /);
    const stat = await get<{ quota: number }>(`/api/log/stat?type=0&username=&token_name=&model_name=`);
    expect(stat.data.quota).toBeGreaterThan(0);

    // The drawing page sends milliseconds (Date.parse) and NaN for a cleared date; it renders
    // submit_time / 1000 as a date, so submit_time is in milliseconds too.
    const drawings = await get<MidjourneyItem[]>(
      `/api/mj/?p=0&channel_id=&mj_id=&start_timestamp=${nowMs - DAY_MS}&end_timestamp=NaN`,
    );
    expect(drawings.data.map((d) => d.mj_id).sort()).toEqual(['mj-recent', 'mj-root']);
    expect(drawings.data.find((d) => d.mj_id === 'mj-recent')).toMatchObject({
      submit_time: recentMs,
      finish_time: recentMs + 42_000,
      channel_id: channelId,
    });
    const unfiltered = await get<MidjourneyItem[]>(
      '/api/mj/?p=0&channel_id=&mj_id=&start_timestamp=NaN&end_timestamp=NaN',
    );
    expect(unfiltered.data.map((d) => d.mj_id)).toContain('mj-old');
    const byId = await get<MidjourneyItem[]>(
      '/api/mj/?p=0&channel_id=&mj_id=mj-old&start_timestamp=NaN&end_timestamp=NaN',
    );
    expect(byId.data.map((d) => d.mj_id)).toEqual(['mj-old']);
    // Task pages send seconds (parseInt(Date.parse / 1000)).
    const sinceSeconds = Math.floor((nowMs - DAY_MS) / 1000);
    const tasks = await get<TaskItem[]>(
      `/api/task/?p=0&channel_id=&task_id=&start_timestamp=${sinceSeconds}&end_timestamp=NaN`,
    );
    expect(tasks.data.map((k) => k.task_id).sort()).toEqual(['task-recent', 'task-root']);
    expect(tasks.data.find((k) => k.task_id === 'task-recent')?.submit_time).toBe(
      Math.floor(recentMs / 1000),
    );
    const allTasks = await get<TaskItem[]>(
      `/api/task/?p=0&channel_id=&task_id=&start_timestamp=&end_timestamp=`,
    );
    expect(allTasks.data.map((k) => k.task_id)).toContain('task-old');
  });

  it("reads the user's own log page and its stat badges as the classic log page asks for them", async () => {
    const token = await addToken(t, user.id, { name: 'classic self' });
    const call = await t.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
      payload: { model: MODEL, messages: [{ role: 'user', content: 'my own call' }] },
    });
    expect(call.statusCode, call.body).toBe(200);
    await billingWritten(t);
    const now = Math.floor(Date.now() / 1000);
    // The classic page's URLs, passed through encodeURI as it does.
    const self = (start: string, end: string) =>
      get<Page<LogItem>>(
        encodeURI(
          `/api/log/self/?p=1&page_size=10&type=0&token_name=classic self&model_name=&start_timestamp=${start}&end_timestamp=${end}&group=`,
        ),
        user,
      );
    const mine = await self(String(now - 3600), String(now + 3600));
    expect(mine.data).toMatchObject({ page: 1, page_size: 10, total: 1 });
    const row = mine.data.items[0];
    expect(row).toMatchObject({
      type: LOG_TYPE.consume,
      user_id: user.id,
      token_name: 'classic self',
      model_name: MODEL,
      is_stream: false,
    });
    expect(row?.quota).toBeGreaterThan(0);
    expect(row?.prompt_tokens).toBeGreaterThan(0);
    expect(typeof row?.created_at).toBe('number');
    expect(typeof row?.other).toBe('string');
    // Which channel served it is for admins.
    expect(row).not.toHaveProperty('channel');
    expect(row).not.toHaveProperty('channel_name');
    // A cleared date is ignored; a range before the call finds nothing.
    expect((await self('NaN', 'NaN')).data.total).toBe(1);
    expect((await self(String(now - 7200), String(now - 3600))).data.total).toBe(0);

    const stat = await get<LogStat>(
      encodeURI(
        `/api/log/self/stat?type=0&token_name=classic self&model_name=&start_timestamp=${now - 3600}&end_timestamp=${now + 3600}&group=`,
      ),
      user,
    );
    expect(stat.data).toEqual({
      quota: row?.quota,
      rpm: 1,
      tpm: (row?.prompt_tokens ?? 0) + (row?.completion_tokens ?? 0),
    });
  });

  it("lists the user's own drawings and tasks from p=0, with the classic page's time units", async () => {
    const since = nowMs - DAY_MS;
    const drawings = await get<MidjourneyItem[]>(
      `/api/mj/self/?p=0&mj_id=&start_timestamp=${since}&end_timestamp=${nowMs + 3_600_000}`,
      user,
    );
    expect(drawings.data.map((d) => d.mj_id)).toEqual(['mj-recent']);
    expect(drawings.data[0]).toMatchObject({ submit_time: recentMs, status: 'SUCCESS', progress: '100%' });
    expect(drawings.data[0]).not.toHaveProperty('channel_id');
    const everyDrawing = await get<MidjourneyItem[]>(
      '/api/mj/self/?p=0&mj_id=&start_timestamp=NaN&end_timestamp=NaN',
      user,
    );
    expect(everyDrawing.data.map((d) => d.mj_id).sort()).toEqual(['mj-old', 'mj-recent']);
    expect(
      (await get<MidjourneyItem[]>('/api/mj/self/?p=1&mj_id=&start_timestamp=NaN&end_timestamp=NaN', user))
        .data,
    ).toEqual([]);

    const tasks = await get<TaskItem[]>(
      `/api/task/self?p=0&task_id=&start_timestamp=${Math.floor(since / 1000)}&end_timestamp=${Math.floor(nowMs / 1000) + 3600}`,
      user,
    );
    expect(tasks.data.map((k) => k.task_id)).toEqual(['task-recent']);
    expect(tasks.data[0]).toMatchObject({ submit_time: Math.floor(recentMs / 1000), platform: 'suno' });
    expect(tasks.data[0]).not.toHaveProperty('channel_id');
    const everyTask = await get<TaskItem[]>(
      '/api/task/self?p=0&task_id=&start_timestamp=NaN&end_timestamp=NaN',
      user,
    );
    expect(everyTask.data.map((k) => k.task_id).sort()).toEqual(['task-old', 'task-recent']);
  });

  it('saves the operation tab key by key, the 2025 keys included', async () => {
    const saves: Array<[string, string]> = [
      ['RetryTimes', '2'],
      ['SelfUseModeEnabled', 'true'],
      ['DemoSiteEnabled', 'false'],
      ['ModelRequestRateLimitEnabled', 'false'],
      ['ModelRequestRateLimitDurationMinutes', '1'],
      ['ModelRequestRateLimitCount', '0'],
      ['ModelRequestRateLimitSuccessCount', '1000'],
      ['QuotaForNewUser', '0'],
    ];
    for (const [key, value] of saves) {
      expect(await send('PUT', '/api/option/', { key, value }), key).toMatchObject({ success: true });
    }
    const unknown = await send('PUT', '/api/option/', { key: 'NoSuchOption', value: '1' });
    expect(unknown.success).toBe(false);
    const options = await get<Array<{ key: string; value: string }>>('/api/option/');
    expect(options.data).toContainEqual({ key: 'SelfUseModeEnabled', value: 'true' });
  });

  it("saves a user's quota-warning settings", async () => {
    const saved = await send(
      'PUT',
      '/api/user/setting',
      {
        notify_type: 'webhook',
        quota_warning_threshold: 100000,
        webhook_url: 'https://hooks.example.com/sluice',
        webhook_secret: 'shh',
        accept_unset_model_ratio_model: true,
        record_ip_log: false,
      },
      user,
    );
    expect(saved.success).toBe(true);
    const self = await get<{ setting: string }>('/api/user/self', user);
    // Its personal page reads every switch back from here.
    expect(JSON.parse(self.data.setting)).toMatchObject({
      notify_type: 'webhook',
      quota_warning_threshold: 100000,
      accept_unset_model_ratio_model: true,
      record_ip_log: false,
    });
    const refused = await send('PUT', '/api/user/setting', { notify_type: 'pager' }, user);
    expect(refused.success).toBe(false);
  });
});
