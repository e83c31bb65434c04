// The async task list: whose records are asked for, the admin-only channel filter and column,
// status labels, times in seconds, durations over a minute in red, lazy paging from p=0, the default
// start at midnight today, a failed task's red progress bar, Suno songs (covers that open the image
// viewer, a player per clip) and lyrics, rows whose data is not what was expected, and the details
// dialog.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TaskItem } from '@sluice/shared';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadSections } from '../../i18n';
import { dayjs, formatTimestamp } from '../../lib/dates';
import { clearUser, setUser } from '../../lib/session';
import { DEFAULT_STATUS } from '../../lib/status';
import { installFetch, ok } from '../../test/fake-fetch';
import type { FakeRoute } from '../../test/fake-fetch';
import { renderPage } from '../../test/render';
import { TasksPage } from './tasks-page';

const task: TaskItem = {
  id: 1,
  user_id: 7,
  created_at: 1_790_000_000,
  updated_at: 1_790_000_090,
  task_id: 'suno-task-1',
  platform: 'suno',
  channel_id: 4,
  quota: 100,
  action: 'MUSIC',
  status: 'SUBMITTED',
  fail_reason: '',
  submit_time: 1_790_000_000,
  start_time: 1_790_000_005,
  finish_time: 1_790_000_090,
  progress: '40%',
  properties: '',
  data: '[]',
};

/** Two clips as a Suno server returns a finished song. */
const clips = [
  {
    id: 'clip-a',
    title: 'Harbour lights',
    status: 'complete',
    audio_url: 'https://cdn.example.com/clip-a.mp3',
    image_url: 'https://cdn.example.com/clip-a.jpeg',
    image_large_url: 'https://cdn.example.com/clip-a-large.jpeg',
    video_url: 'https://cdn.example.com/clip-a.mp4',
    model_name: 'chirp-v3',
    metadata: { tags: 'folk, calm', prompt: '[Verse]\nlights on the water', duration: 154.2 },
  },
  {
    id: 'clip-b',
    title: 'Harbour lights (take 2)',
    status: 'complete',
    audio_url: 'https://cdn.example.com/clip-b.mp3',
    image_url: 'https://cdn.example.com/clip-b.jpeg',
    video_url: '',
    model_name: 'chirp-v3',
    metadata: { tags: 'folk, calm', prompt: '[Verse]\nlights on the water', duration: 61 },
  },
];

const song: TaskItem = { ...task, status: 'SUCCESS', progress: '100%', data: JSON.stringify(clips) };

const lyrics: TaskItem = {
  ...task,
  id: 2,
  task_id: 'suno-lyrics-1',
  action: 'LYRICS',
  status: 'SUCCESS',
  progress: '100%',
  data: JSON.stringify({
    id: 'lyr-1',
    title: 'Night song',
    status: 'complete',
    text: '[Verse]\nStars over the harbour\n[Chorus]\nSing it again',
  }),
};

const withoutChannel = <T extends { channel_id?: number }>(row: T): T => {
  const { channel_id: _hidden, ...rest } = row;
  return rest as T;
};

function serve(routes: Record<string, FakeRoute> = {}) {
  return installFetch({
    'GET /api/status': ok(DEFAULT_STATUS),
    'GET /api/task/': ok([task]),
    'GET /api/task/self': ok([withoutChannel(task)]),
    ...routes,
  });
}

const signIn = (role: number) =>
  setUser({ id: 7, username: 'someone', display_name: '', role, status: 1, group: 'default' });

async function rowWith(text: string): Promise<HTMLElement> {
  const row = (await screen.findByText(text)).closest('tr');
  if (!row) throw new Error(`no row with ${text}`);
  return row;
}

// The first render of a file loads antd's table, form and picker modules, which alone can take
// seconds on a busy machine; the default 5 s would make these tests flaky, not stricter.
vi.setConfig({ testTimeout: 20_000 });

beforeAll(() => loadSections());
beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  clearUser();
  vi.unstubAllGlobals();
});

describe('async task list', () => {
  it('shows a regular user their own tasks without the channel filter or column', async () => {
    signIn(1);
    const calls = serve();
    renderPage(<TasksPage />, { path: '/task' });
    const row = await rowWith('suno-task-1');
    expect(calls.some((c) => c.path === '/api/task/self')).toBe(true);
    expect(calls.some((c) => c.path === '/api/task/')).toBe(false);
    expect(screen.queryByLabelText('Channel ID')).toBeNull();
    expect(screen.queryByRole('columnheader', { name: 'Channel' })).toBeNull();

    expect(within(row).getByText('Suno')).toBeTruthy();
    expect(within(row).getByText('Generate music')).toBeTruthy();
    expect(within(row).getByText('Queued')).toBeTruthy();
    // Times are unix seconds.
    expect(within(row).getByText(formatTimestamp(1_790_000_000))).toBeTruthy();
    expect(within(row).getByText(formatTimestamp(1_790_000_090))).toBeTruthy();
    // Submitted to finished in 90 s: over a minute, so red.
    expect(within(row).getByText('90 s').className).toMatch(/red/);
    // Still running at 40%: a normal bar.
    const bar = within(row).getByRole('progressbar');
    expect(bar.getAttribute('aria-valuenow')).toBe('40');
    expect(bar.className).not.toMatch(/status-exception/);
  });

  it('gives an admin everyone’s tasks with the channel filter and column', async () => {
    signIn(10);
    const calls = serve();
    renderPage(<TasksPage />, { path: '/task' });
    const row = await rowWith('suno-task-1');
    expect(calls.some((c) => c.path === '/api/task/')).toBe(true);
    expect(screen.getByLabelText('Channel ID')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Channel' })).toBeTruthy();
    expect(within(row).getByText('4')).toBeTruthy();
  });

  it('asks from p=0 with the date filters in seconds and fetches the next page only when asked', async () => {
    signIn(10);
    const rows = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => ({ ...task, id: from + i, task_id: `suno-${from + i}` }));
    const calls = serve({
      'GET /api/task/': (request) =>
        ok(new URL(request.url).searchParams.get('p') === '0' ? rows(1, 10) : rows(11, 3)),
    });
    renderPage(<TasksPage />, {
      path: '/task',
      url: '/task?start_timestamp=1790000000&end_timestamp=1790003600&channel_id=4',
    });
    await rowWith('suno-1');
    const first = calls.filter((c) => c.path === '/api/task/');
    expect(first).toHaveLength(1);
    expect(Object.fromEntries(first[0]?.query ?? [])).toEqual({
      p: '0',
      page_size: '10',
      channel_id: '4',
      start_timestamp: '1790000000',
      end_timestamp: '1790003600',
    });
    // A full first page: a second is offered but not fetched until the user goes there.
    expect(screen.queryByTitle('3')).toBeNull();
    fireEvent.click(screen.getByTitle('2'));
    await rowWith('suno-13');
    expect(calls.filter((c) => c.path === '/api/task/').map((c) => c.query.get('p'))).toEqual(['0', '1']);
    // The second page was short: it is the last.
    await waitFor(() => expect(screen.queryByTitle('3')).toBeNull());
  });

  it('shows a failed task’s progress as a red bar, not a green full one', async () => {
    signIn(1);
    serve({
      'GET /api/task/self': ok([{ ...withoutChannel(task), status: 'FAILURE', progress: '100%' }]),
    });
    renderPage(<TasksPage />, { path: '/task' });
    const row = await rowWith('suno-task-1');
    expect(within(row).getByText('Failed')).toBeTruthy();
    const bar = within(row).getByRole('progressbar');
    expect(bar.className).toMatch(/status-exception/);
    expect(bar.className).not.toMatch(/status-success/);
  });

  it('starts the date filter at midnight today and ends it an hour from now', async () => {
    signIn(1);
    const calls = serve();
    const before = Math.floor(Date.now() / 1000);
    renderPage(<TasksPage />, { path: '/task' });
    await rowWith('suno-task-1');
    const after = Math.floor(Date.now() / 1000);
    const query = calls.find((c) => c.path === '/api/task/self')?.query;
    expect(query?.get('start_timestamp')).toBe(String(dayjs().startOf('day').unix()));
    const end = Number(query?.get('end_timestamp'));
    expect(end).toBeGreaterThanOrEqual(before + 3600);
    expect(end).toBeLessThanOrEqual(after + 3600);
    expect(screen.getByLabelText('Start time')).toBeTruthy();
    expect(screen.getByLabelText('End time')).toBeTruthy();
  });

  it('plays each clip of a song and opens its cover in the image viewer', async () => {
    signIn(10);
    serve({ 'GET /api/task/': ok([song]) });
    renderPage(<TasksPage />, { path: '/task' });
    const row = await rowWith('suno-task-1');
    expect(within(row).getByText('Harbour lights')).toBeTruthy();
    expect(within(row).getByText('2:34')).toBeTruthy();
    expect(within(row).getByText('1:01')).toBeTruthy();
    const first = within(row).getByLabelText('Play Harbour lights');
    expect(first.tagName).toBe('AUDIO');
    expect(first.getAttribute('src')).toBe('https://cdn.example.com/clip-a.mp3');
    expect(within(row).getByLabelText('Play Harbour lights (take 2)').getAttribute('src')).toBe(
      'https://cdn.example.com/clip-b.mp3',
    );
    expect(within(row).getByRole('link', { name: 'Video' }).getAttribute('href')).toBe(
      'https://cdn.example.com/clip-a.mp4',
    );
    // Finished: a full green bar.
    expect(within(row).getByRole('progressbar').className).toMatch(/status-success/);

    // The cover opens the image viewer on its larger version.
    const cover = within(row).getByAltText('Cover of Harbour lights');
    expect(cover.getAttribute('src')).toBe('https://cdn.example.com/clip-a.jpeg');
    fireEvent.click(cover);
    await waitFor(() =>
      expect(
        document.querySelector('.ant-image-preview img[src="https://cdn.example.com/clip-a-large.jpeg"]'),
      ).not.toBeNull(),
    );
  });

  it('shows lyrics as their text, the whole of it in a dialog', async () => {
    signIn(1);
    serve({ 'GET /api/task/self': ok([withoutChannel(lyrics)]) });
    renderPage(<TasksPage />, { path: '/task' });
    const row = await rowWith('suno-lyrics-1');
    expect(within(row).getByText('Generate lyrics')).toBeTruthy();
    expect(within(row).getByText('Night song')).toBeTruthy();
    expect(within(row).queryByRole('audio')).toBeNull();
    fireEvent.click(within(row).getByTitle('Show the whole text'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Stars over the harbour');
    expect(dialog.textContent).toContain('Sing it again');
  });

  it('shows rows whose data is missing or not what a song or lyrics look like', async () => {
    signIn(10);
    const odd = [
      'not json at all',
      '',
      'null',
      '{}',
      '[]',
      '{"clips":"nope"}',
      '[null, 3, "x", {"audio_url": "javascript:alert(1)"}]',
      '{"text": 42}',
    ];
    serve({
      'GET /api/task/': ok(
        odd.map((data, i) => ({ ...task, id: 100 + i, task_id: `odd-${i}`, status: '', progress: '', data })),
      ),
    });
    renderPage(<TasksPage />, { path: '/task' });
    for (let i = 0; i < odd.length; i++) {
      const row = await rowWith(`odd-${i}`);
      // No player, no cover, no link: a dash in the result cell.
      expect(row.querySelector('audio, img, a[href]')).toBeNull();
      expect(within(row).getByText('Submitting')).toBeTruthy();
    }
    // The raw text stays readable in the details.
    fireEvent.click(screen.getByText('odd-0'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('not json at all')).toBeTruthy();
  });

  it('does not show a running task at 100% as finished', async () => {
    signIn(1);
    serve({
      'GET /api/task/self': ok([{ ...withoutChannel(task), status: 'IN_PROGRESS', progress: '100%' }]),
    });
    renderPage(<TasksPage />, { path: '/task' });
    const row = await rowWith('suno-task-1');
    const bar = within(row).getByRole('progressbar');
    expect(bar.getAttribute('aria-valuenow')).toBe('100');
    expect(bar.className).not.toMatch(/status-success/);
    expect(bar.className).toMatch(/status-active/);
  });

  it('opens the details of a task: its song with players and the data indented', async () => {
    signIn(1);
    serve({ 'GET /api/task/self': ok([withoutChannel(song)]) });
    renderPage(<TasksPage />, { path: '/task' });
    fireEvent.click(await screen.findByText('suno-task-1'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Task details')).toBeTruthy();
    expect(within(dialog).getByLabelText('Play Harbour lights').getAttribute('src')).toBe(
      'https://cdn.example.com/clip-a.mp3',
    );
    expect(within(dialog).getAllByText('folk, calm').length).toBeGreaterThan(0);
    const raw = within(dialog).getByText(/"audio_url": "https:\/\/cdn\.example\.com\/clip-a\.mp3"/);
    expect(raw.textContent).toContain('\n  {\n    "id": "clip-a"');
  });
});
