/// <reference lib="dom" />
// The console's look on the real server: the site announcement on the home page, the tab's title
// and icon, the sign-in screen's choices, small amounts of money, and the New Year easter egg.
// Every test puts back the options it changes: the other specs share this server.
import { expect, test } from '@playwright/test';
import type { APIRequestContext, Locator, Page, TestInfo } from '@playwright/test';
import { startMockUpstream } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { formatQuota } from '@sluice/shared';
import { freshUsername, logIn } from './helpers.js';

type Headers = Record<string, string>;

async function rootHeaders(request: APIRequestContext): Promise<Headers> {
  const res = await request.post('/api/user/login', { data: { username: 'root', password: '123456' } });
  const body = (await res.json()) as { success: boolean; data: { id: number } };
  expect(body.success).toBe(true);
  return { 'New-Api-User': String(body.data.id) };
}

async function setOption(request: APIRequestContext, headers: Headers, key: string, value: string) {
  const res = await request.put('/api/option/', { headers, data: { key, value } });
  expect(await res.json(), key).toMatchObject({ success: true });
}

async function logInAsRoot(page: Page): Promise<void> {
  await logIn(page, 'root', '123456');
  const warning = page.getByRole('dialog').filter({ hasText: 'default password' });
  await expect(warning).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(warning).toHaveCount(0);
}

const card = (page: Page, title: string): Locator =>
  page
    .locator('.ant-card')
    .filter({ has: page.locator('.ant-card-head-title', { hasText: new RegExp(`^${title}$`) }) });

/** A second browser with nothing stored: a first-time visitor. */
async function visitorPage(page: Page, testInfo: TestInfo): Promise<Page> {
  const context = await page.context().browser()!.newContext({ baseURL: testInfo.project.use.baseURL });
  return context.newPage();
}

/** Loads `path` and waits for the answer of `apiPath`, so what follows sees the server's data. */
async function gotoAndWait(page: Page, path: string, apiPath: string): Promise<void> {
  await Promise.all([page.waitForResponse((r) => new URL(r.url()).pathname === apiPath), page.goto(path)]);
}

test('the announcement greets users and visitors on the home page until closed, and again when it changes', async ({
  page,
  request,
}, testInfo) => {
  const headers = await rootHeaders(request);
  const first =
    '**Maintenance** tonight from 22:00 UTC; see [the status page](https://status.example.com).\n\n' +
    '<img src="/logo.png" alt="" onerror="document.title=\'injected\'">';
  try {
    await logInAsRoot(page);
    await page.goto('/setting?tab=other');
    const notice = card(page, 'Announcement');
    await notice.getByLabel('Announcement', { exact: true }).fill(first);
    await notice.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('save success')).toBeVisible();
    await page.goto('/');
    await expect(page.getByRole('region', { name: 'Announcement' })).toContainText('Maintenance tonight');

    const visitor = await visitorPage(page, testInfo);
    await visitor.goto('/');
    const region = visitor.getByRole('region', { name: 'Announcement' });
    await expect(region.locator('strong')).toHaveText('Maintenance');
    await expect(region.getByRole('link', { name: 'the status page' })).toHaveAttribute(
      'href',
      'https://status.example.com',
    );
    // Markdown may carry HTML; its scripts never run.
    await expect(region.locator('img')).toHaveCount(1);
    expect(await region.locator('img').getAttribute('onerror')).toBeNull();
    expect(await visitor.title()).not.toBe('injected');
    await expect(visitor.getByRole('heading', { name: 'Welcome to Sluice' })).toBeVisible();
    await visitor.screenshot({ path: testInfo.outputPath('home-notice.png') });

    await region.getByRole('button', { name: 'Close the announcement' }).click();
    await expect(region).toHaveCount(0);
    // The same text stays closed on the next visit.
    await gotoAndWait(visitor, '/', '/api/notice');
    await expect(visitor.getByRole('heading', { name: 'Welcome to Sluice' })).toBeVisible();
    await visitor.waitForTimeout(500);
    await expect(region).toHaveCount(0);

    // A new announcement shows again.
    await setOption(request, headers, 'Notice', 'Prices change on **1 April**.');
    await visitor.reload();
    await expect(region).toContainText('Prices change on 1 April.');
    await visitor.context().close();
  } finally {
    await setOption(request, headers, 'Notice', '');
  }
});

test('the tab title and icon follow the system name and logo, after a save and for a new visitor', async ({
  page,
  request,
}, testInfo) => {
  const headers = await rootHeaders(request);
  const name = freshUsername('Look ');
  try {
    await logInAsRoot(page);
    await expect(page).toHaveTitle('Sluice');
    await expect(page.locator('link[rel~="icon"]')).toHaveAttribute('href', '/favicon.svg');
    await page.goto('/setting?tab=other');
    const site = card(page, 'Site');
    await site.getByLabel('System name').fill(name);
    await site.getByLabel('Logo image URL').fill('/logo.png');
    await site.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('save success')).toBeVisible();
    // No reload: the saved options reach the open tab.
    await expect(page).toHaveTitle(name);
    await expect(page.locator('link[rel~="icon"]')).toHaveAttribute('href', '/logo.png');

    // A visitor with nothing stored gets them from the status.
    const visitor = await visitorPage(page, testInfo);
    await visitor.goto('/login');
    await expect(visitor).toHaveTitle(name);
    await expect(visitor.locator('link[rel~="icon"]')).toHaveAttribute('href', '/logo.png');
    await visitor.context().close();
  } finally {
    await setOption(request, headers, 'SystemName', 'Sluice');
    await setOption(request, headers, 'Logo', '');
  }
});

test('with registration closed neither the login screen nor the top bar offers Register', async ({
  page,
  request,
}, testInfo) => {
  const headers = await rootHeaders(request);
  // Third-party sign-in needs real providers; only the buttons are looked at here.
  await page.route('**/api/status', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { data: Record<string, unknown> };
    Object.assign(body.data, { github_oauth: true, linuxdo_oauth: true, wechat_login: true });
    await route.fulfill({ response, json: body });
  });
  try {
    await setOption(request, headers, 'RegisterEnabled', 'false');
    await gotoAndWait(page, '/login', '/api/status');
    await expect(page.getByRole('button', { name: 'Log in', exact: true }).last()).toBeVisible();
    await expect(page.getByRole('link', { name: 'Register' })).toHaveCount(0);
    await expect(page.getByRole('banner').getByRole('button', { name: 'Register' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Forgot password?' })).toBeVisible();

    // Every third-party choice is named, LinuxDO too.
    const linuxdo = page.getByRole('button', { name: 'Log in with LinuxDO' });
    await expect(linuxdo).toBeVisible();
    await expect(linuxdo).toHaveText('LinuxDO');
    await expect(page.getByRole('button', { name: 'Log in with GitHub' })).toHaveText('GitHub');
    await expect(page.getByRole('button', { name: 'Log in with WeChat' })).toHaveText('WeChat');
    await page.screenshot({ path: testInfo.outputPath('login-closed-registration.png') });
  } finally {
    await setOption(request, headers, 'RegisterEnabled', 'true');
  }
  await gotoAndWait(page, '/login', '/api/status');
  await expect(page.getByRole('link', { name: 'Register' })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('button', { name: 'Register' })).toBeVisible();
});

test.describe('small amounts', () => {
  let mock: MockUpstream;
  test.beforeAll(async () => {
    mock = await startMockUpstream();
  });
  test.afterAll(async () => {
    await mock?.close();
  });

  test('a call costing a fraction of a cent reads as such on /log and /token, not "$0.00"', async ({
    page,
    request,
  }, testInfo) => {
    const headers = await rootHeaders(request);
    const tokenName = freshUsername('tiny');
    const created = await request.post('/api/channel/', {
      headers,
      data: {
        name: `look-e2e-${tokenName}`,
        type: 1,
        key: 'sk-look-e2e',
        base_url: mock.url,
        models: 'gpt-3.5-turbo',
        group: 'default',
        priority: 999,
      },
    });
    const channelId = ((await created.json()) as { data: { ids: number[] } }).data.ids[0];
    expect(channelId).toBeDefined();
    try {
      const tokens = await request.post('/api/token/', {
        headers,
        data: { name: tokenName, unlimited_quota: true, expired_time: -1 },
      });
      const [token] = ((await tokens.json()) as { data: Array<{ key: string }> }).data;
      const call = await request.post('/v1/chat/completions', {
        headers: { Authorization: `Bearer sk-${token?.key}` },
        data: {
          model: 'gpt-3.5-turbo',
          messages: [{ role: 'user', content: 'hi [[mock:{"reply_tokens":2}]]' }],
        },
      });
      expect(call.status(), await call.text()).toBe(200);

      // The charge as logged: a few quota, millionths of a dollar.
      let quota = 0;
      await expect
        .poll(async () => {
          const logs = await request.get('/api/log/', { headers, params: { token_name: tokenName } });
          const items = ((await logs.json()) as { data: { items: Array<{ quota: number }> } }).data.items;
          quota = items[0]?.quota ?? 0;
          return quota;
        })
        .toBeGreaterThan(0);
      const shown = formatQuota(quota, { displayInCurrency: true, quotaPerUnit: 500_000 });
      expect(shown).toMatch(/^\$0\.0000\d+$/);

      await page.setViewportSize({ width: 1600, height: 800 });
      await logInAsRoot(page);
      await page.goto(`/log?token_name=${tokenName}`);
      const row = page.locator('.ant-table-tbody tr.ant-table-row');
      await expect(row).toHaveCount(1);
      await expect(row).toContainText(shown);
      await expect(row).not.toContainText(/\$0\.00(?!\d)/);
      await expect(page.getByLabel(`Consumed quota: ${shown}`)).toBeVisible();
      await page.locator('.ant-table').screenshot({ path: testInfo.outputPath('log-tiny-amount.png') });

      await page.goto('/token');
      await expect(page.locator('.ant-table-tbody tr', { hasText: tokenName })).toContainText(shown);
    } finally {
      await request.delete(`/api/channel/${channelId}/`, { headers });
    }
  });
});

test.describe('New Year easter egg', () => {
  test('on an ordinary day there is no lantern and no fireworks code', async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (r) => void (r.resourceType() === 'script' && scripts.push(r.url())));
    await page.clock.install({ time: new Date(2026, 1, 18, 10) });
    await gotoAndWait(page, '/', '/api/status');
    await expect(page.getByRole('button', { name: 'Log in' }).first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'New Year celebration' })).toHaveCount(0);
    expect(scripts.filter((url) => /new-year|fireworks/.test(url))).toEqual([]);
  });

  test('on the Lunar New Year the lantern lights fireworks for 3 s, and the page reloads 10 s later', async ({
    page,
  }, testInfo) => {
    const scripts: string[] = [];
    page.on('request', (r) => void (r.resourceType() === 'script' && scripts.push(r.url())));
    await page.clock.install({ time: new Date(2026, 1, 17, 20) });
    await page.goto('/');
    const lantern = page.getByRole('button', { name: 'New Year celebration' });
    await expect(lantern).toBeVisible();
    // The canvas code is not loaded until someone asks for fireworks.
    expect(scripts.filter((url) => url.includes('fireworks'))).toEqual([]);

    await page.clock.pauseAt(new Date(2026, 1, 17, 20, 1));
    await lantern.click();
    await page.getByRole('menuitem', { name: 'Happy New Year!' }).click();
    const canvas = page.locator('canvas.new-year-fireworks');
    await expect(canvas).toBeAttached();
    expect(scripts.some((url) => url.includes('fireworks'))).toBe(true);
    await page.clock.runFor(1_500);
    await page.screenshot({ path: testInfo.outputPath('new-year-fireworks.png') });
    await expect(canvas).toBeAttached();

    // 3 s after they started the fireworks stop.
    await page.clock.runFor(1_500);
    await expect(canvas).toHaveCount(0);

    // The page reloads 10 s after that, not before.
    await page.evaluate(() => Object.assign(window, { beforeReload: true }));
    await page.clock.runFor(9_000);
    expect(await page.evaluate(() => 'beforeReload' in window)).toBe(true);
    const reloaded = page.waitForEvent('load');
    await page.clock.runFor(1_000).catch(() => undefined);
    await reloaded;
    expect(await page.evaluate(() => 'beforeReload' in window)).toBe(false);
    // Still the Lunar New Year; time runs again so the lazily loaded lantern can be revealed.
    await page.clock.resume();
    await expect(lantern).toBeVisible();
  });
});
