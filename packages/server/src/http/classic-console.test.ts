// The classic new-api console (its 2025 web/, unchanged) pointed at Sluice: each call below is made
// as that console makes it — the same paths and query parameters — and checks the answer fields the
// console reads. A refusal must reach it as HTTP 200 with `success: false` and the reason in
// `message`, or its pages show "Request failed with status code 400" and throw.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockUpstream, withMock } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { MSG, ROLE } from '@sluice/shared';
import { testDialects } from '../test-support/databases.js';
import { createTestApp } from '../test-support/test-app.js';
import type { Caller, TestApp } from '../test-support/test-app.js';
import { addChannel, addToken, billingWritten, setOptions } from '../test-support/relay-kit.js';

const MODEL = 'classic-model';

interface Envelope<T = unknown> {
  success: boolean;
  message: string;
  data: T;
}
interface Page<T> {
  items: T[];
  total: number;
  page: number;
  page_size: number;
}

describe.each(testDialects())('the classic new-api console against Sluice on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let root: Caller;
  let user: Caller;
  let channelId: number;

  beforeAll(async () => {
    mock = await startMockUpstream();
    t = await createTestApp({ dialect });
    await setOptions(t, { ModelRatio: { [MODEL]: 1 }, LogConsumeEnabled: true });
    channelId = await addChannel(t, {
      base_url: mock.url,
      models: MODEL,
      name: 'classic upstream',
      tag: 'classic-tag',
    });
    await addChannel(t, { base_url: mock.url, models: MODEL, name: 'classic sibling', tag: 'classic-tag' });
    root = await t.login('root', '123456');
    user = await t.createUser({ quota: 5_000_000 });
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

    const nowMs = Date.now();
    const drawings = await get(
      `/api/mj/?p=0&page_size=10&channel_id=&mj_id=&start_timestamp=${nowMs - 86_400_000}&end_timestamp=NaN`,
    );
    expect(drawings.success).toBe(true);
    expect(Array.isArray(drawings.data)).toBe(true);
    const tasks = await get(
      `/api/task/?p=0&page_size=10&channel_id=&task_id=&start_timestamp=&end_timestamp=`,
    );
    expect(Array.isArray(tasks.data)).toBe(true);
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
      },
      user,
    );
    expect(saved.success).toBe(true);
    const self = await get<{ setting: string }>('/api/user/self', user);
    expect(JSON.parse(self.data.setting)).toMatchObject({
      notify_type: 'webhook',
      quota_warning_threshold: 100000,
    });
    const refused = await send('PUT', '/api/user/setting', { notify_type: 'pager' }, user);
    expect(refused.success).toBe(false);
  });
});
