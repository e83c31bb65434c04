// Drawing and async task records on the real server: rows written to the database the way new-api
// writes them (drawing times in milliseconds, task times in seconds) show on /midjourney and /task
// with their dates, durations and progress; an admin sees everyone's, a user only their own. A failed
// task's bar is red, and the pages speak the console's language, column titles included. Results
// show as a user needs them: a drawing's image opens the image viewer, a Suno song's clips have
// covers and players, lyrics their text, and a row whose data is unreadable does not break the page;
// the task id and channel filters narrow the lists.
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import type SQLite from 'better-sqlite3';
import { freshUsername, logIn, openServerDatabase, registerUser } from './helpers.js';

const PASSWORD = 'e2e-password-7';

interface Drawing {
  user_id: number;
  mj_id: string;
  status: string;
  progress: string;
  prompt: string;
  fail_reason: string;
  submit_time: number;
  finish_time: number;
  image_url?: string;
  channel_id?: number;
}

function insertDrawing(db: SQLite.Database, row: Drawing): void {
  db.prepare(
    `INSERT INTO midjourneys (code, user_id, action, mj_id, prompt, prompt_en, description, state,
       submit_time, start_time, finish_time, image_url, status, progress, fail_reason, channel_id,
       quota, buttons, properties)
     VALUES (1, @user_id, 'IMAGINE', @mj_id, @prompt, '', '', '', @submit_time, @submit_time,
       @finish_time, @image_url, @status, @progress, @fail_reason, @channel_id, 0, '[]', '{}')`,
  ).run({ image_url: '', channel_id: 1, ...row });
}

interface Task {
  user_id: number;
  task_id: string;
  submit_time: number;
  action?: string;
  status?: string;
  progress?: string;
  fail_reason?: string;
  data?: string;
  channel_id?: number;
}

function insertTask(db: SQLite.Database, row: Task): void {
  db.prepare(
    `INSERT INTO tasks (created_at, updated_at, task_id, platform, user_id, channel_id, quota, action,
       status, fail_reason, submit_time, start_time, finish_time, progress, properties, data)
     VALUES (@submit_time, @submit_time, @task_id, 'suno', @user_id, @channel_id, 0, @action, @status,
       @fail_reason, @submit_time, @submit_time, @submit_time + 95, @progress, '{}', @data)`,
  ).run({
    action: 'MUSIC',
    status: 'SUCCESS',
    progress: '100%',
    fail_reason: '',
    data: '{}',
    channel_id: 1,
    ...row,
  });
}

/** Where the seeded rows' media live; the browser is answered by page.route, not the network. */
const CDN = 'https://cdn.example.test';

/** One second of silence as a WAV file, so Chromium has real audio to load. */
function silentWav(): Buffer {
  const rate = 8000;
  const samples = rate;
  const wav = Buffer.alloc(44 + samples);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + samples, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate, 28);
  wav.writeUInt16LE(1, 32);
  wav.writeUInt16LE(8, 34);
  wav.write('data', 36);
  wav.writeUInt32LE(samples, 40);
  wav.fill(128, 44);
  return wav;
}

/** Serves the fake CDN: every image is the console's logo, every audio file a second of silence. */
async function serveCdn(page: Page): Promise<void> {
  const logo = readFileSync(new URL('../packages/web/public/logo.png', import.meta.url));
  const wav = silentWav();
  await page.route(`${CDN}/**`, (route) => {
    const audio = route.request().url().endsWith('.wav');
    return route.fulfill({
      status: 200,
      contentType: audio ? 'audio/wav' : 'image/png',
      body: audio ? wav : logo,
    });
  });
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

test('results show as images, players and lyrics, and the filters narrow the lists', async ({
  page,
  baseURL,
}) => {
  await serveCdn(page);
  const rootId = await logInAsRoot(page);
  // The fake CDN answers the browser only; Sluice's image proxy (MjForwardUrlEnabled) could not reach it.
  const forward = await page.request.put('/api/option/', {
    headers: { 'New-Api-User': String(rootId) },
    data: { key: 'MjForwardUrlEnabled', value: 'false' },
  });
  expect((await forward.json()).success).toBe(true);
  const tag = freshUsername('r').slice(-6);
  const submitted = Date.now() - 5 * 60_000;
  const nowSeconds = Math.floor(Date.now() / 1000);
  const clips = [
    {
      id: `clip-a-${tag}`,
      title: 'Harbour lights',
      status: 'complete',
      audio_url: `${CDN}/clip-a.wav`,
      image_url: `${CDN}/clip-a.png`,
      image_large_url: `${CDN}/clip-a-large.png`,
      video_url: `${CDN}/clip-a.mp4`,
      model_name: 'chirp-v3',
      metadata: { tags: 'folk, calm', prompt: '[Verse]\nlights on the water', duration: 154.2 },
    },
    {
      id: `clip-b-${tag}`,
      title: 'Harbour lights (take 2)',
      status: 'complete',
      audio_url: `${CDN}/clip-b.wav`,
      image_url: `${CDN}/clip-b.png`,
      video_url: '',
      model_name: 'chirp-v3',
      metadata: { tags: 'folk, calm', prompt: '[Verse]\nlights on the water', duration: 61 },
    },
  ];
  const db = openServerDatabase(baseURL);
  try {
    insertDrawing(db, {
      user_id: rootId,
      mj_id: `mj-img-${tag}`,
      status: 'SUCCESS',
      progress: '100%',
      prompt: 'a lighthouse at dusk, watercolour',
      fail_reason: '',
      submit_time: submitted,
      finish_time: submitted + 38_000,
      image_url: `${CDN}/grid-${tag}.png`,
    });
    insertDrawing(db, {
      user_id: rootId,
      mj_id: `mj-run-${tag}`,
      status: 'IN_PROGRESS',
      progress: '62%',
      prompt: 'a harbour at night',
      fail_reason: '',
      submit_time: submitted + 1000,
      finish_time: 0,
      channel_id: 2,
    });
    insertDrawing(db, {
      user_id: rootId,
      mj_id: `mj-bad-${tag}`,
      status: 'FAILURE',
      progress: '0%',
      prompt: 'something refused',
      fail_reason: 'the prompt was refused by the moderator',
      submit_time: submitted + 2000,
      finish_time: submitted + 4000,
    });
    insertTask(db, {
      user_id: rootId,
      task_id: `song-${tag}`,
      submit_time: nowSeconds - 30,
      data: JSON.stringify(clips),
    });
    insertTask(db, {
      user_id: rootId,
      task_id: `lyrics-${tag}`,
      submit_time: nowSeconds - 20,
      action: 'LYRICS',
      channel_id: 2,
      data: JSON.stringify({
        id: `lyr-${tag}`,
        title: 'Night song',
        status: 'complete',
        text: '[Verse]\nStars over the harbour\n[Chorus]\nSing it again',
      }),
    });
    insertTask(db, {
      user_id: rootId,
      task_id: `broken-${tag}`,
      submit_time: nowSeconds - 10,
      status: 'FAILURE',
      progress: '',
      fail_reason: 'upstream answered nonsense',
      data: 'this is not json',
    });
  } finally {
    db.close();
  }

  // Drawing: the stored image, loaded, opening the image viewer.
  await page.goto('/midjourney');
  const drawn = rowWith(page, `mj-img-${tag}`);
  const thumbnail = drawn.getByRole('img', { name: `Image of task mj-img-${tag}` });
  await expect(thumbnail).toHaveAttribute('src', `${CDN}/grid-${tag}.png`);
  await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expect(rowWith(page, `mj-run-${tag}`).getByRole('progressbar')).toHaveAttribute(
    'aria-valuenow',
    '62',
  );
  const refused = rowWith(page, `mj-bad-${tag}`);
  await expect(refused.getByRole('progressbar')).toHaveClass(/status-exception/);
  await expect(refused.getByText('the prompt was refused by the moderator')).toBeVisible();
  await page.screenshot({ path: 'test-results/drawing-results-admin.png', fullPage: true });
  await thumbnail.click();
  const viewer = page.locator('.ant-image-preview');
  await expect(viewer.locator(`img[src="${CDN}/grid-${tag}.png"]`)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(viewer).toHaveCount(0);

  // The channel filter (admins) and the task id filter.
  await page.getByLabel('Channel ID').fill('2');
  await page.getByRole('button', { name: 'Query' }).click();
  await expect(rowWith(page, `mj-run-${tag}`)).toBeVisible();
  await expect(page.getByText(`mj-img-${tag}`)).toHaveCount(0);
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(rowWith(page, `mj-img-${tag}`)).toBeVisible();
  await page.getByLabel('Task ID').fill(`mj-bad-${tag}`);
  await page.getByRole('button', { name: 'Query' }).click();
  await expect(rowWith(page, `mj-bad-${tag}`)).toBeVisible();
  await expect(page.getByText(`mj-img-${tag}`)).toHaveCount(0);

  // Tasks: the song's clips with covers and players, the lyrics, and the unreadable row.
  await page.goto('/task');
  const songRow = rowWith(page, `song-${tag}`);
  const player = songRow.getByLabel('Play Harbour lights', { exact: true });
  await expect(player).toHaveAttribute('src', `${CDN}/clip-a.wav`);
  await expect(songRow.getByLabel('Play Harbour lights (take 2)')).toHaveAttribute(
    'src',
    `${CDN}/clip-b.wav`,
  );
  // The player really plays the clip (muted: a test has no listener).
  const played = await player.evaluate(async (audio: HTMLAudioElement) => {
    audio.muted = true;
    await audio.play();
    return audio.duration;
  });
  expect(played).toBeCloseTo(1, 1);
  await expect(songRow.getByText('2:34')).toBeVisible();
  const cover = songRow.getByRole('img', { name: 'Cover of Harbour lights', exact: true });
  await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  const lyricsRow = rowWith(page, `lyrics-${tag}`);
  await expect(lyricsRow.getByText('Night song')).toBeVisible();
  const broken = rowWith(page, `broken-${tag}`);
  await expect(broken.getByText('Failed', { exact: true })).toBeVisible();
  await expect(broken.getByText('upstream answered nonsense')).toBeVisible();
  await expect(broken.getByRole('progressbar')).toHaveClass(/status-exception/);
  await page.screenshot({ path: 'test-results/task-results-admin.png', fullPage: true });

  await cover.click();
  await expect(page.locator(`.ant-image-preview img[src="${CDN}/clip-a-large.png"]`)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.locator('.ant-image-preview')).toHaveCount(0);

  await lyricsRow.getByTitle('Show the whole text').click();
  const lyricsDialog = page.getByRole('dialog').filter({ hasText: 'Sing it again' });
  await expect(lyricsDialog).toBeVisible();
  await expect(lyricsDialog.getByText(/Stars over the harbour/)).toBeVisible();
  // The dialog's own button (the other "Close" is its corner cross).
  await lyricsDialog.getByRole('button', { name: 'Close', exact: true }).last().click();
  await expect(lyricsDialog).toHaveCount(0);

  // The details of the unreadable row keep its raw text.
  await broken.getByText(`broken-${tag}`).click();
  const details = page.getByRole('dialog').filter({ hasText: 'Task details' });
  await expect(details.getByText('this is not json')).toBeVisible();
  await page.keyboard.press('Escape');

  await page.getByLabel('Channel ID').fill('2');
  await page.getByRole('button', { name: 'Query' }).click();
  await expect(rowWith(page, `lyrics-${tag}`)).toBeVisible();
  await expect(page.getByText(`song-${tag}`)).toHaveCount(0);
  await page.getByLabel('Channel ID').fill('');
  await page.getByLabel('Task ID').fill(`song-${tag}`);
  await page.getByRole('button', { name: 'Query' }).click();
  await expect(rowWith(page, `song-${tag}`)).toBeVisible();
  await expect(page.getByText(`lyrics-${tag}`)).toHaveCount(0);
});
