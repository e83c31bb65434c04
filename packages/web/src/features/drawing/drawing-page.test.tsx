// The drawing list: whose records are asked for, the admin-only channel filter and column, labels,
// times in milliseconds (shown as dates, sent as filters, the last 30 days by default), durations,
// a failed drawing's red progress bar, the stored image opening the image viewer, long prompts in a
// dialog, the details dialog, rows with unexpected values, and the prompt columns in both languages.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
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

  it('asks for the last 30 days up to an hour from now, in milliseconds, by default', async () => {
    signIn(1);
    const calls = serve();
    const before = Math.floor(Date.now() / 1000);
    renderPage(<DrawingPage />, { path: '/midjourney' });
    await rowWith('mj-77');
    const after = Math.floor(Date.now() / 1000);
    const query = calls.find((c) => c.path === '/api/mj/self/')?.query;
    const start = Number(query?.get('start_timestamp'));
    const end = Number(query?.get('end_timestamp'));
    expect(start).toBeGreaterThanOrEqual((before - 30 * 86_400) * 1000);
    expect(start).toBeLessThanOrEqual((after - 30 * 86_400) * 1000);
    expect(end).toBeGreaterThanOrEqual((before + 3600) * 1000);
    expect(end).toBeLessThanOrEqual((after + 3600) * 1000);
  });

  it('shows the stored image, which opens the image viewer', async () => {
    signIn(10);
    const url = 'https://cdn.example.com/attachments/grid-77.png';
    serve({ 'GET /api/mj/': ok([{ ...drawing, image_url: url }]) });
    renderPage(<DrawingPage />, { path: '/midjourney' });
    const row = await rowWith('mj-77');
    const thumbnail = within(row).getByAltText('Image of task mj-77');
    expect(thumbnail.getAttribute('src')).toBe(url);
    expect(document.querySelector('.ant-image-preview')).toBeNull();
    fireEvent.click(thumbnail);
    await waitFor(() =>
      expect(document.querySelector(`.ant-image-preview img[src="${url}"]`)).not.toBeNull(),
    );
  });

  it('does not load an image from an address that is not http(s)', async () => {
    signIn(1);
    serve({ 'GET /api/mj/self/': ok([{ ...withoutChannel(drawing), image_url: 'javascript:alert(1)' }]) });
    renderPage(<DrawingPage />, { path: '/midjourney' });
    const row = await rowWith('mj-77');
    expect(within(row).getByText('No image')).toBeTruthy();
    expect(row.querySelector('img')).toBeNull();
  });

  it('shows rows with values this console does not know', async () => {
    signIn(1);
    serve({
      'GET /api/mj/self/': ok([
        {
          ...withoutChannel(drawing),
          action: 'VIDEO',
          code: 9,
          status: 'PAUSED',
          progress: 'waiting',
          submit_time: 0,
          finish_time: 0,
          prompt: '',
        },
      ]),
    });
    renderPage(<DrawingPage />, { path: '/midjourney' });
    const row = await rowWith('mj-77');
    expect(within(row).getByText('VIDEO')).toBeTruthy();
    expect(within(row).getByText('Unknown (9)')).toBeTruthy();
    expect(within(row).getByText('PAUSED')).toBeTruthy();
    expect(within(row).getByText('waiting')).toBeTruthy();
    expect(within(row).queryByRole('progressbar')).toBeNull();
  });

  it('opens everything recorded about a drawing from its task id', async () => {
    signIn(1);
    const url = 'https://cdn.example.com/attachments/grid-77.png';
    serve({
      'GET /api/mj/self/': ok([
        {
          ...withoutChannel(drawing),
          image_url: url,
          prompt_en: 'a lighthouse at dusk',
          description: '/imagine a lighthouse at dusk',
          start_time: 1_790_000_002_000,
        },
      ]),
    });
    renderPage(<DrawingPage />, { path: '/midjourney' });
    const row = await rowWith('mj-77');
    fireEvent.click(within(row).getByText('mj-77'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Drawing details')).toBeTruthy();
    expect(within(dialog).getByText('/imagine a lighthouse at dusk')).toBeTruthy();
    expect(within(dialog).getByText(formatTimestamp(1_790_000_002))).toBeTruthy();
    expect(within(dialog).getByAltText('Image of task mj-77').getAttribute('src')).toBe(url);
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
