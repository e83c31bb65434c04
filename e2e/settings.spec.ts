// The super admin's settings tabs on the real server: a changed option reaches the public status,
// unchanged cards send nothing, JSON fields are checked; regular users do not get these tabs.
import { expect, test } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';
import { freshUsername, logIn, registerUser } from './helpers.js';

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

async function systemName(page: Page): Promise<string> {
  const res = await page.request.get('/api/status');
  return (await res.json()).data.system_name as string;
}

test('root renames the site and the public status follows', async ({ page }) => {
  await logInAsRoot(page);
  await page.goto('/setting?tab=other');
  await expect(page.getByRole('tab', { name: 'Other', selected: true })).toBeVisible();
  const site = card(page, 'Site');
  const name = site.getByLabel('System name');
  await expect(name).toHaveValue('Sluice');

  await site.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('you seem not to have changed anything')).toBeVisible();

  const renamed = freshUsername('Gateway ');
  try {
    await name.fill(renamed);
    await site.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('save success')).toBeVisible();
    expect(await systemName(page)).toBe(renamed);
    // The console picks the new name up too.
    await expect(page.getByRole('banner').getByText(renamed)).toBeVisible();
  } finally {
    // Other specs expect the default name.
    await name.fill('Sluice');
    await site.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => systemName(page)).toBe('Sluice');
  }
});

test('root gets told about invalid JSON and nothing is saved', async ({ page }) => {
  await logInAsRoot(page);
  await page.goto('/setting?tab=operation');
  const ratios = card(page, 'Ratios');
  const groupRatio = ratios.getByLabel('Group ratios', { exact: true });
  await expect(groupRatio).toHaveValue(/"default"/);
  await groupRatio.fill('{"default": 1,');
  await groupRatio.blur();
  await expect(ratios.getByText('not a valid JSON string')).toBeVisible();
  await ratios.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('please check input')).toBeVisible();

  await page.goto('/setting?tab=system');
  const payment = card(page, 'Payment');
  const topup = payment.getByLabel('Top-up group ratios');
  await topup.fill('vip = 2');
  await topup.blur();
  await expect(payment.getByText('top-up group ratio is not valid JSON')).toBeVisible();
});

test('a regular user sees only the personal settings tab', async ({ page }) => {
  const username = freshUsername('set');
  await registerUser(page, username, 'e2e-password-7');
  await logIn(page, username, 'e2e-password-7');
  await page.goto('/setting?tab=operation');
  await expect(page.getByRole('tab', { name: 'Personal', selected: true })).toBeVisible();
  for (const tab of ['Operation', 'System', 'Other']) {
    await expect(page.getByRole('tab', { name: tab })).toHaveCount(0);
  }
});
