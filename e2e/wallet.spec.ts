/// <reference lib="dom" />
// Browser globals below run inside the page (page.evaluate).
// Redemption codes end to end: root creates a code and copies it from the dialog, then a new user
// redeems it in the wallet and sees the balance grow.
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { freshUsername, logIn, registerUser, sidebar } from './helpers.js';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

/** Root still has the first-start password here; the console asks to change it, which we decline. */
async function logInAsRoot(page: Page): Promise<void> {
  await logIn(page, 'root', '123456');
  const warning = page.getByRole('dialog').filter({ hasText: 'default password' });
  await expect(warning).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(warning).toHaveCount(0);
}

async function signOut(page: Page): Promise<void> {
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.removeItem('user'));
}

test('root creates a redemption code and a user redeems it in the wallet', async ({ page }) => {
  await logInAsRoot(page);
  await sidebar(page).getByText('Redemption codes', { exact: true }).click();
  await expect(page).toHaveURL(/\/redemption$/);
  await expect(page.getByRole('heading', { name: 'Redemption codes' })).toBeVisible();

  await page.getByRole('button', { name: 'Copy selected' }).click();
  await expect(page.getByText('please select at least one redemption code')).toBeVisible();

  await page.getByRole('button', { name: 'Add redemption code' }).click();
  const drawer = page.getByRole('dialog', { name: 'Add redemption code' });
  await expect(drawer.getByLabel('Quota')).toHaveValue('100000');
  await expect(drawer.getByLabel('How many to create')).toHaveValue('1');
  await drawer.getByLabel('Name').fill('e2e-gift');
  await drawer.getByRole('button', { name: 'Submit' }).click();

  const created = page.getByRole('dialog', { name: '1 redemption code(s) created' });
  const codeItem = created.getByRole('list', { name: 'Created redemption codes' }).getByRole('listitem');
  await expect(codeItem).toHaveCount(1);
  const code = ((await codeItem.textContent()) ?? '').trim();
  expect(code).toMatch(/^[A-Za-z0-9]{32}$/);
  await created.getByRole('button', { name: 'Copy all' }).click();
  await expect(page.getByText('copied to the clipboard')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
  await page.keyboard.press('Escape');
  await expect(created).toBeHidden();

  const row = page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: 'e2e-gift' }).first();
  await expect(row.getByText('Unused')).toBeVisible();
  await expect(row.getByText('none')).toBeVisible();

  // A new user redeems the copied code.
  await signOut(page);
  const username = freshUsername('wal');
  await registerUser(page, username, 'e2e-password-5');
  await logIn(page, username, 'e2e-password-5');
  const userId = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}').id as number);
  const self = await page.request.get('/api/user/self', { headers: { 'New-Api-User': String(userId) } });
  const before = (await self.json()).data.quota as number;
  const dollars = (quota: number) => `$${(quota / 500000).toFixed(2)}`;

  await sidebar(page).getByText('Wallet', { exact: true }).click();
  await expect(page).toHaveURL(/\/topup$/);
  await expect(page.getByText(dollars(before), { exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Redeem' }).click();
  await expect(page.getByText('please enter a redemption code')).toBeVisible();

  await page.getByLabel('Redemption code').fill(code);
  await page.getByRole('button', { name: 'Redeem' }).click();
  await expect(page.getByText('code redeemed: $0.20 added to your balance')).toBeVisible();
  await expect(page.getByText(dollars(before + 100000), { exact: true })).toBeVisible();

  // The same code a second time is refused with the server's reason.
  await page.getByLabel('Redemption code').fill(code);
  await page.getByRole('button', { name: 'Redeem' }).click();
  await expect(page.getByText('the redemption code has already been used')).toBeVisible();
  await expect(page.getByText(dollars(before + 100000), { exact: true })).toBeVisible();
});
