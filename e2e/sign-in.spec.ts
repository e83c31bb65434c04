/// <reference lib="dom" />
// Browser globals below run inside the page (page.evaluate).
import { expect, test } from '@playwright/test';
import { freshUsername, logIn, sidebar } from './helpers.js';

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
