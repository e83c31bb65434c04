/// <reference lib="dom" />
// Browser globals below run inside the page (page.evaluate).
import { expect, test } from '@playwright/test';
import { freshUsername, logIn, registerUser } from './helpers.js';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test('the personal page shows the user and generates and copies an access token', async ({ page }) => {
  const username = freshUsername('tok');
  await registerUser(page, username, 'e2e-password-2');
  await logIn(page, username, 'e2e-password-2');

  await page.goto('/setting?tab=personal');
  await expect(page.getByRole('heading', { name: username })).toBeVisible();
  await expect(page.getByText('Balance', { exact: true })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Invite link' })).toHaveValue(/\/register\?aff=\w+/);

  await page.getByRole('button', { name: 'Generate access token' }).click();
  await expect(page.getByText('token reset and copied')).toBeVisible();
  const shown = await page.getByRole('textbox', { name: 'System access token' }).inputValue();
  expect(shown.length).toBeGreaterThanOrEqual(16);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown);

  // The token works instead of the session cookie.
  const self = await page.request.get('/api/user/self', { headers: { Authorization: shown } });
  expect((await self.json()).data.username).toBe(username);
});

test('the delete-account dialog insists on the account name', async ({ page }) => {
  const username = freshUsername('del');
  await registerUser(page, username, 'e2e-password-3');
  await logIn(page, username, 'e2e-password-3');
  await page.goto('/setting?tab=personal');
  await page.getByRole('button', { name: 'Delete account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete account' });
  await dialog.getByRole('textbox').fill('someone-else');
  await dialog.getByRole('button', { name: 'Delete permanently' }).click();
  await expect(dialog.getByText('please enter your account name to confirm deletion')).toBeVisible();
  await dialog.getByRole('textbox').fill(username);
  await dialog.getByRole('button', { name: 'Delete permanently' }).click();
  await expect(page.getByText('account deleted')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});
