// The playground on the real server: root adds a channel at the fake upstream, chats with the
// default model, sees the streamed answer, and clears the context.
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { startMockUpstream } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { logIn } from './helpers.js';

let mock: MockUpstream;
test.beforeAll(async () => {
  mock = await startMockUpstream();
});
test.afterAll(async () => {
  await mock?.close();
});

/** Root still has the first-start password here; the console asks to change it, which we decline. */
async function logInAsRoot(page: Page): Promise<void> {
  await logIn(page, 'root', '123456');
  const warning = page.getByRole('dialog').filter({ hasText: 'default password' });
  await expect(warning).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(warning).toHaveCount(0);
}

async function addMockChannel(page: Page): Promise<void> {
  const rootId = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}').id as number);
  const res = await page.request.post('/api/channel/', {
    headers: { 'New-Api-User': String(rootId) },
    data: {
      name: 'e2e playground upstream',
      type: 1,
      key: 'e2e-upstream-key',
      base_url: mock.url,
      models: 'gpt-4o-mini,gpt-4o',
      group: 'default',
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

test('a user chats in the playground with the default model and clears the context', async ({ page }) => {
  await logInAsRoot(page);
  await addMockChannel(page);

  await page.goto('/playground');
  await expect(page.getByRole('heading', { name: 'Playground' })).toBeVisible();
  // The default model is chosen once the group's models have arrived.
  await expect(page.locator('.ant-select').filter({ has: page.locator('#playground-model') })).toContainText(
    'gpt-4o-mini',
  );

  const input = page.getByLabel('Message', { exact: true });
  await input.fill('hello from the browser');
  await input.press('Enter');
  const conversation = page.getByRole('list', { name: 'Conversation' });
  await expect(conversation.getByRole('listitem', { name: 'You' })).toHaveText('hello from the browser');
  const answer = conversation.getByRole('listitem', { name: 'Assistant' });
  await expect(answer).toContainText('You said: hello from the browser');
  await expect(answer).toHaveAttribute('data-status', 'complete');
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();

  // The upstream got the playground's request for the chosen model, streamed.
  const sent = mock.requests.at(-1)?.body as { model?: string; stream?: boolean } | undefined;
  expect(sent?.model).toBe('gpt-4o-mini');
  expect(sent?.stream).toBe(true);

  // A second question carries the first exchange as context.
  await input.fill('and again');
  await input.press('Enter');
  await expect(answer.nth(1)).toContainText('You said: and again');
  await expect(answer.nth(1)).toHaveAttribute('data-status', 'complete');
  const context = mock.requests.at(-1)?.body as { messages?: unknown[] } | undefined;
  expect(context?.messages).toHaveLength(3);

  await page.getByRole('button', { name: 'Clear context' }).click();
  await expect(conversation.getByRole('listitem')).toHaveCount(0);
  await expect(page.getByText('Send a message to start the conversation.')).toBeVisible();
  await input.fill('fresh start');
  await input.press('Enter');
  await expect(answer).toContainText('You said: fresh start');
  const fresh = mock.requests.at(-1)?.body as { messages?: unknown[] } | undefined;
  expect(fresh?.messages).toEqual([{ role: 'user', content: 'fresh start' }]);
});

test('the playground shows the login-expired notice when sent there with expired=true', async ({ page }) => {
  await logInAsRoot(page);
  await page.goto('/playground?expired=true');
  await expect(page.getByRole('alert').filter({ hasText: 'login expired' })).toBeVisible();
});
