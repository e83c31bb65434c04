// Usage logs on the real server: root makes one chat call through a channel at the fake upstream,
// then finds it on /log with its quota, its billing process and the stats badges; a regular user's
// log page has no admin filters, and shows its details in the console's language.
import { expect, test } from '@playwright/test';
import type { APIRequestContext, Page } from '@playwright/test';
import { startMockUpstream } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { formatQuota } from '@sluice/shared';
import { freshUsername, logIn, registerUser } from './helpers.js';

// Default prices of this model: ratio 15, completion ratio 2 (group "default": ratio 1).
const MODEL = 'gpt-4-0613';
const MODEL_RATIO = 15;
const COMPLETION_RATIO = 2;

let mock: MockUpstream;
test.beforeAll(async () => {
  mock = await startMockUpstream();
});
test.afterAll(async () => {
  await mock?.close();
});

async function logInAsRoot(page: Page): Promise<Record<string, string>> {
  await logIn(page, 'root', '123456');
  const warning = page.getByRole('dialog').filter({ hasText: 'default password' });
  await expect(warning).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(warning).toHaveCount(0);
  const id = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}').id as number);
  return { 'New-Api-User': String(id) };
}

async function data<T>(response: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { data: T }).data;
}

test('a chat call shows up on /log with its quota, billing process and stats', async ({ page }) => {
  const headers = await logInAsRoot(page);
  const tokenName = freshUsername('logtok');

  // A channel at the fake upstream, ahead of any other channel serving the model.
  const channel = await data<{ ids: number[] }>(
    await page.request.post('/api/channel/', {
      headers,
      data: {
        name: `logs-e2e-${tokenName}`,
        type: 1,
        key: 'sk-logs-e2e',
        base_url: mock.url,
        models: MODEL,
        group: 'default',
        priority: 999,
      },
    }),
  );
  const channelId = channel.ids[0];
  expect(channelId).toBeDefined();

  try {
    const [token] = await data<Array<{ key: string }>>(
      await page.request.post('/api/token/', {
        headers,
        data: { name: tokenName, unlimited_quota: true, expired_time: -1 },
      }),
    );
    expect(token?.key).toBeTruthy();

    // One call: 120 reply words make the quota visible in dollars.
    const res = await page.request.post('/v1/chat/completions', {
      headers: { Authorization: `Bearer sk-${token?.key}` },
      data: {
        model: MODEL,
        messages: [{ role: 'user', content: 'hello log page [[mock:{"reply_tokens":120}]]' }],
      },
    });
    expect(res.status(), await res.text()).toBe(200);
    const { usage } = (await res.json()) as { usage: { prompt_tokens: number; completion_tokens: number } };
    const prompt = usage.prompt_tokens;
    const completion = usage.completion_tokens;
    const quota = (prompt + completion * COMPLETION_RATIO) * MODEL_RATIO;
    const shown = formatQuota(quota, { displayInCurrency: true, quotaPerUnit: 500_000 });
    expect(shown).not.toBe('$0.00');

    // Log rows may be written a few milliseconds after the answer.
    await expect
      .poll(async () => {
        const page1 = await data<{ total: number }>(
          await page.request.get('/api/log/', { headers, params: { token_name: tokenName } }),
        );
        return page1.total;
      })
      .toBe(1);

    await page.goto(`/log?token_name=${tokenName}`);
    await expect(page.getByRole('heading', { name: 'Usage logs' })).toBeVisible();
    const rows = page.locator('.ant-table-tbody tr.ant-table-row');
    await expect(rows).toHaveCount(1);
    const row = rows.first();
    await expect(row).toContainText(tokenName);
    await expect(row).toContainText(MODEL);
    await expect(row).toContainText('Consumption');
    await expect(row).toContainText(shown);
    await expect(row.getByRole('button', { name: 'Show user root' })).toBeVisible();
    await expect(row.getByText(String(channelId), { exact: true })).toBeVisible();

    // The stats badges count the call.
    await expect(page.getByLabel(`Consumed quota: ${shown}`)).toBeVisible();

    // The expanded row explains the charge.
    await row.getByRole('button', { name: /expand row/i }).click();
    const details = page.getByLabel('Log details');
    await expect(details).toContainText('Billing process');
    await expect(details).toContainText(
      `(prompt ${prompt} + completion ${completion} × ${COMPLETION_RATIO}) × ${MODEL_RATIO} × 1 = ${quota} quota`,
    );
    await expect(details).toContainText('$30 / 1M tokens');
    await expect(details).toContainText('$60 / 1M tokens');

    // The user dialog.
    await row.getByRole('button', { name: 'Show user root' }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: 'User information' });
    await expect(dialog).toContainText('root');
    await expect(dialog).toContainText('default');
  } finally {
    // Other specs on this server must not be routed to a fake that is about to close.
    await page.request.delete(`/api/channel/${channelId}/`, { headers });
  }
});

test('a regular user’s log page has no channel or username filters', async ({ page }) => {
  const username = freshUsername('logusr');
  await registerUser(page, username, 'e2e-password-5');
  await logIn(page, username, 'e2e-password-5');
  await page.goto('/log');
  await expect(page.getByRole('heading', { name: 'Usage logs' })).toBeVisible();
  await expect(page.getByLabel('Token name')).toBeVisible();
  await expect(page.getByLabel('Log type')).toBeVisible();
  await expect(page.getByLabel('Channel ID')).toHaveCount(0);
  await expect(page.getByLabel('Username')).toHaveCount(0);
  await expect(page.getByRole('columnheader', { name: 'Channel' })).toHaveCount(0);
  await expect(page.getByLabel('Consumed quota: $0.00')).toBeVisible();
});

test('a user reads the details of their logs in Chinese when the console is in Chinese', async ({
  page,
  request,
}) => {
  // Root acts through its own API session; the user through the browser.
  const login = await request.post('/api/user/login', { data: { username: 'root', password: '123456' } });
  const rootId = ((await login.json()) as { data: { id: number } }).data.id;
  const root = { 'New-Api-User': String(rootId) };
  const username = freshUsername('zhlog');
  await registerUser(page, username, 'e2e-password-6');
  await logIn(page, username, 'e2e-password-6');
  const userId = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}').id as number);
  const mine = { 'New-Api-User': String(userId) };

  const channel = await data<{ ids: number[] }>(
    await request.post('/api/channel/', {
      headers: root,
      data: {
        name: `logs-zh-${username}`,
        type: 1,
        key: 'sk-logs-zh',
        base_url: mock.url,
        models: MODEL,
        group: 'default',
        priority: 999,
      },
    }),
  );
  try {
    // A redemption code ($1.00), an administrator's quota change ($1.00 → $4.00) and one chat call.
    const codeName = `zh-${username.slice(-6)}`;
    const [code] = await data<string[]>(
      await request.post('/api/redemption/', {
        headers: root,
        data: { name: codeName, quota: 500_000, count: 1 },
      }),
    );
    expect(
      await data<number>(await page.request.post('/api/user/topup', { headers: mine, data: { key: code } })),
    ).toBe(500_000);
    await data(await request.put('/api/user/', { headers: root, data: { id: userId, quota: 2_000_000 } }));
    const [token] = await data<Array<{ key: string }>>(
      await page.request.post('/api/token/', {
        headers: mine,
        data: { name: `zh-token-${username.slice(-6)}`, unlimited_quota: true, expired_time: -1 },
      }),
    );
    const call = await page.request.post('/v1/chat/completions', {
      headers: { Authorization: `Bearer sk-${token?.key}` },
      data: { model: MODEL, messages: [{ role: 'user', content: '你好 [[mock:{"reply_tokens":3}]]' }] },
    });
    expect(call.status(), await call.text()).toBe(200);
    await expect
      .poll(
        async () =>
          (await data<{ total: number }>(await page.request.get('/api/log/self/', { headers: mine }))).total,
      )
      .toBe(3);

    await page.evaluate(() => localStorage.setItem('language', 'zh-CN'));
    await page.goto('/log');
    await expect(page.getByRole('heading', { name: '使用日志' })).toBeVisible();
    await expect(page.getByRole('columnheader', { name: '详情' })).toBeVisible();
    const rows = page.locator('.ant-table-tbody tr.ant-table-row');
    await expect(rows).toHaveCount(3);
    await expect(rows.filter({ hasText: `使用兑换码“${codeName}”` })).toContainText('充值 $1.00');
    // A user is told that an administrator did it, not which one.
    await expect(rows.filter({ hasText: '管理员将额度从 $1.00 修改为 $4.00（+$3.00）' })).toHaveCount(1);
    await expect(
      rows.filter({ hasText: `模型倍率 ${MODEL_RATIO}，补全倍率 ${COMPLETION_RATIO}，分组倍率 1` }),
    ).toHaveCount(1);
    // Nothing of the English sentences the server stores for scripts.
    for (const english of ['Redeemed', 'administrator', 'Model ratio', 'model ratio']) {
      await expect(page.locator('.ant-table-tbody')).not.toContainText(english);
    }
    await page.screenshot({ path: 'test-results/logs-zh.png', fullPage: true });
  } finally {
    await request.delete(`/api/channel/${channel.ids[0]}/`, { headers: root });
  }
});
