// The drawing list: whose records are asked for, the admin-only channel filter and column, labels,
// times in milliseconds (shown as dates, sent as filters), durations, a failed drawing's red
// progress bar, long prompts in a dialog, and the prompt columns in both languages.
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { MidjourneyItem } from '@sluice/shared';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage, loadSections } from '../../i18n';
import { formatTimestamp } from '../../lib/dates';
import { clearUser, setUser } from '../../lib/session';
import { DEFAULT_STATUS } from '../../lib/status';
import { installFetch, ok } from '../../test/fake-fetch';
import type { FakeRoute } from '../../test/fake-fetch';
import { renderPage } from '../../test/render';
import { DrawingPage } from './drawing-page';

/** Drawing times are unix milliseconds. */
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
  submit_time: 1_790_000_000_000,
  start_time: 0,
  finish_time: 1_790_000_030_500,
  image_url: '',
  status: 'SUCCESS',
  progress: '100%',
  fail_reason: '',
  channel_id: 4,
  quota: 0,
  buttons: '',
  properties: '',
};

const withoutChannel = ({ channel_id: _hidden, ...rest }: MidjourneyItem): MidjourneyItem => rest;

function serve(routes: Record<string, FakeRoute> = {}) {
  return installFetch({
    'GET /api/status': ok(DEFAULT_STATUS),
    'GET /api/mj/': ok([drawing]),
    'GET /api/mj/self/': ok([withoutChannel(drawing)]),
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
afterEach(async () => {
  cleanup();
  clearUser();
  vi.unstubAllGlobals();
  await changeLanguage('en');
});

describe('drawing list', () => {
  it('shows a regular user their own drawings with labels, dates and no channel', async () => {
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
    // Milliseconds shown as the date they are, and 30.5 s from submit to finish.
    expect(within(row).getByText(formatTimestamp(1_790_000_000))).toBeTruthy();
    expect(within(row).getByText('30.5 s').className).toMatch(/green/);
    expect(within(row).getByText('No image')).toBeTruthy();
    const bar = within(row).getByRole('progressbar');
    expect(bar.className).toMatch(/status-success/);
  });

  it('sends the date filters in milliseconds, from p=0', async () => {
    signIn(10);
    const calls = serve();
    renderPage(<DrawingPage />, {
      path: '/midjourney',
      url: '/midjourney?start_timestamp=1790000000&end_timestamp=1790003600&mj_id=mj-77',
    });
    await rowWith('mj-77');
    const call = calls.find((c) => c.path === '/api/mj/');
    expect(Object.fromEntries(call?.query ?? [])).toEqual({
      p: '0',
      page_size: '10',
      mj_id: 'mj-77',
      start_timestamp: '1790000000000',
      end_timestamp: '1790003600000',
    });
  });

  it('shows a failed drawing’s progress as a red bar, not a green full one', async () => {
    signIn(1);
    serve({
      'GET /api/mj/self/': ok([
        { ...withoutChannel(drawing), status: 'FAILURE', progress: '100%', fail_reason: 'banned prompt' },
      ]),
    });
    renderPage(<DrawingPage />, { path: '/midjourney' });
    const row = await rowWith('mj-77');
    expect(within(row).getByText('Failed')).toBeTruthy();
    const bar = within(row).getByRole('progressbar');
    expect(bar.className).toMatch(/status-exception/);
    expect(bar.className).not.toMatch(/status-success/);
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

  it('titles the prompt columns in each language', async () => {
    signIn(1);
    serve();
    renderPage(<DrawingPage />, { path: '/midjourney' });
    await rowWith('mj-77');
    expect(screen.getByRole('columnheader', { name: 'Prompt' })).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Prompt (English)' })).toBeTruthy();
    cleanup();

    await changeLanguage('zh-CN');
    renderPage(<DrawingPage />, { path: '/midjourney' });
    await rowWith('mj-77');
    expect(screen.getByRole('columnheader', { name: '提示词' })).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: '英文提示词' })).toBeTruthy();
    expect(screen.queryByRole('columnheader', { name: 'PromptEn' })).toBeNull();
  });
});
