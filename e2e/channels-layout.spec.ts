// The channel list and drawer at a common laptop size (1440×900): wide rows keep their Weight cell
// clear of the pinned Actions column, in plain and tag mode, and the Vertex key upload shows only
// its styled button.
import { expect, test } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';
import { freshUsername, logIn } from './helpers.js';

test.use({ viewport: { width: 1440, height: 900 } });

async function logInAsRoot(page: Page): Promise<Record<string, string>> {
  await logIn(page, 'root', '123456');
  const warning = page.getByRole('dialog').filter({ hasText: 'default password' });
  await expect(warning).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(warning).toHaveCount(0);
  const id = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}').id as number);
  return { 'New-Api-User': String(id) };
}

type Find = (scope: Page | Locator) => Locator;

/** The row's cell holding what `find` finds, its box, and whether that content is drawn on top. */
async function cellOf(page: Page, row: Locator, find: Find) {
  const cell = row.locator('td', { has: find(page) });
  // elementFromPoint sees only the viewport, and the top bar is sticky: bring the cell to the middle.
  await find(cell).evaluate((el) => el.scrollIntoView({ block: 'center' }));
  const box = await cell.boundingBox();
  const content = await find(cell).boundingBox();
  if (!box || !content) throw new Error('cell not laid out');
  // Whatever is drawn at the middle of the content is what the user sees and clicks.
  const onTop = await find(cell).evaluate(
    (el, point) => {
      const hit = document.elementFromPoint(point.x, point.y);
      return el.contains(hit);
    },
    { x: content.x + content.width / 2, y: content.y + content.height / 2 },
  );
  return { box, onTop };
}

async function expectWeightClear(page: Page, row: Locator, label: string) {
  const findWeight: Find = (scope) => scope.getByLabel(`Weight of ${label}`);
  const findActions: Find = (scope) => scope.getByRole('button', { name: /^(Edit|Edit tag)$/ });
  // A refetch (the list refreshes itself) lays the loading veil over the whole table for a moment;
  // what is checked is the layout once the table is idle, so wait for that and ask again while a
  // veil or a passing toast is in the way. A real overlap stays and still fails.
  await expect(page.locator('.ant-table-wrapper .ant-spin-spinning')).toHaveCount(0);
  await expect
    .poll(async () => (await cellOf(page, row, findWeight)).onTop, {
      message: `Weight of ${label} is not covered`,
    })
    .toBe(true);
  await expect.poll(async () => (await cellOf(page, row, findActions)).onTop).toBe(true);
  const weight = await cellOf(page, row, findWeight);
  const actions = await cellOf(page, row, findActions);
  expect(weight.box.x + weight.box.width, `Weight of ${label} ends before Actions`).toBeLessThanOrEqual(
    actions.box.x + 0.5,
  );
}

test('wide channel rows keep Weight clear of the pinned Actions column', async ({ page }, testInfo) => {
  const headers = await logInAsRoot(page);
  const prefix = freshUsername('wide');
  const tag = `${prefix}-a-long-team-tag-name`;
  // A full page of rows (so the page also shows its scrollbar), each as wide as a channel gets:
  // a long name, many long groups, a long type name, big numbers.
  for (let i = 0; i < 10; i++) {
    const created = await page.request.post('/api/channel/', {
      headers,
      data: {
        name: `${prefix}-${i}-with-a-rather-long-channel-name-for-the-table`,
        type: i % 2 === 0 ? 3 : 22,
        key: i % 2 === 0 ? `sk-wide-${i}` : `key-${i}-app`,
        base_url: 'http://127.0.0.1:9',
        models: 'gpt-4o,gpt-4o-mini,o1,o3-mini,text-embedding-3-large',
        groups: ['default', 'vip', 'enterprise-customers', 'internal-testing', 'partners-asia-pacific'],
        priority: -999 + i,
        weight: 1234567 + i,
        tag: i < 3 ? tag : '',
      },
    });
    expect(created.ok(), await created.text()).toBe(true);
  }

  await page.goto('/channel');
  await page.getByLabel('Search channels').fill(prefix);
  await page.getByRole('button', { name: 'Query' }).click();
  const rows = page.locator('.ant-table-tbody tr.ant-table-row');
  await expect(rows).toHaveCount(10);
  // The table fits: nothing to scroll sideways, so nothing hides under the pinned column.
  const content = page.locator('.ant-table-content, .ant-table-body').first();
  expect(await content.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(1);
  for (let i = 0; i < 10; i++) {
    const name = `${prefix}-${i}-with-a-rather-long-channel-name-for-the-table`;
    await expectWeightClear(page, rows.filter({ hasText: name }), name);
  }
  await page.screenshot({ path: testInfo.outputPath('channels-1440.png'), fullPage: true });

  // Tag mode: the tag row (and its children once opened) too.
  await page.getByRole('switch', { name: 'Group by tag' }).click();
  const tagRow = rows.filter({ hasText: '3 channels' });
  await expect(tagRow).toHaveCount(1);
  await expect(rows).toHaveCount(8);
  await expectWeightClear(page, tagRow, tag);
  await tagRow.getByRole('button', { name: /Expand row/ }).click();
  const child = `${prefix}-0-with-a-rather-long-channel-name-for-the-table`;
  await expect(rows.filter({ hasText: child })).toHaveCount(1);
  await expectWeightClear(page, rows.filter({ hasText: child }), child);
  await page.screenshot({ path: testInfo.outputPath('channels-1440-tags.png') });

  // With the batch checkboxes too, the expander stays by the tag's name and Weight stays clear.
  await page.getByRole('switch', { name: 'Batch delete' }).click();
  await expect(rows.filter({ hasText: child }).getByRole('checkbox')).toBeVisible();
  const nameCell = tagRow.locator('td', { hasText: '3 channels' });
  await expect(nameCell.getByRole('button', { name: /Collapse row|Expand row/ })).toBeVisible();
  await expectWeightClear(page, tagRow, tag);
  await expectWeightClear(page, rows.filter({ hasText: child }), child);
});

test('the Vertex key upload shows only its styled button, which still reads the files', async ({
  page,
}, testInfo) => {
  await logInAsRoot(page);
  await page.goto('/channel/add');
  const drawer = page.getByRole('dialog', { name: 'Add channel' });
  // Pick the type by keyboard, as a user can: a click on an option that is still sliding in can be
  // lost on a busy machine, and then the form stays OpenAI.
  await drawer.getByRole('combobox', { name: 'Type' }).click();
  await page.keyboard.type('Vertex');
  await expect(page.getByRole('option', { name: 'Vertex AI', exact: true })).toHaveCount(1);
  await page.keyboard.press('Enter');
  await expect(drawer.getByTitle('Vertex AI', { exact: true })).toBeVisible();
  const button = drawer.locator('button', { hasText: 'Upload service-account JSON files' });
  await expect(button).toBeVisible();
  const native = drawer.locator('input[type="file"]');
  await expect(native).toHaveCount(1);
  await expect(native).toBeHidden();
  expect(await native.boundingBox()).toBeNull();
  await page.screenshot({ path: testInfo.outputPath('vertex-upload-1440.png') });

  const account = { type: 'service_account', client_email: 'e2e@project.iam', private_key: 'k' };
  await native.setInputFiles({
    name: 'account.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(account)),
  });
  await expect(drawer.getByLabel('Key', { exact: true })).toHaveValue(JSON.stringify(account));
});
