// A type the relay cannot serve yet is never offered as a working choice: root sees it marked in the
// type list, is warned in the form and on saving (the channel is saved all the same), and the list
// marks the channel instead of showing it as healthy. The form also tells what a vendor's key is.
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { freshUsername, logIn } from './helpers.js';

async function logInAsRoot(page: Page): Promise<Record<string, string>> {
  await logIn(page, 'root', '123456');
  const warning = page.getByRole('dialog').filter({ hasText: 'default password' });
  await expect(warning).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(warning).toHaveCount(0);
  const id = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}').id as number);
  return { 'New-Api-User': String(id) };
}

test('a channel of a type the relay cannot serve yet is marked, warned about, saved and flagged in the list', async ({
  page,
}, testInfo) => {
  test.setTimeout(60_000);
  const headers = await logInAsRoot(page);
  const name = freshUsername('baidu');
  await page.goto('/channel/add');
  const drawer = page.getByRole('dialog', { name: 'Add channel' });
  const typeField = drawer.getByRole('combobox', { name: 'Type' });

  // Anthropic: relayed, unmarked, and its key explained.
  await typeField.click();
  await page.keyboard.type('Anthropic');
  const anthropic = page.locator('.ant-select-item-option', { hasText: 'Anthropic Claude' });
  await expect(anthropic).toBeVisible();
  await expect(anthropic.getByText('Not supported yet')).toHaveCount(0);
  await page.keyboard.press('Enter');
  await expect(drawer.getByText('An Anthropic API key, starting with sk-ant-.')).toBeVisible();
  await expect(drawer.getByLabel('Key', { exact: true })).toHaveAttribute('placeholder', 'sk-ant-…');
  await expect(drawer.getByRole('alert')).toHaveCount(0);

  // Baidu: marked in the list of types, then warned about in the form.
  await typeField.click();
  await page.keyboard.type('Baidu');
  const baidu = page.locator('.ant-select-item-option', { hasText: 'Baidu Wenxin' });
  await expect(baidu.getByText('Not supported yet')).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(drawer.getByTitle('Baidu Wenxin', { exact: true })).toBeVisible();
  await expect(drawer.getByRole('alert')).toContainText(
    'Calls cannot be relayed to Baidu Wenxin channels yet. You can save this channel to prepare it',
  );

  await drawer.getByLabel('Name').fill(name);
  await drawer.getByLabel('Key', { exact: true }).fill('api-key|secret-key');
  // The type switch filled in Baidu's models.
  await expect(drawer.getByTitle('ERNIE-4.0-8K')).toBeVisible();
  await drawer.getByRole('button', { name: 'Submit' }).click();
  await expect(
    page.getByText('channel created, but calls cannot be relayed to Baidu Wenxin channels yet'),
  ).toBeVisible();
  await expect(drawer).toHaveCount(0);

  await page.getByLabel('Search channels').fill(name);
  await page.getByRole('button', { name: 'Query' }).click();
  const row = page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await expect(row.getByText('Enabled', { exact: true })).toBeVisible();
  const mark = row.getByText('Not supported yet', { exact: true });
  await expect(mark).toBeVisible();
  await mark.hover();
  await expect(
    page
      .getByRole('tooltip')
      .filter({ hasText: 'calls that only this channel could take are refused (501)' }),
  ).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('list-mark.png') });

  const found = await page.request.get('/api/channel/search', { headers, params: { keyword: name } });
  const ids = ((await found.json()) as { data: Array<{ id: number }> }).data.map((c) => c.id);
  for (const id of ids) await page.request.delete(`/api/channel/${id}/`, { headers });
});
