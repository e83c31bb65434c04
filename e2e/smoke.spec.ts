/// <reference lib="dom" />
// Browser globals below run inside the page (page.evaluate).
import { expect, test } from '@playwright/test';

test('the console loads with the site name and a welcome for visitors', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Welcome to Sluice' })).toBeVisible();
  await expect(page.getByText('Sluice — MIT licensed')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Log in' }).first()).toBeVisible();
});

test('an unknown client-side route shows the not-found page', async ({ page }) => {
  const res = await page.goto('/some/client/route');
  expect(res?.status()).toBe(200);
  await expect(page.getByText('page does not exist')).toBeVisible();
});

test('a page that needs a signed-in user sends a visitor to the login screen', async ({ page }) => {
  await page.goto('/setting');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
});

test('dark mode toggles, is remembered and changes the page background', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const before = await background();
  const toggle = page.getByRole('button', { name: 'Toggle dark mode' });
  const mode = await page.evaluate(() => localStorage.getItem('theme-mode'));

  await toggle.click();
  const next = mode === 'dark' ? 'light' : 'dark';
  await expect.poll(() => page.evaluate(() => localStorage.getItem('theme-mode'))).toBe(next);
  await expect.poll(background).not.toBe(before);

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(next);
  await expect.poll(background).not.toBe(before);
});
