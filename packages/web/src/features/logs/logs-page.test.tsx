// The log page as a regular user and as an admin meet it: whose rows are asked for, which filters
// and columns show, the stats badges, the expanded billing process and the user dialog.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { LogItem } from '@sluice/shared';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage, loadSections } from '../../i18n';
import { clearUser, setUser } from '../../lib/session';
import { DEFAULT_STATUS } from '../../lib/status';
import { installFetch, ok } from '../../test/fake-fetch';
import { renderPage } from '../../test/render';
import { LogsPage } from './logs-page';
import { logDefaultRange } from './time-range';

const consumption: LogItem = {
  id: 11,
  user_id: 7,
  created_at: 1_790_000_000,
  type: 2,
  content: 'model ratio 100, completion ratio 2, group ratio 1',
  username: 'alice',
  token_name: 'ci-token',
  token_id: 3,
  model_name: 'gpt-4o-mini',
  quota: 200_000,
  prompt_tokens: 1000,
  completion_tokens: 500,
  use_time: 120,
  is_stream: true,
  group: 'default',
  ip: '',
  other: JSON.stringify({
    frt: 12_000,
    model_ratio: 100,
    model_price: -1,
    completion_ratio: 2,
    group_ratio: 1,
    request_format: 'anthropic',
    upstream_format: 'openai',
  }),
  request_id: 'req-11',
};

const page = (items: LogItem[]) => ok({ items, page: 1, page_size: 10, total: items.length });
const stat = ok({ quota: 200_000, rpm: 3, tpm: 1500 });

function serve(admin: boolean) {
  const rows = admin ? [{ ...consumption, channel: 5, channel_name: 'azure-east' }] : [consumption];
  return installFetch({
    'GET /api/status': ok(DEFAULT_STATUS),
    'GET /api/log/': page(rows),
    'GET /api/log/stat': stat,
    'GET /api/log/self/': page(rows),
    'GET /api/log/self/stat': stat,
    'GET /api/user/7': ok({
      id: 7,
      username: 'alice',
      quota: 1_500_000,
      used_quota: 500_000,
      request_count: 42,
      group: 'vip',
    }),
  });
}

const signIn = (role: number) =>
  setUser({
    id: role === 1 ? 7 : 1,
    username: role === 1 ? 'alice' : 'root',
    display_name: '',
    role,
    status: 1,
    group: 'default',
  });

async function firstRow(): Promise<HTMLElement> {
  const cell = await screen.findByText('ci-token');
  const row = cell.closest('tr');
  if (!row) throw new Error('no log row');
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
  vi.useRealTimers();
  vi.unstubAllGlobals();
  await changeLanguage('en');
});

describe('log page for a regular user', () => {
  it('asks for the own rows and stats with the default range, and hides admin filters and columns', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-21T15:00:00'));
    signIn(1);
    const calls = serve(false);
    renderPage(<LogsPage />, { path: '/log' });
    const row = await firstRow();

    const list = calls.find((c) => c.path === '/api/log/self/');
    const range = logDefaultRange(Math.floor(Date.now() / 1000));
    expect(list?.query.get('p')).toBe('1');
    expect(list?.query.get('type')).toBe('0');
    expect(list?.query.get('start_timestamp')).toBe(String(range.start));
    expect(list?.query.get('end_timestamp')).toBe(String(range.end));
    expect(list?.query.has('username')).toBe(false);
    expect(calls.some((c) => c.path === '/api/log/self/stat')).toBe(true);
    expect(calls.some((c) => c.path === '/api/log/' || c.path === '/api/log/stat')).toBe(false);

    expect(screen.queryByLabelText('Channel ID')).toBeNull();
    expect(screen.queryByLabelText('Username')).toBeNull();
    expect(screen.queryByRole('columnheader', { name: 'Channel' })).toBeNull();
    expect(screen.queryByRole('columnheader', { name: 'User' })).toBeNull();
    expect(within(row).queryByText('alice')).toBeNull();

    // Quota as the site shows it, timings coloured: 120 s is orange, a 12 s first token red.
    expect(within(row).getByText('$0.40')).toBeTruthy();
    expect(within(row).getByText('120 s').className).toMatch(/orange/);
    expect(within(row).getByText('12.0 s').className).toMatch(/red/);
  });

  it('shows the stats badges for the filters', async () => {
    signIn(1);
    serve(false);
    renderPage(<LogsPage />, { path: '/log' });
    expect(await screen.findByLabelText('Consumed quota: $0.40')).toBeTruthy();
    expect(screen.getByLabelText('RPM: 3')).toBeTruthy();
    expect(screen.getByLabelText('TPM: 1500')).toBeTruthy();
  });

  it('expands a row to its billing process', async () => {
    signIn(1);
    serve(false);
    renderPage(<LogsPage />, { path: '/log' });
    const row = await firstRow();
    fireEvent.click(within(row).getByRole('button', { name: /expand row/i }));
    const details = await screen.findByLabelText('Log details');
    // The details sentence is worded from the row's facts, not copied from its stored text.
    expect(within(details).getByText('Model ratio 100, completion ratio 2, group ratio 1')).toBeTruthy();
    expect(within(details).queryByText('5 · azure-east')).toBeNull();
    expect(within(details).getByText('Model ratio')).toBeTruthy();
    expect(within(details).getByText('$200 / 1M tokens')).toBeTruthy();
    expect(within(details).getByText('$400 / 1M tokens')).toBeTruthy();
    expect(
      within(details).getByText('(prompt 1000 + completion 500 × 2) × 100 × 1 = 200000 quota = $0.4'),
    ).toBeTruthy();
    // A converted call says which format the client spoke and which the upstream was sent.
    expect(within(details).getByText('Format (client → upstream)')).toBeTruthy();
    expect(within(details).getByText('Anthropic Messages → OpenAI Chat')).toBeTruthy();
  });

  it('words a row’s details in the language the reader chose', async () => {
    signIn(1);
    serve(false);
    await changeLanguage('zh-CN');
    renderPage(<LogsPage />, { path: '/log' });
    const row = await firstRow();
    expect(within(row).getByText('模型倍率 100，补全倍率 2，分组倍率 1')).toBeTruthy();
    expect(within(row).queryByText(consumption.content)).toBeNull();
  });

  it('sends the token name it is asked to search for', async () => {
    signIn(1);
    const calls = serve(false);
    renderPage(<LogsPage />, { path: '/log' });
    await firstRow();
    fireEvent.change(screen.getByLabelText('Token name'), { target: { value: ' ci-token ' } });
    fireEvent.click(screen.getByRole('button', { name: /Query/ }));
    await waitFor(() =>
      expect(calls.some((c) => c.path === '/api/log/self/' && c.query.get('token_name') === 'ci-token')).toBe(
        true,
      ),
    );
    expect(
      calls.some((c) => c.path === '/api/log/self/stat' && c.query.get('token_name') === 'ci-token'),
    ).toBe(true);
  });
});

describe('log page for an admin', () => {
  it('asks for everyone’s rows and offers the channel and username filters and columns', async () => {
    signIn(100);
    const calls = serve(true);
    renderPage(<LogsPage />, { path: '/log' });
    const row = await firstRow();
    expect(calls.some((c) => c.path === '/api/log/')).toBe(true);
    expect(calls.some((c) => c.path === '/api/log/stat')).toBe(true);
    expect(screen.getByLabelText('Channel ID')).toBeTruthy();
    expect(screen.getByLabelText('Username')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Channel' })).toBeTruthy();
    expect(within(row).getByText('5')).toBeTruthy();
  });

  it('names the channel that served a row in its details', async () => {
    signIn(100);
    serve(true);
    renderPage(<LogsPage />, { path: '/log' });
    const row = await firstRow();
    fireEvent.click(within(row).getByRole('button', { name: /expand row/i }));
    const details = await screen.findByLabelText('Log details');
    expect(within(details).getByText('5 · azure-east')).toBeTruthy();
  });

  it('opens the user behind a row', async () => {
    signIn(100);
    serve(true);
    renderPage(<LogsPage />, { path: '/log' });
    const row = await firstRow();
    fireEvent.click(within(row).getByRole('button', { name: 'Show user alice' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('User information')).toBeTruthy();
    expect(await within(dialog).findByText('vip')).toBeTruthy();
    expect(within(dialog).getByText('$3.00')).toBeTruthy();
    expect(within(dialog).getByText('$1.00')).toBeTruthy();
    expect(within(dialog).getByText('42')).toBeTruthy();
  });
});
