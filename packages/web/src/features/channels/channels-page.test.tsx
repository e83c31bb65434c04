// The channel list as an admin meets it: the columns' figures, search, inline priority and weight,
// tag aggregation with its tag-wide actions and drawer, batch delete, and the row actions.
import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ChannelView } from '@sluice/shared';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadSections } from '../../i18n';
import { clearUser, setUser } from '../../lib/session';
import { DEFAULT_STATUS } from '../../lib/status';
import { failure, installFetch, ok } from '../../test/fake-fetch';
import type { FakeRoute, RecordedCall } from '../../test/fake-fetch';
import { renderPage } from '../../test/render';
import { channel } from './test-fixtures';
import { ChannelsPage } from './channels-page';

vi.setConfig({ testTimeout: 30_000 });
configure({ asyncUtilTimeout: 5000 });

const primary = channel({
  id: 5,
  name: 'primary',
  response_time: 800,
  test_time: 1_700_000_000,
  used_quota: 250_000,
  balance: 12.34,
});
const spare = channel({
  id: 6,
  name: 'spare',
  type: 14,
  status: 2,
  group: 'default',
  test_models: ['claude-3-haiku-20240307'],
});
const broken = channel({
  id: 7,
  name: 'broken',
  type: 99,
  status: 3,
  response_time: 6200,
  other_info: JSON.stringify({ status_reason: 'invalid api key', status_time: 1_700_000_000 }),
});

const tagged = (over: Partial<ChannelView>) => channel({ tag: 'team', ...over });
/** In tag mode the server answers the plain channels of the page's tags; the console folds them. */
const teamA = tagged({ id: 11, name: 'team-a', used_quota: 250_000, response_time: 1000 });
const teamB = tagged({
  id: 12,
  name: 'team-b',
  status: 2,
  weight: 5,
  group: 'vip',
  used_quota: 250_000,
  response_time: 2000,
});

function serve(extra: Record<string, FakeRoute> = {}): RecordedCall[] {
  return installFetch({
    'GET /api/status': ok(DEFAULT_STATUS),
    'GET /api/group/': ok(['default', 'vip']),
    'GET /api/models': ok({ '1': ['gpt-4o'] }),
    'GET /api/channel/': (request) =>
      new URL(request.url).searchParams.get('tag_mode') === 'true'
        ? ok([teamA, primary, teamB])
        : ok([primary, spare, broken]),
    'GET /api/channel/search': ok([spare]),
    'PUT /api/channel/': async (request) => {
      const body = (await request.json()) as Partial<ChannelView> & { id: number };
      return ok({ ...primary, ...body });
    },
    ...extra,
  });
}

const sent = (calls: RecordedCall[], method: string, path: string) =>
  calls.filter((c) => c.method === method && c.path === path).map((c) => c.body);

async function rowOf(name: string): Promise<HTMLElement> {
  const cell = await screen.findByText(name);
  const row = cell.closest('tr');
  if (!row) throw new Error(`no row for ${name}`);
  return row;
}

/** Table rows whose name cell is exactly `name`. */
const rowsNamed = (name: string) =>
  screen.queryAllByText(name, { exact: true }).filter((el) => el.closest('tr.ant-table-row'));

const open = () => renderPage(<ChannelsPage />, { path: '/channel/*', url: '/channel' });

/** Types into an inline input and leaves it, as saving is on blur. */
function editInline(input: HTMLElement, value: string) {
  fireEvent.focus(input);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

beforeAll(() => loadSections());
beforeEach(() => {
  localStorage.clear();
  setUser({ id: 1, username: 'root', display_name: 'Root', role: 100, status: 1, group: 'default' });
});
afterEach(() => {
  cleanup();
  clearUser();
  vi.unstubAllGlobals();
});

describe('channel table', () => {
  it('shows type, status, response time, quota and balance of each channel', async () => {
    serve();
    open();
    const row = await rowOf('primary');
    expect(within(row).getByText('OpenAI')).toBeTruthy();
    expect(within(row).getByText('Enabled')).toBeTruthy();
    expect(within(row).getByText('default')).toBeTruthy();
    expect(within(row).getByText('vip')).toBeTruthy();
    expect(within(row).getByText('0.80 s').closest('.ant-tag')?.className).toContain('green');
    expect(within(row).getByLabelText('Used quota: $0.50')).toBeTruthy();
    expect(within(row).getByText('$12.34')).toBeTruthy();
    expect((within(row).getByLabelText('Priority of primary') as HTMLInputElement).value).toBe('3');

    const spareRow = await rowOf('spare');
    expect(within(spareRow).getByText('Anthropic Claude')).toBeTruthy();
    expect(within(spareRow).getByText('Disabled')).toBeTruthy();
    expect(within(spareRow).getByText('Untested')).toBeTruthy();
    expect(within(spareRow).getByRole('button', { name: 'Enable' })).toBeTruthy();
    expect(spareRow.style.opacity).not.toBe('');

    const brokenRow = await rowOf('broken');
    expect(within(brokenRow).getByText('unknown type')).toBeTruthy();
    expect(within(brokenRow).getByText('6.20 s').closest('.ant-tag')?.className).toContain('red');
    expect(
      within(brokenRow).getByLabelText(/^Auto-disabled\. Reason: invalid api key\. Disabled at: /),
    ).toBeTruthy();
  });

  it('marks an enabled channel of a type the relay cannot serve yet, and only such channels', async () => {
    const baidu = channel({ id: 8, name: 'prepared', type: 15 });
    serve({ 'GET /api/channel/': ok([primary, spare, baidu]) });
    open();
    const row = await rowOf('prepared');
    expect(within(row).getByText('Enabled')).toBeTruthy();
    expect(
      within(row).getByLabelText(
        'Not supported yet. Calls cannot be relayed to Baidu Wenxin channels yet: calls that only this channel could take are refused (501).',
      ),
    ).toBeTruthy();
    expect(within(await rowOf('primary')).queryByText('Not supported yet')).toBeNull();
    expect(within(await rowOf('spare')).queryByText('Not supported yet')).toBeNull();
  });

  it('searches with the trimmed keyword, model and group', async () => {
    const calls = serve();
    open();
    await rowOf('primary');
    fireEvent.change(screen.getByLabelText('Search channels'), { target: { value: '  spa ' } });
    fireEvent.change(screen.getByLabelText('Model'), { target: { value: ' claude ' } });
    fireEvent.click(screen.getByRole('button', { name: /Query/ }));
    await waitFor(() => expect(screen.queryByText('primary')).toBeNull());
    const search = calls.find((c) => c.path === '/api/channel/search');
    expect(search?.query.get('keyword')).toBe('spa');
    expect(search?.query.get('model')).toBe('claude');
    expect(search?.query.get('tag_mode')).toBe('false');
    expect(await rowOf('spare')).toBeTruthy();
  });

  it('reloads the list on an empty search and keeps the tag mode through a search', async () => {
    const calls = serve();
    open();
    await rowOf('primary');
    const loads = () => calls.filter((c) => c.path === '/api/channel/').length;
    const before = loads();
    fireEvent.click(screen.getByRole('button', { name: /Query/ }));
    await waitFor(() => expect(loads()).toBe(before + 1));

    fireEvent.click(screen.getByRole('switch', { name: 'Sort by ID' }));
    await waitFor(() =>
      expect(calls.some((c) => c.path === '/api/channel/' && c.query.get('id_sort') === 'true')).toBe(true),
    );
    expect(localStorage.getItem('id-sort')).toBe('true');

    fireEvent.click(screen.getByRole('switch', { name: 'Group by tag' }));
    await rowOf('team');
    fireEvent.change(screen.getByLabelText('Search channels'), { target: { value: 'spa' } });
    fireEvent.click(screen.getByRole('button', { name: /Query/ }));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/channel/search')).toBe(true));
    expect(calls.find((c) => c.path === '/api/channel/search')?.query.get('tag_mode')).toBe('true');
  });

  it('checks inline priority and weight, and saves them one field at a time', async () => {
    const calls = serve();
    open();
    const row = await rowOf('primary');
    editInline(within(row).getByLabelText('Priority of primary'), '1.5');
    expect(await screen.findByText('priority must be an integer')).toBeTruthy();
    editInline(within(row).getByLabelText('Priority of primary'), '-1000');
    expect(await screen.findByText('priority must not be less than -999')).toBeTruthy();
    editInline(within(row).getByLabelText('Priority of primary'), '   ');
    expect(sent(calls, 'PUT', '/api/channel/')).toHaveLength(0);

    editInline(within(row).getByLabelText('Priority of primary'), '9');
    await waitFor(() => expect(sent(calls, 'PUT', '/api/channel/')).toEqual([{ id: 5, priority: 9 }]));
    await waitFor(() =>
      expect((within(row).getByLabelText('Priority of primary') as HTMLInputElement).value).toBe('9'),
    );

    editInline(within(row).getByLabelText('Weight of primary'), '-4');
    await waitFor(() => expect(sent(calls, 'PUT', '/api/channel/')[1]).toEqual({ id: 5, weight: 0 }));
  });

  it('tests a channel and shows the response time in its row', async () => {
    const calls = serve({ 'GET /api/channel/test/6': ok({ time: 2.5 }) });
    open();
    const row = await rowOf('spare');
    fireEvent.click(within(row).getByRole('button', { name: 'Test' }));
    expect(await within(row).findByText('2.50 s')).toBeTruthy();
    expect(within(row).getByText('2.50 s').closest('.ant-tag')?.className).toContain('lime');
    expect(await screen.findByText('Channel spare answered in 2.50 s')).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/channel/test/6')?.query.get('model')).toBeNull();

    // The menu beside the button tests one of the channel's models.
    fireEvent.click(within(row).getByRole('button', { name: 'Test spare with one model' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'claude-3-haiku-20240307' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/api/channel/test/6').map((c) => c.query.get('model'))).toEqual([
        null,
        'claude-3-haiku-20240307',
      ]),
    );
  });

  it('shows why a test failed, with the channel name, and reloads the row the server updated', async () => {
    let loads = 0;
    const calls = serve({
      'GET /api/channel/test/6': {
        body: { success: false, message: 'Incorrect API key provided', data: { time: 0.2 }, time: 0.2 },
      },
      'GET /api/channel/': () => {
        loads++;
        return ok([
          primary,
          loads === 1 ? spare : { ...spare, response_time: 200, test_time: 1_700_000_000 },
        ]);
      },
    });
    open();
    const row = await rowOf('spare');
    expect(within(row).getByText('Untested')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Test' }));
    expect(await screen.findByText('Channel spare test failed: Incorrect API key provided')).toBeTruthy();
    expect(await within(await rowOf('spare')).findByText('0.20 s')).toBeTruthy();
    expect(screen.queryByText(/answered in/)).toBeNull();
    expect(calls.filter((c) => c.path === '/api/channel/test/6')).toHaveLength(1);
  });

  it('enables a disabled channel with the status the server answered', async () => {
    const calls = serve({ 'PUT /api/channel/': ok({ ...spare, status: 1 }) });
    open();
    const row = await rowOf('spare');
    fireEvent.click(within(row).getByRole('button', { name: 'Enable' }));
    expect(await within(row).findByText('Enabled')).toBeTruthy();
    expect(sent(calls, 'PUT', '/api/channel/')).toEqual([{ id: 6, status: 1 }]);
  });

  it('copies a channel, and says why when copying fails', async () => {
    const calls = serve({ 'POST /api/channel/copy/5': failure(404, 'channel not found, please refresh') });
    open();
    const row = await rowOf('primary');
    fireEvent.click(within(row).getByRole('button', { name: 'More actions for primary' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Copy' }));
    expect(await screen.findByText('channel copy failed: channel not found, please refresh')).toBeTruthy();
    const copy = calls.find((c) => c.path === '/api/channel/copy/5');
    expect(copy?.method).toBe('POST');
    expect(copy?.query.get('suffix')).toBe('_copy');
    expect(copy?.query.get('reset_balance')).toBe('true');
  });

  it('deletes a channel from its menu after asking', async () => {
    const calls = serve({ 'DELETE /api/channel/6/': ok(null) });
    open();
    const row = await rowOf('spare');
    fireEvent.click(within(row).getByRole('button', { name: 'More actions for spare' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Delete channel spare?')).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('spare')).toBeNull());
    expect(await screen.findByText('channel deleted')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api/channel/6/']);
  });

  it('opens the create drawer at /channel/add from the add button', async () => {
    serve();
    const { router } = open();
    await rowOf('primary');
    fireEvent.click(screen.getByRole('button', { name: /Add channel/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/channel/add'));
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).getAllByText('Add channel').length).toBeGreaterThan(0);
    expect(drawer.closest('.ant-drawer')?.className).toContain('ant-drawer-left');
  });
});

describe('batch delete', () => {
  it('needs a selection, then deletes the selected channels after asking', async () => {
    const calls = serve({ 'POST /api/channel/batch': ok(1) });
    open();
    await rowOf('primary');
    expect(screen.queryByRole('button', { name: /Delete selected/ })).toBeNull();
    fireEvent.click(screen.getByRole('switch', { name: 'Batch delete' }));
    fireEvent.click(await screen.findByRole('button', { name: /Delete selected/ }));
    expect(await screen.findByText('please select channels to delete first')).toBeTruthy();

    const row = await rowOf('spare');
    fireEvent.click(within(row).getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: /Delete selected \(1\)/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Delete the selected channels (1)?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(sent(calls, 'POST', '/api/channel/batch')).toEqual([{ ids: [6] }]));
    expect(await screen.findByText('Channels deleted: 1')).toBeTruthy();
  });
});

describe('tag aggregation', () => {
  it('is remembered, shows one row per tag with its figures and acts on the whole tag', async () => {
    const calls = serve({ 'POST /api/channel/tag/disabled': ok(2), 'PUT /api/channel/tag': ok(2) });
    open();
    await rowOf('primary');
    fireEvent.click(screen.getByRole('switch', { name: 'Group by tag' }));
    const row = await rowOf('team');
    expect(localStorage.getItem('channel-tag-mode')).toBe('true');
    expect(calls.some((c) => c.path === '/api/channel/' && c.query.get('tag_mode') === 'true')).toBe(true);
    expect(within(row).getByText('2 channels')).toBeTruthy();
    expect(within(row).getByText('1/2 enabled')).toBeTruthy();
    expect(within(row).getByText('1.50 s')).toBeTruthy();
    expect(within(row).getByLabelText('Used quota: $1.00')).toBeTruthy();
    expect((within(row).getByLabelText('Weight of team') as HTMLInputElement).placeholder).toBe('mixed');
    // One level of tag rows: the tag's channels are its children, not rows (or tags) of their own.
    expect(screen.queryByText('team-a')).toBeNull();
    expect(rowsNamed('team')).toHaveLength(1);
    fireEvent.click(within(row).getByRole('button', { name: /Expand row/ }));
    const child = await rowOf('team-b');
    expect(within(child).getByText('Disabled')).toBeTruthy();
    expect(within(child).queryByRole('button', { name: /Expand row/ })).toBeNull();
    expect(await rowOf('primary')).toBeTruthy();

    // Tag-wide weight must be a non-negative integer; priority asks before it changes every channel.
    editInline(within(row).getByLabelText('Weight of team'), '-1');
    expect(await screen.findByText('weight must be a non-negative integer')).toBeTruthy();
    editInline(within(row).getByLabelText('Priority of team'), '4');
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Set the priority of every channel tagged team to 4?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: /OK|Confirm/ }));
    await waitFor(() =>
      expect(sent(calls, 'PUT', '/api/channel/tag')).toEqual([{ tag: 'team', priority: 4 }]),
    );

    fireEvent.click(within(row).getByRole('button', { name: 'Disable all' }));
    await waitFor(() => expect(sent(calls, 'POST', '/api/channel/tag/disabled')).toEqual([{ tag: 'team' }]));
  });

  it('edits a tag in its drawer: nothing changed says so, a rename is sent alone', async () => {
    localStorage.setItem('channel-tag-mode', 'true');
    const calls = serve({ 'PUT /api/channel/tag': ok(2) });
    open();
    const row = await rowOf('team');
    fireEvent.click(within(row).getByRole('button', { name: 'Edit tag' }));
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).getByText('Edit tag team')).toBeTruthy();
    fireEvent.click(within(drawer).getByRole('button', { name: /Submit/ }));
    expect(await screen.findByText('no changes')).toBeTruthy();
    expect(sent(calls, 'PUT', '/api/channel/tag')).toHaveLength(0);

    fireEvent.change(within(drawer).getByLabelText('New tag name'), { target: { value: 'crew' } });
    fireEvent.click(within(drawer).getByRole('button', { name: /Submit/ }));
    await waitFor(() =>
      expect(sent(calls, 'PUT', '/api/channel/tag')).toEqual([{ tag: 'team', newTag: 'crew' }]),
    );
    expect(await screen.findByText('tag updated')).toBeTruthy();
  });
});
