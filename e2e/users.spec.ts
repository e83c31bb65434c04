// User management on the real server: root creates a user, finds it, and walks it through every
// row action; a regular user cannot open the page.
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { freshUsername, logIn, registerUser, sidebar } from './helpers.js';

/** Root still has the first-start password here; the console asks to change it, which we decline. */
async function logInAsRoot(page: Page): Promise<void> {
  await logIn(page, 'root', '123456');
  const warning = page.getByRole('dialog').filter({ hasText: 'default password' });
  await expect(warning).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(warning).toHaveCount(0);
}

test('root creates, finds, disables, enables, promotes, demotes and deletes a user', async ({ page }) => {
  const username = freshUsername('mgd');
  await logInAsRoot(page);
  await sidebar(page).getByText('Users', { exact: true }).click();
  await expect(page).toHaveURL(/\/user$/);
  await expect(page.getByRole('heading', { name: 'Manage users' })).toBeVisible();

  // Add: the drawer marks the missing fields first.
  await page.getByRole('button', { name: 'Add user' }).click();
  const drawer = page.getByRole('dialog', { name: 'Add user' });
  await drawer.getByRole('button', { name: 'Create' }).click();
  await expect(drawer.getByText('please enter username and password')).toHaveCount(2);
  await drawer.getByLabel('Username').fill(username);
  await drawer.getByLabel('Display name').fill('Managed One');
  await drawer.getByLabel('Password').fill('e2e-password-9');
  await drawer.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('user created')).toBeVisible();

  // Search finds exactly that user.
  await page.getByLabel('Search users').fill(username);
  await page.getByRole('button', { name: 'Query' }).click();
  await expect(page).toHaveURL(new RegExp(`keyword=${username}`));
  const rows = page.locator('.ant-table-tbody tr.ant-table-row');
  await expect(rows).toHaveCount(1);
  const row = rows.first();
  await expect(row).toContainText(username);
  await expect(row).toContainText('Managed One');
  await expect(row.getByText('Regular user')).toBeVisible();
  await expect(row.getByText('Activated')).toBeVisible();

  await row.getByRole('button', { name: 'Disable' }).click();
  await expect(row.getByText('Banned')).toBeVisible();
  await row.getByRole('button', { name: 'Enable' }).click();
  await expect(row.getByText('Activated')).toBeVisible();
  await row.getByRole('button', { name: 'Promote' }).click();
  await expect(row.getByText('Admin', { exact: true })).toBeVisible();
  await row.getByRole('button', { name: 'Demote' }).click();
  await expect(row.getByText('Regular user')).toBeVisible();

  await row.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('tooltip').filter({ hasText: `Delete user ${username}?` });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(row.getByText('Deregistered')).toBeVisible();
  await expect(row.getByRole('button')).toHaveCount(0);

  // The server agrees, and a reload shows the same.
  const rootId = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}').id as number);
  const res = await page.request.get('/api/user/search', {
    params: { keyword: username },
    headers: { 'New-Api-User': String(rootId) },
  });
  const [found] = (await res.json()).data as Array<{ DeletedAt: number | null; role: number }>;
  expect(found?.DeletedAt).not.toBeNull();
  expect(found?.role).toBe(1);
  await page.reload();
  await expect(
    page.locator('.ant-table-tbody tr.ant-table-row').first().getByText('Deregistered'),
  ).toBeVisible();
});

test('a regular user is sent away from user management and sees no admin menu items', async ({ page }) => {
  const username = freshUsername('reg');
  await registerUser(page, username, 'e2e-password-8');
  await logIn(page, username, 'e2e-password-8');
  await page.goto('/user');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Manage users' })).toHaveCount(0);
  await expect(page.locator('.ant-table')).toHaveCount(0);
  await expect(sidebar(page).getByText('Tokens')).toBeVisible();
  for (const adminItem of ['Channels', 'Redemption codes', 'Users']) {
    await expect(sidebar(page).getByText(adminItem, { exact: true })).toHaveCount(0);
  }
});
