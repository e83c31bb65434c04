// Shared steps of the console specs.
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import type { Page } from '@playwright/test';
import SQLite from 'better-sqlite3';

/** A username nobody has used yet on this server (at most 20 characters). */
export const freshUsername = (prefix = 'u'): string =>
  `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`.slice(0, 20);

/** Registers through the API (the register screen has its own spec). */
export async function registerUser(page: Page, username: string, password: string): Promise<void> {
  const res = await page.request.post('/api/user/register', {
    data: { username, password, password2: password },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

/** Signs in through the login screen and waits until the console knows the user. */
export async function logIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in', exact: true }).last().click();
  await expect(page.getByText('login success')).toBeVisible();
}

export const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Sidebar' });

/** The server's database (e2e/serve.js leaves its path under the port); no console call makes these rows. */
export function openServerDatabase(baseURL: string | undefined): SQLite.Database {
  const port = new URL(baseURL ?? 'http://127.0.0.1:3000').port;
  const path = readFileSync(join(tmpdir(), `sluice-e2e-${port}.db-path`), 'utf8');
  const db = new SQLite(path);
  db.pragma('busy_timeout = 5000');
  return db;
}
