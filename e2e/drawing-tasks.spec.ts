// Drawing and async task records on the real server: rows written to the database the way new-api
// writes them (drawing times in milliseconds, task times in seconds) show on /midjourney and /task
// with their dates, durations and progress; an admin sees everyone's, a user only their own. A failed
// task's bar is red, and the pages speak the console's language, column titles included.
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import SQLite from 'better-sqlite3';
import { freshUsername, logIn, registerUser } from './helpers.js';

const PASSWORD = 'e2e-password-7';

/** The server's database (e2e/serve.js leaves its path under the port); no console call makes these rows. */
function openServerDatabase(baseURL: string | undefined): SQLite.Database {
  const port = new URL(baseURL ?? 'http://127.0.0.1:3000').port;
  const path = readFileSync(join(tmpdir(), `sluice-e2e-${port}.db-path`), 'utf8');
  const db = new SQLite(path);
  db.pragma('busy_timeout = 5000');
  return db;
}

interface Drawing {
  user_id: number;
  mj_id: string;
  status: string;
  progress: string;
  prompt: string;
  fail_reason: string;
  submit_time: number;
  finish_time: number;
}

function insertDrawing(db: SQLite.Database, row: Drawing): void {
  db.prepare(
    `INSERT INTO midjourneys (code, user_id, action, mj_id, prompt, prompt_en, description, state,
       submit_time, start_time, finish_time, image_url, status, progress, fail_reason, channel_id,
       quota, buttons, properties)
     VALUES (1, @user_id, 'IMAGINE', @mj_id, @prompt, '', '', '', @submit_time, @submit_time,
       @finish_time, '', @status, @progress, @fail_reason, 1, 0, '[]', '{}')`,
  ).run(row);
}

function insertTask(
  db: SQLite.Database,
  row: { user_id: number; task_id: string; submit_time: number },
): void {
  db.prepare(
    `INSERT INTO tasks (created_at, updated_at, task_id, platform, user_id, channel_id, quota, action,
       status, fail_reason, submit_time, start_time, finish_time, progress, properties, data)
     VALUES (@submit_time, @submit_time, @task_id, 'suno', @user_id, 1, 0, 'MUSIC', 'SUCCESS', '',
       @submit_time, @submit_time, @submit_time + 95, '100%', '{}', '{}')`,
  ).run(row);
}

/** Local date and time as the console shows it (YYYY-MM-DD HH:mm:ss). */
function localTime(unixMs: number): string {
  const d = new Date(unixMs);
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ` +
    `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`
  );
}

async function signedInUserId(page: Page): Promise<number> {
  return page.evaluate(() => (JSON.parse(localStorage.getItem('user') ?? '{}') as { id: number }).id);
}

async function logInAsRoot(page: Page): Promise<number> {
  await logIn(page, 'root', '123456');
  const warning = page.getByRole('dialog').filter({ hasText: 'default password' });
  await expect(warning).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(warning).toHaveCount(0);
  return signedInUserId(page);
}

const rowWith = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });

test('drawing and task records show on their pages, each user seeing their own', async ({
  page,
  baseURL,
}) => {
  const username = freshUsername('draw');
  await registerUser(page, username, PASSWORD);
  await logIn(page, username, PASSWORD);
  const userId = await signedInUserId(page);
  const rootId = await logInAsRoot(page);

  const tag = username.slice(-6);
  // Ten minutes ago, to the millisecond, as new-api records a drawing.
  const submitted = Date.now() - 10 * 60_000 + 123;
  const nowSeconds = Math.floor(Date.now() / 1000);
  const db = openServerDatabase(baseURL);
  try {
    insertDrawing(db, {
      user_id: rootId,
      mj_id: `mj-ok-${tag}`,
      status: 'SUCCESS',
      progress: '100%',
      prompt: 'a lighthouse at dusk',
      fail_reason: '',
      submit_time: submitted,
      finish_time: submitted + 42_300,
    });
    insertDrawing(db, {
      user_id: rootId,
      mj_id: `mj-failed-${tag}`,
      status: 'FAILURE',
      progress: '100%',
      prompt: 'a forbidden thing',
      fail_reason: 'banned prompt',
      submit_time: submitted + 1000,
      finish_time: submitted + 6000,
    });
    insertDrawing(db, {
      user_id: userId,
      mj_id: `mj-user-${tag}`,
      status: 'IN_PROGRESS',
      progress: '40%',
      prompt: 'a small boat',
      fail_reason: '',
      submit_time: submitted + 2000,
      finish_time: 0,
    });
    insertTask(db, { user_id: rootId, task_id: `suno-root-${tag}`, submit_time: nowSeconds - 5 });
    insertTask(db, { user_id: userId, task_id: `suno-user-${tag}`, submit_time: nowSeconds - 4 });
  } finally {
    db.close();
  }

  // The admin's drawing list: everyone's rows, dates from milliseconds, a red bar for the failure.
  await page.goto('/midjourney');
  const done = rowWith(page, `mj-ok-${tag}`);
  await expect(done).toBeVisible();
  await expect(done.getByText(localTime(submitted))).toBeVisible();
  await expect(done.getByText('42.3 s')).toBeVisible();
  await expect(done.getByRole('progressbar')).toHaveClass(/status-success/);
  const failed = rowWith(page, `mj-failed-${tag}`);
  await expect(failed.getByText('Failed', { exact: true })).toBeVisible();
  await expect(failed.getByRole('progressbar')).toHaveClass(/status-exception/);
  await expect(rowWith(page, `mj-user-${tag}`)).toBeVisible();
  await page.screenshot({ path: 'test-results/drawing-admin.png', fullPage: true });

  await page.goto('/task');
  const task = rowWith(page, `suno-root-${tag}`);
  await expect(task).toBeVisible();
  await expect(task.getByText(localTime((nowSeconds - 5) * 1000))).toBeVisible();
  await expect(task.getByText('95 s')).toBeVisible();
  await expect(rowWith(page, `suno-user-${tag}`)).toBeVisible();
  await page.screenshot({ path: 'test-results/tasks-admin.png', fullPage: true });

  // The user sees only their own records.
  await logIn(page, username, PASSWORD);
  await page.goto('/midjourney');
  await expect(rowWith(page, `mj-user-${tag}`)).toBeVisible();
  await expect(rowWith(page, `mj-user-${tag}`).getByRole('progressbar')).toHaveAttribute(
    'aria-valuenow',
    '40',
  );
  await expect(page.getByText(`mj-ok-${tag}`)).toHaveCount(0);
  await page.goto('/task');
  await expect(rowWith(page, `suno-user-${tag}`)).toBeVisible();
  await expect(page.getByText(`suno-root-${tag}`)).toHaveCount(0);
});

test('a failed task shows a red bar, and the drawing columns are translated in Chinese', async ({
  page,
  baseURL,
}) => {
  const username = freshUsername('fail');
  await registerUser(page, username, PASSWORD);
  await logIn(page, username, PASSWORD);
  const userId = await signedInUserId(page);
  const tag = username.slice(-6);
  const submitted = Math.floor(Date.now() / 1000) - 120;
  const db = openServerDatabase(baseURL);
  try {
    // A task that failed once the upstream had reported it finished: progress "100%".
    db.prepare(
      `INSERT INTO tasks (created_at, updated_at, task_id, platform, user_id, channel_id, quota, action,
         status, fail_reason, submit_time, start_time, finish_time, progress, properties, data)
       VALUES (@at, @at, @task_id, 'suno', @user_id, 1, 0, 'MUSIC', 'FAILURE', 'upstream refused the lyrics',
         @at, @at, @at + 30, '100%', '{}', '{}')`,
    ).run({ at: submitted, task_id: `suno-failed-${tag}`, user_id: userId });
    insertTask(db, { user_id: userId, task_id: `suno-done-${tag}`, submit_time: submitted + 1 });
    insertDrawing(db, {
      user_id: userId,
      mj_id: `mj-zh-${tag}`,
      status: 'SUCCESS',
      progress: '100%',
      prompt: '灯塔，黄昏',
      fail_reason: '',
      submit_time: submitted * 1000,
      finish_time: submitted * 1000 + 20_000,
    });
  } finally {
    db.close();
  }

  await page.goto('/task');
  const failed = rowWith(page, `suno-failed-${tag}`);
  await expect(failed.getByText('Failed', { exact: true })).toBeVisible();
  // Red, not the green of a finished task, although its progress says 100%.
  await expect(failed.getByRole('progressbar')).toHaveClass(/status-exception/);
  await expect(failed.getByRole('progressbar')).not.toHaveClass(/status-success/);
  await expect(rowWith(page, `suno-done-${tag}`).getByRole('progressbar')).toHaveClass(/status-success/);
  await page.screenshot({ path: 'test-results/task-failed.png', fullPage: true });

  // The console in Chinese, as the language menu leaves it.
  await page.evaluate(() => localStorage.setItem('language', 'zh-CN'));
  await page.goto('/task');
  const failedZh = rowWith(page, `suno-failed-${tag}`);
  await expect(failedZh.getByText('失败', { exact: true })).toBeVisible();
  await expect(failedZh.getByRole('progressbar')).toHaveClass(/status-exception/);

  await page.goto('/midjourney');
  await expect(rowWith(page, `mj-zh-${tag}`)).toBeVisible();
  await expect(page.getByRole('columnheader', { name: '提示词', exact: true })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: '英文提示词', exact: true })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Prompt', exact: true })).toHaveCount(0);
  await expect(page.getByRole('columnheader', { name: 'PromptEn', exact: true })).toHaveCount(0);
  await page.screenshot({ path: 'test-results/drawing-zh.png', fullPage: true });
});
