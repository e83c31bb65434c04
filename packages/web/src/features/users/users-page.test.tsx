// User management as an admin meets it: the table's figures, searching, and each row action leaving
// the row with the status and role the server answered.
import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { PublicUser } from '@sluice/shared';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadSections } from '../../i18n';
import { clearUser, setUser } from '../../lib/session';
import { DEFAULT_STATUS } from '../../lib/status';
import { failure, installFetch, ok } from '../../test/fake-fetch';
import type { FakeRoute } from '../../test/fake-fetch';
import { renderPage } from '../../test/render';
import { UsersPage } from './users-page';

const user = (over: Partial<PublicUser>): PublicUser => ({
  id: 2,
  username: 'alice',
  display_name: 'Alice A.',
  role: 1,
  status: 1,
  email: '',
  github_id: '',
  wechat_id: '',
  telegram_id: '',
  linux_do_id: '',
  quota: 1_000_000,
  used_quota: 250_000,
  request_count: 7,
  group: 'default',
  aff_code: 'abcd',
  aff_count: 3,
  aff_quota: 0,
  aff_history_quota: 500_000,
  inviter_id: 0,
  created_at: 0,
  DeletedAt: null,
  ...over,
});

const alice = user({});
// A button that was just loading keeps antd's spinner (and its "loading" label) while it fades out,
// which happy-dom never finishes; match the visible text.
const named = (text: string) => ({ name: new RegExp(`${text}$`) });
const bob = user({ id: 3, username: 'bob', display_name: '', status: 2, inviter_id: 2 });

function serve(manage: FakeRoute) {
  return installFetch({
    'GET /api/status': ok(DEFAULT_STATUS),
    'GET /api/group/': ok(['default', 'vip']),
    'GET /api/user/': ok([alice, bob]),
    'GET /api/user/search': ok([bob]),
    'POST /api/user/manage': manage,
  });
}

async function rowOf(username: string): Promise<HTMLElement> {
  const cell = await screen.findByText(username);
  const row = cell.closest('tr');
  if (!row) throw new Error(`no row for ${username}`);
  return row;
}

// Whole pages of antd forms render slowly in happy-dom on a busy machine; the default waits are too tight.
vi.setConfig({ testTimeout: 30_000 });
configure({ asyncUtilTimeout: 5_000 });

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

describe('user table', () => {
  it('shows identity, quota in dollars, invites, role and status', async () => {
    serve(ok({ status: 1, role: 1 }));
    renderPage(<UsersPage />, { path: '/user' });
    expect(await screen.findByRole('heading', { name: 'Manage users' })).toBeTruthy();
    const row = await rowOf('alice');
    expect(within(row).getByText('Alice A.')).toBeTruthy();
    expect(within(row).getByLabelText('Remaining quota: $2.00')).toBeTruthy();
    expect(within(row).getByLabelText('Used quota: $0.50')).toBeTruthy();
    expect(within(row).getByLabelText('Call count: 7')).toBeTruthy();
    expect(within(row).getByLabelText('Total invite earnings: $1.00')).toBeTruthy();
    expect(within(row).getByLabelText('Inviter ID: none')).toBeTruthy();
    expect(within(row).getByText('Regular user')).toBeTruthy();
    expect(within(row).getByText('Activated')).toBeTruthy();
    const bobRow = await rowOf('bob');
    expect(within(bobRow).getByText('Banned')).toBeTruthy();
    expect(within(bobRow).getByLabelText('Inviter ID: 2')).toBeTruthy();
    expect(within(bobRow).getByRole('button', named('Enable'))).toBeTruthy();
  });

  it('searches by keyword from the first page', async () => {
    const calls = serve(ok({ status: 1, role: 1 }));
    renderPage(<UsersPage />, { path: '/user' });
    await rowOf('alice');
    fireEvent.change(screen.getByLabelText('Search users'), { target: { value: ' bob ' } });
    fireEvent.click(screen.getByRole('button', { name: /Query/ }));
    await waitFor(() => expect(screen.queryByText('alice')).toBeNull());
    const search = calls.find((c) => c.path === '/api/user/search');
    expect(search?.query.get('keyword')).toBe('bob');
    // With page_size the server pages from 1, as new-api's paged lists do.
    expect(search?.query.get('p')).toBe('1');
    expect(search?.query.get('page_size')).toBe('10');
  });

  it('disabling takes the status the server answered and offers enable instead', async () => {
    const calls = serve(ok({ status: 2, role: 1 }));
    renderPage(<UsersPage />, { path: '/user' });
    const row = await rowOf('alice');
    fireEvent.click(within(row).getByRole('button', named('Disable')));
    await waitFor(() => expect(within(row).getByText('Banned')).toBeTruthy());
    expect(within(row).getByRole('button', named('Enable'))).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/user/manage')?.body).toEqual({ id: 2, action: 'disable' });
    expect(await screen.findByText('operation done')).toBeTruthy();
  });

  it('promoting shows the role the server answered', async () => {
    serve(ok({ status: 1, role: 10 }));
    renderPage(<UsersPage />, { path: '/user' });
    const row = await rowOf('alice');
    fireEvent.click(within(row).getByRole('button', named('Promote')));
    await waitFor(() => expect(within(row).getByText('Admin')).toBeTruthy());
    // An admin can be demoted, no longer promoted.
    await waitFor(() =>
      expect(within(row).getByRole('button', named('Demote'))).toHaveProperty('disabled', false),
    );
    expect(within(row).queryByRole('button', named('Promote'))).toBeNull();
  });

  it('deleting asks first, then marks the row deregistered without actions', async () => {
    const calls = serve(ok({ status: 1, role: 1 }));
    renderPage(<UsersPage />, { path: '/user' });
    const row = await rowOf('alice');
    fireEvent.click(within(row).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('tooltip');
    expect(within(confirm).getByText('Delete user alice?')).toBeTruthy();
    expect(calls.some((c) => c.path === '/api/user/manage')).toBe(false);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(within(row).getByText('Deregistered')).toBeTruthy());
    expect(within(row).queryAllByRole('button')).toHaveLength(0);
    expect(calls.find((c) => c.path === '/api/user/manage')?.body).toEqual({ id: 2, action: 'delete' });
  });

  it('a refused action leaves the row as it was and says why', async () => {
    // A refusal is HTTP 200 with success false; its sentence is the whole message.
    serve(failure(200, 'you cannot act on a user whose role is equal to or higher than yours'));
    renderPage(<UsersPage />, { path: '/user' });
    const row = await rowOf('alice');
    fireEvent.click(within(row).getByRole('button', named('Disable')));
    expect(
      await screen.findByText('you cannot act on a user whose role is equal to or higher than yours'),
    ).toBeTruthy();
    expect(within(row).getByText('Activated')).toBeTruthy();
    expect(within(row).getByRole('button', named('Disable'))).toHaveProperty('disabled', false);
  });
});
