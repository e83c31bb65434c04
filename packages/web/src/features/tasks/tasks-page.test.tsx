// The async task and drawing lists: whose records are asked for, the admin-only channel filter and
// column, status and code labels, durations over a minute in red, and long texts in a dialog.
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { MidjourneyItem, TaskItem } from '@sluice/shared';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadSections } from '../../i18n';
import { clearUser, setUser } from '../../lib/session';
import { DEFAULT_STATUS } from '../../lib/status';
import { installFetch, ok } from '../../test/fake-fetch';
import { renderPage } from '../../test/render';
import { DrawingPage } from '../drawing/drawing-page';
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
  data: '{"clips":[]}',
};

const drawing: MidjourneyItem = {
  id: 2,
  user_id: 7,
  code: 22,
  action: 'IMAGINE',
  mj_id: 'mj-77',
  prompt: 'a lighthouse at dusk, watercolour, soft light, wide shot',
  prompt_en: '',
  description: '',
  state: '',
  submit_time: 1_790_000_000,
  start_time: 0,
  finish_time: 1_790_000_030,
  image_url: '',
  status: 'SUCCESS',
  progress: '100%',
  fail_reason: '',
  channel_id: 4,
  quota: 0,
  buttons: '',
  properties: '',
};

const page = <T,>(items: T[]) => ok({ items, page: 1, page_size: 10, total: items.length });
const withoutChannel = <T extends { channel_id?: number }>(row: T): T => {
  const { channel_id: _hidden, ...rest } = row;
  return rest as T;
};

function serve() {
  return installFetch({
    'GET /api/status': ok(DEFAULT_STATUS),
    'GET /api/task/': page([task]),
    'GET /api/task/self': page([withoutChannel(task)]),
    'GET /api/mj/': page([drawing]),
    'GET /api/mj/self/': page([withoutChannel(drawing)]),
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
    // Submitted to finished in 90 s: over a minute, so red.
    expect(within(row).getByText('90 s').className).toMatch(/red/);
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

  it('opens the details of a task', async () => {
    signIn(1);
    serve();
    renderPage(<TasksPage />, { path: '/task' });
    fireEvent.click(await screen.findByText('suno-task-1'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Task details')).toBeTruthy();
    expect(within(dialog).getByText('{"clips":[]}')).toBeTruthy();
  });
});

describe('drawing list', () => {
  it('shows a regular user their own drawings with labels and no channel', async () => {
    signIn(1);
    const calls = serve();
    renderPage(<DrawingPage />, { path: '/midjourney' });
    const row = await rowWith('mj-77');
    expect(calls.some((c) => c.path === '/api/mj/self/')).toBe(true);
    expect(screen.queryByLabelText('Channel ID')).toBeNull();
    expect(screen.queryByRole('columnheader', { name: 'Channel' })).toBeNull();
    expect(within(row).getByText('Imagine')).toBeTruthy();
    expect(within(row).getByText('Duplicate')).toBeTruthy();
    expect(within(row).getByText('Success')).toBeTruthy();
    expect(within(row).getByText('30 s').className).toMatch(/green/);
    expect(within(row).getByText('No image')).toBeTruthy();
  });

  it('opens a long prompt in a dialog', async () => {
    signIn(1);
    serve();
    renderPage(<DrawingPage />, { path: '/midjourney' });
    const row = await rowWith('mj-77');
    fireEvent.click(within(row).getByText(drawing.prompt));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Prompt')).toBeTruthy();
    expect(within(dialog).getByText(drawing.prompt)).toBeTruthy();
  });

  it('gives an admin the channel filter and column', async () => {
    signIn(10);
    const calls = serve();
    renderPage(<DrawingPage />, { path: '/midjourney' });
    await rowWith('mj-77');
    expect(calls.some((c) => c.path === '/api/mj/')).toBe(true);
    expect(screen.getByLabelText('Channel ID')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Channel' })).toBeTruthy();
  });
});
