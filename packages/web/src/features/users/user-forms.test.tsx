// The add-user drawer and the two edit pages: what they require and exactly what they send.
import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { PublicUser } from '@sluice/shared';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadSections } from '../../i18n';
import { clearUser, getUser, setUser } from '../../lib/session';
import { DEFAULT_STATUS } from '../../lib/status';
import { failure, installFetch, ok } from '../../test/fake-fetch';
import type { RecordedCall } from '../../test/fake-fetch';
import { renderPage } from '../../test/render';
import { EditUserPage } from './edit-user-page';
import { UsersPage } from './users-page';

const alice: PublicUser = {
  id: 2,
  username: 'alice',
  display_name: 'Alice A.',
  role: 1,
  status: 1,
  email: 'alice@example.com',
  github_id: '',
  wechat_id: '',
  telegram_id: '',
  linux_do_id: '',
  quota: 1_000_000,
  used_quota: 0,
  request_count: 0,
  group: 'default',
  aff_code: 'abcd',
  aff_count: 0,
  aff_quota: 0,
  aff_history_quota: 0,
  inviter_id: 0,
  created_at: 0,
  DeletedAt: null,
};

function serve(): RecordedCall[] {
  return installFetch({
    'GET /api/status': ok(DEFAULT_STATUS),
    'GET /api/group/': ok(['default', 'vip']),
    'GET /api/user/': ok([alice]),
    'POST /api/user/': ok({ ...alice, id: 9, username: 'carol' }),
    'GET /api/user/2': ok(alice),
    'PUT /api/user/': ok(alice),
    // The server's answer: the balance after the addition, which the relay may have lowered meanwhile.
    'POST /api/user/manage': ok({ status: 1, role: 1, quota: 749000 }),
    'GET /api/user/self': ok({ ...alice, id: 1, username: 'root', role: 100 }),
    'PUT /api/user/self': ok({ ...alice, id: 1, username: 'root2', display_name: 'Boss', role: 100 }),
  });
}

const sent = (calls: RecordedCall[], method: string, path: string) =>
  calls.filter((c) => c.method === method && c.path === path).map((c) => c.body);

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

describe('add-user drawer', () => {
  it('marks username and password when missing and sends nothing', async () => {
    const calls = serve();
    renderPage(<UsersPage />, { path: '/user' });
    fireEvent.click(await screen.findByRole('button', { name: /Add user/ }));
    const drawer = await screen.findByRole('dialog');
    fireEvent.click(within(drawer).getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(within(drawer).getAllByText('please enter username and password')).toHaveLength(2),
    );
    expect(sent(calls, 'POST', '/api/user/')).toHaveLength(0);
  });

  it('creates the user and reloads the list', async () => {
    const calls = serve();
    renderPage(<UsersPage />, { path: '/user' });
    await screen.findByText('alice');
    fireEvent.click(screen.getByRole('button', { name: /Add user/ }));
    const drawer = await screen.findByRole('dialog');
    fireEvent.change(within(drawer).getByLabelText('Username'), { target: { value: ' carol ' } });
    fireEvent.change(within(drawer).getByLabelText('Password'), { target: { value: 'password123' } });
    fireEvent.click(within(drawer).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('user created')).toBeTruthy();
    expect(sent(calls, 'POST', '/api/user/')).toEqual([{ username: 'carol', password: 'password123' }]);
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/user/').length).toBeGreaterThan(1));
  });
});

describe('edit another user', () => {
  it('adds a negative amount through the add-quota call and never sends an absolute quota', async () => {
    const calls = serve();
    renderPage(<EditUserPage />, { path: '/user/edit/:id', url: '/user/edit/2' });
    const quota = await screen.findByLabelText('Quota');
    expect(quota).toHaveProperty('value', '1000000');
    expect(quota).toHaveProperty('readOnly', true);
    expect(screen.getByLabelText('Email')).toHaveProperty('readOnly', true);
    expect(screen.getByLabelText('Email')).toHaveProperty('value', 'alice@example.com');

    fireEvent.click(screen.getByRole('button', { name: /Add quota/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Amount to add (negative to subtract)'), {
      target: { value: '-250000' },
    });
    expect(await within(dialog).findByText('New quota: 750000 ($1.50)')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add quota' }));
    expect(await screen.findByText('quota updated')).toBeTruthy();
    expect(sent(calls, 'POST', '/api/user/manage')).toEqual([{ id: 2, action: 'add_quota', value: -250000 }]);
    await waitFor(() => expect(quota).toHaveProperty('value', '749000'));

    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('user updated')).toBeTruthy();
    expect(sent(calls, 'PUT', '/api/user/')).toEqual([
      { id: 2, username: 'alice', display_name: 'Alice A.', password: '', group: 'default' },
    ]);
  });

  it('refuses a new password shorter than 8 characters', async () => {
    const calls = serve();
    renderPage(<EditUserPage />, { path: '/user/edit/:id', url: '/user/edit/2' });
    fireEvent.change(await screen.findByLabelText('Password'), { target: { value: 'short' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Password length must not be less than 8')).toBeTruthy();
    expect(sent(calls, 'PUT', '/api/user/')).toHaveLength(0);
  });
});

describe('edit own account', () => {
  it('has no group or quota, uses the self endpoint and renames the signed-in user', async () => {
    const calls = serve();
    renderPage(<EditUserPage />, { path: '/user/edit' });
    const username = await screen.findByLabelText('Username');
    expect(screen.queryByLabelText('Quota')).toBeNull();
    expect(screen.queryByLabelText('Group')).toBeNull();
    fireEvent.change(username, { target: { value: 'root2' } });
    fireEvent.change(screen.getByLabelText('Display name'), { target: { value: 'Boss' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('user updated')).toBeTruthy();
    expect(sent(calls, 'PUT', '/api/user/self')).toEqual([
      { username: 'root2', display_name: 'Boss', password: '' },
    ]);
    expect(getUser()).toMatchObject({ id: 1, username: 'root2', display_name: 'Boss' });
  });

  it('works for a regular user without asking any admin-only route', async () => {
    setUser({ id: 2, username: 'alice', display_name: 'Alice A.', role: 1, status: 1, group: 'default' });
    const calls = installFetch({
      'GET /api/status': ok(DEFAULT_STATUS),
      // What the server answers a regular user here; the page must never ask.
      'GET /api/group/': failure(200, 'you do not have permission to do this'),
      'GET /api/user/self': ok(alice),
      'PUT /api/user/self': ok({ ...alice, display_name: 'Alice B.' }),
    });
    renderPage(<EditUserPage />, { path: '/user/edit' });
    const displayName = await screen.findByLabelText('Display name');
    expect(screen.queryByLabelText('Group')).toBeNull();
    fireEvent.change(displayName, { target: { value: 'Alice B.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('user updated')).toBeTruthy();
    expect(sent(calls, 'PUT', '/api/user/self')).toEqual([
      { username: 'alice', display_name: 'Alice B.', password: '' },
    ]);
    expect(calls.map((c) => c.path)).not.toContain('/api/group/');
    expect(screen.queryByText(/do not have permission/)).toBeNull();
    expect(getUser()).toMatchObject({ id: 2, role: 1, display_name: 'Alice B.' });
  });

  it('opening the own id from the list edits the own account', async () => {
    const calls = serve();
    renderPage(<EditUserPage />, { path: '/user/edit/:id', url: '/user/edit/1' });
    expect(await screen.findByRole('heading', { name: 'Edit my account' })).toBeTruthy();
    expect(screen.queryByLabelText('Quota')).toBeNull();
    expect(calls.some((c) => c.path === '/api/user/1')).toBe(false);
  });
});
