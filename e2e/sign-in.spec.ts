/// <reference lib="dom" />
// Browser globals below run inside the page (page.evaluate).
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { freshUsername, logIn, openServerDatabase, sidebar } from './helpers.js';

test('the login screen asks for both fields before sending anything', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Log in', exact: true }).last().click();
  await expect(page.getByRole('alert')).toHaveText('please enter username and password');
});

test('root with the first-start password is told to change it at once', async ({ page }) => {
  await logIn(page, 'root', '123456');
  await expect(page).toHaveURL(/\/token$/);
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('you are using the default password; change it at once');
  await dialog.getByRole('button', { name: 'Change it now' }).click();
  await expect(page).toHaveURL(/\/setting\?tab=personal/);
  await expect(page.getByRole('dialog', { name: 'Change password' })).toBeVisible();
  // Root is an admin: the admin items are there.
  await expect(sidebar(page).getByText('Users')).toBeVisible();
  await expect(sidebar(page).getByText('Channels')).toBeVisible();
});

test('a visitor registers, logs in and sees no admin menu items', async ({ page }) => {
  const username = freshUsername('reg');
  await page.goto('/register');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill('e2e-password-1');
  await page.getByLabel('Confirm password').fill('e2e-password-1');
  await page.getByRole('button', { name: 'Register' }).last().click();
  await expect(page.getByText('register success')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  await logIn(page, username, 'e2e-password-1');
  await expect(page).toHaveURL(/\/token$/);
  await expect(page.getByText('you are using the default password')).toHaveCount(0);
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}').username)).toBe(username);

  await page.goto('/setting');
  await expect(sidebar(page).getByText('Tokens')).toBeVisible();
  await expect(sidebar(page).getByText('Settings')).toBeVisible();
  for (const adminItem of ['Channels', 'Redemption codes', 'Users']) {
    await expect(sidebar(page).getByText(adminItem, { exact: true })).toHaveCount(0);
  }
});

test('an account that must choose a new password can do nothing else until it has', async ({
  page,
  baseURL,
}) => {
  // Root's first start without INITIAL_ROOT_PASSWORD marks root this way; the suite's root has the
  // operator's password, so a fresh account is marked as the first start marks root.
  const username = freshUsername('first');
  await page.request.post('/api/user/register', {
    data: { username, password: 'first-password-1', password2: 'first-password-1' },
  });
  const db = openServerDatabase(baseURL);
  db.prepare('update users set password_change_required = 1 where username = ?').run(username);
  db.close();
  await logIn(page, username, 'first-password-1');
  const dialog = page.getByRole('dialog', { name: 'Choose a new password' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('choose a new password first');
  // It cannot be dismissed: no close button, Escape and a click beside it leave it open.
  await expect(dialog.getByRole('button', { name: 'Close' })).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeHidden();
  await page.keyboard.press('Escape');
  await page.mouse.click(5, 400);
  await expect(dialog).toBeVisible();
  // The server refuses everything else meanwhile.
  const refused = await page.evaluate(
    async (id) => {
      const res = await fetch('/api/token/?p=0', { headers: { 'New-Api-User': String(id) } });
      return (await res.json()) as { success: boolean; message: string };
    },
    await userId(page),
  );
  expect(refused).toMatchObject({ success: false });
  await dialog.getByLabel('New password').fill('chosen-password-2');
  await dialog.getByLabel('Confirm password').fill('chosen-password-2');
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('password changed')).toBeVisible();
  // The new password is the one that works now.
  const login = await page.request.post('/api/user/login', {
    data: { username, password: 'chosen-password-2' },
  });
  expect((await login.json()).data.password_change_required).toBe(false);
});

/** The signed-in user's id, as the console keeps it. */
const userId = (page: Page) =>
  page.evaluate(() => (JSON.parse(localStorage.getItem('user') ?? '{}') as { id?: number }).id ?? 0);
