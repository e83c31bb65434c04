import { expect, test } from '@playwright/test';

test('the console loads, shows the site name and checks the sign-in form', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Sluice' })).toBeVisible();
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('status')).toHaveText('please enter username and password');
});

test('a client-side route falls back to the console page', async ({ page }) => {
  const res = await page.goto('/some/client/route');
  expect(res?.status()).toBe(200);
  await expect(page.getByRole('heading', { name: 'Sluice' })).toBeVisible();
});
