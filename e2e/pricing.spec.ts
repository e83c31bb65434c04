// The pricing page on the real server: a model root serves to the default group is listed for
// visitors with its price per 1M tokens in the default group.
import { expect, test } from '@playwright/test';
import { logIn } from './helpers.js';

test('a visitor sees gpt-4o-mini with its price per 1M tokens', async ({ page, browser }) => {
  await logIn(page, 'root', '123456');
  const rootId = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}').id as number);
  const res = await page.request.post('/api/channel/', {
    headers: { 'New-Api-User': String(rootId) },
    data: {
      name: 'e2e pricing channel',
      type: 1,
      key: 'e2e-pricing-key',
      base_url: 'http://127.0.0.1:9',
      models: 'gpt-4o-mini',
      group: 'default',
    },
  });
  expect(res.ok(), await res.text()).toBe(true);

  const visitor = await browser.newPage();
  await visitor.goto('/pricing');
  await expect(visitor.getByRole('heading', { name: 'Model pricing' })).toBeVisible();
  await expect(visitor.getByRole('radio', { name: 'default ×1' })).toBeChecked();
  const row = visitor.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: 'gpt-4o-mini' });
  await expect(row).toHaveCount(1);
  await expect(row.getByLabel('The default group can use this model')).toBeVisible();
  await expect(row).toContainText('Per usage');
  // Default ratios: model 0.075, completion 4 → $0.15 and $0.60 per 1M tokens.
  await expect(row).toContainText('Prompt $0.15 / 1M tokens');
  await expect(row).toContainText('Completion $0.6 / 1M tokens');

  // Searching narrows the list to matching names.
  await visitor.getByLabel('Search models').fill('no-such-model');
  await visitor.getByRole('button', { name: 'Query' }).click();
  await expect(row).toHaveCount(0);
  await visitor.close();
});
