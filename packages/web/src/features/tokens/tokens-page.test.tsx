// The token list as a user meets it: what each row shows, searching by key, copying a selection,
// the key, chat links, and the row actions keeping the row in step with the server.
import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TokenView } from '@sluice/shared';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadSections } from '../../i18n';
import { clearUser, setUser } from '../../lib/session';
import { DEFAULT_STATUS } from '../../lib/status';
import { failure, installFetch, ok } from '../../test/fake-fetch';
import type { FakeRoute, RecordedCall } from '../../test/fake-fetch';
import { renderPage } from '../../test/render';
import { TokensPage } from './tokens-page';

const token = (over: Partial<TokenView>): TokenView => ({
  id: 1,
  user_id: 2,
  key: 'a'.repeat(48),
  status: 1,
  name: 'main',
  created_time: 1_700_000_000,
  accessed_time: 1_700_000_000,
  expired_time: -1,
  remain_quota: 2_500_000,
  unlimited_quota: false,
  used_quota: 250_000,
  model_limits_enabled: false,
  model_limits: '',
  allow_ips: '',
  group: '',
  ...over,
});

const main = token({});
const limited = token({
  id: 2,
  name: 'limited',
  key: 'b'.repeat(48),
  model_limits_enabled: true,
  unlimited_quota: true,
  group: 'vip',
  expired_time: 1_900_000_000,
});
const spent = token({ id: 3, name: 'spent', key: 'c'.repeat(48), status: 4 });

const CHATS = [{ NextChat: 'https://chat.example/#/?settings={"key":"{key}","url":"{address}"}' }];

function serve(routes: Record<string, FakeRoute> = {}): RecordedCall[] {
  return installFetch({
    'GET /api/status': ok({ ...DEFAULT_STATUS, chats: CHATS, server_address: 'https://api.example.com' }),
    'GET /api/token/': ok([main, limited, spent]),
    'GET /api/token/search': ok([limited]),
    ...routes,
  });
}

async function rowOf(name: string): Promise<HTMLElement> {
  const row = (await screen.findByText(name)).closest('tr');
  if (!row) throw new Error(`no row for ${name}`);
  return row;
}
// A button that was just loading keeps antd's spinner label while it fades out; match the text.
const named = (text: string) => ({ name: new RegExp(`${text}$`) });

vi.setConfig({ testTimeout: 30_000 });
configure({ asyncUtilTimeout: 5_000 });

beforeAll(() => loadSections());
beforeEach(() => {
  localStorage.clear();
  setUser({ id: 2, username: 'alice', display_name: '', role: 1, status: 1, group: 'default' });
});
afterEach(() => {
  cleanup();
  clearUser();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('token list', () => {
  it('shows status and group, quotas, expiry and the usage warning', async () => {
    serve();
    renderPage(<TokensPage />, { path: '/token' });
    expect(await screen.findByText(/should not hand|do not hand them directly/)).toBeTruthy();
    const row = await rowOf('main');
    expect(within(row).getByText('Enabled')).toBeTruthy();
    expect(within(row).getByText('user group')).toBeTruthy();
    expect(within(row).getByText('$0.50')).toBeTruthy();
    expect(within(row).getByText('$5.00')).toBeTruthy();
    expect(within(row).getByText('Never')).toBeTruthy();
    const limitedRow = await rowOf('limited');
    expect(within(limitedRow).getByText('Enabled (model limits)')).toBeTruthy();
    expect(within(limitedRow).getByText('vip')).toBeTruthy();
    expect(within(limitedRow).getByText('Unlimited')).toBeTruthy();
    expect(within(limitedRow).queryByText('Never')).toBeNull();
    const spentRow = await rowOf('spent');
    expect(within(spentRow).getByText('Exhausted')).toBeTruthy();
    expect(within(spentRow).getByRole('button', named('Enable'))).toBeTruthy();
  });

  it('searches by key', async () => {
    const calls = serve();
    renderPage(<TokensPage />, { path: '/token' });
    await rowOf('main');
    fireEvent.change(screen.getByLabelText('Token key'), { target: { value: ' sk-bbb ' } });
    fireEvent.click(screen.getByRole('button', { name: /Query/ }));
    await waitFor(() => expect(screen.queryByText('main')).toBeNull());
    const search = calls.find((c) => c.path === '/api/token/search');
    expect(search?.query.get('token')).toBe('sk-bbb');
    expect(search?.query.get('p')).toBe('0');
    expect(search?.query.get('size')).toBe('10');
  });

  it('copy selected without a selection asks for one', async () => {
    serve();
    renderPage(<TokensPage />, { path: '/token' });
    await rowOf('main');
    fireEvent.click(screen.getByRole('button', { name: /Copy selected/ }));
    expect(await screen.findByText('please select at least one token')).toBeTruthy();
  });

  it('copies the selected tokens as name and full key, one per line', async () => {
    serve();
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    vi.stubGlobal('isSecureContext', true);
    renderPage(<TokensPage />, { path: '/token' });
    fireEvent.click(within(await rowOf('main')).getByRole('checkbox'));
    fireEvent.click(within(await rowOf('spent')).getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: /Copy selected/ }));
    await waitFor(() => expect(writeText).toHaveBeenCalled());
    expect(writeText).toHaveBeenCalledWith(`main\tsk-${'a'.repeat(48)}\nspent\tsk-${'c'.repeat(48)}`);
  });

  it('shows the key with its sk- prefix', async () => {
    serve();
    renderPage(<TokensPage />, { path: '/token' });
    fireEvent.click(within(await rowOf('main')).getByRole('button', { name: /View key/ }));
    expect(await screen.findByText(`sk-${'a'.repeat(48)}`)).toBeTruthy();
  });

  it('opens a configured chat with the key and the server address', async () => {
    serve();
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    renderPage(<TokensPage />, { path: '/token' });
    await screen.findByText('main');
    // The stored status has no chats until the server's answer lands.
    fireEvent.click(await within(await rowOf('main')).findByRole('button', { name: /Chat/ }));
    fireEvent.click(await screen.findByText('NextChat'));
    expect(open).toHaveBeenCalledWith(
      `https://chat.example/#/?settings={"key":"sk-${'a'.repeat(48)}","url":"https%3A%2F%2Fapi.example.com"}`,
      '_blank',
      'noopener,noreferrer',
    );
  });

  it('disabling takes the status the server answered and offers enable', async () => {
    const calls = serve({ 'PUT /api/token/': ok({ ...main, status: 2 }) });
    renderPage(<TokensPage />, { path: '/token' });
    const row = await rowOf('main');
    fireEvent.click(within(row).getByRole('button', named('Disable')));
    await waitFor(() => expect(within(row).getByText('Disabled')).toBeTruthy());
    expect(within(row).getByRole('button', named('Enable'))).toBeTruthy();
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.query.get('status_only')).toBe('true');
    expect(put?.body).toEqual({ id: 1, status: 2 });
  });

  it('a refused enable leaves the row and shows the server reason', async () => {
    serve({ 'PUT /api/token/': failure(400, 'the token quota is used up, raise its quota first') });
    renderPage(<TokensPage />, { path: '/token' });
    const row = await rowOf('spent');
    fireEvent.click(within(row).getByRole('button', named('Enable')));
    expect(await screen.findByText(/the token quota is used up, raise its quota first/)).toBeTruthy();
    expect(within(row).getByText('Exhausted')).toBeTruthy();
  });

  it('deleting asks first, then removes the row', async () => {
    const calls = serve({ 'DELETE /api/token/1/': ok(null) });
    renderPage(<TokensPage />, { path: '/token' });
    const row = await rowOf('main');
    fireEvent.click(within(row).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('tooltip');
    expect(within(confirm).getByText('Delete token main?')).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('main')).toBeNull());
    expect(await screen.findByText('token deleted')).toBeTruthy();
  });
});
