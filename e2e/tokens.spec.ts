// The token page on the real server: a new user creates a token through the drawer, sees its key,
// disables and enables it, and is asked to select tokens before copying.
import { expect, test } from '@playwright/test';
import { freshUsername, logIn, registerUser, sidebar } from './helpers.js';

test('a user creates a token, sees its key, and disables and enables it', async ({ page }) => {
  const username = freshUsername('tkn');
  await registerUser(page, username, 'e2e-password-4');
  await logIn(page, username, 'e2e-password-4');
  await sidebar(page).getByText('Tokens', { exact: true }).click();
  await expect(page).toHaveURL(/\/token$/);
  await expect(page.getByRole('heading', { name: 'My tokens' })).toBeVisible();
  await expect(page.getByText('do not hand them directly to other people')).toBeVisible();

  // Nothing selected yet: copying asks for a selection.
  await page.getByRole('button', { name: 'Copy selected' }).click();
  await expect(page.getByText('please select at least one token')).toBeVisible();

  await page.getByRole('button', { name: 'Add token' }).click();
  const drawer = page.getByRole('dialog', { name: 'Add token' });
  await drawer.getByRole('button', { name: 'Submit' }).click();
  await expect(drawer.getByText('please enter a token name')).toBeVisible();
  await drawer.getByLabel('Name').fill('e2e-token');
  await drawer.getByRole('group', { name: 'Quota presets' }).getByRole('button', { name: '10$' }).click();
  await expect(drawer.getByRole('spinbutton', { name: 'Quota' })).toHaveValue('5000000');
  await drawer
    .getByRole('group', { name: 'Expiry shortcuts' })
    .getByRole('button', { name: 'One day' })
    .click();
  await drawer.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('token created')).toBeVisible();
  await expect(drawer).toBeHidden();

  const row = page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: 'e2e-token' });
  await expect(row).toHaveCount(1);
  await expect(row.getByText('Enabled', { exact: true })).toBeVisible();
  await expect(row.getByText('$10.00')).toBeVisible();
  await expect(row.getByText('Never')).toHaveCount(0);

  await row.getByRole('button', { name: 'View key' }).click();
  const key = page.getByRole('tooltip').getByText(/^sk-[A-Za-z0-9]{48}$/);
  await expect(key).toBeVisible();
  const shown = (await key.textContent()) ?? '';

  // The server has the same key (stored without the prefix).
  const userId = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}').id as number);
  const listed = await page.request.get('/api/token/', { headers: { 'New-Api-User': String(userId) } });
  const [stored] = (await listed.json()).data as Array<{ key: string; status: number }>;
  expect(`sk-${stored?.key}`).toBe(shown);

  await row.getByRole('button', { name: 'Disable' }).click();
  await expect(page.getByText('token disabled')).toBeVisible();
  await expect(row.getByText('Disabled', { exact: true })).toBeVisible();
  await row.getByRole('button', { name: 'Enable' }).click();
  await expect(page.getByText('token enabled')).toBeVisible();
  await expect(row.getByText('Enabled', { exact: true })).toBeVisible();

  // A reload shows what the server stored.
  await page.reload();
  await expect(
    page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: 'e2e-token' }).getByText('Enabled', {
      exact: true,
    }),
  ).toBeVisible();
});
