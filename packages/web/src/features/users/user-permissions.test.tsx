// Which row actions each role is offered: exactly the ones the server accepts from that caller, so
// nobody meets a Promote, Disable or Delete button that can only end in "not allowed".
import { cleanup, configure, screen, within } from '@testing-library/react';
import type { PublicUser } from '@sluice/shared';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadSections } from '../../i18n';
import { clearUser, setUser } from '../../lib/session';
import { DEFAULT_STATUS } from '../../lib/status';
import { installFetch, ok } from '../../test/fake-fetch';
import { renderPage } from '../../test/render';
import { allowedUserActions } from './user-permissions';
import { UsersPage } from './users-page';

const user = (id: number, username: string, role: number, over: Partial<PublicUser> = {}): PublicUser => ({
  id,
  username,
  display_name: '',
  role,
  status: 1,
  email: '',
  github_id: '',
  wechat_id: '',
  telegram_id: '',
  linux_do_id: '',
  quota: 0,
  used_quota: 0,
  request_count: 0,
  group: 'default',
  aff_code: '',
  aff_count: 0,
  aff_quota: 0,
  aff_history_quota: 0,
  inviter_id: 0,
  created_at: 0,
  DeletedAt: null,
  ...over,
});

const root = user(1, 'root', 100);
const alice = user(2, 'alice', 1);
const bob = user(3, 'bob', 1, { status: 2 });
const ada = user(4, 'ada', 10);
const otto = user(5, 'otto', 10);
const rita = user(6, 'rita', 100);
const gone = user(7, 'gone', 1, { DeletedAt: 1_700_000_000 });

const sorted = (actions: Iterable<string>) => [...actions].sort();

describe('allowedUserActions', () => {
  it('root may promote users, demote admins, and act on everyone below root', () => {
    expect(sorted(allowedUserActions(root, alice))).toEqual(
      sorted(['promote', 'enable', 'disable', 'delete', 'edit']),
    );
    expect(sorted(allowedUserActions(root, ada))).toEqual(
      sorted(['demote', 'enable', 'disable', 'delete', 'edit']),
    );
    expect(allowedUserActions(root, rita).size).toBe(0);
  });

  it('an admin may act on regular users only, and never promote or demote', () => {
    expect(sorted(allowedUserActions(ada, alice))).toEqual(sorted(['enable', 'disable', 'delete', 'edit']));
    expect(allowedUserActions(ada, otto).size).toBe(0);
    expect(allowedUserActions(ada, root).size).toBe(0);
  });

  it('on the own row only the own-account edit is offered', () => {
    expect(sorted(allowedUserActions(root, root))).toEqual(['edit']);
    expect(sorted(allowedUserActions(ada, ada))).toEqual(['edit']);
  });

  it('a deregistered user, or no signed-in caller, gets nothing', () => {
    expect(allowedUserActions(root, gone).size).toBe(0);
    expect(allowedUserActions(null, alice).size).toBe(0);
  });
});

// Whole pages of antd tables render slowly in happy-dom on a busy machine; the default waits are too tight.
vi.setConfig({ testTimeout: 30_000 });
configure({ asyncUtilTimeout: 5_000 });

beforeAll(() => loadSections());
afterEach(() => {
  cleanup();
  clearUser();
  localStorage.clear();
  vi.unstubAllGlobals();
});

function showUsersTo(caller: PublicUser) {
  localStorage.clear();
  setUser({ ...caller, display_name: caller.username });
  installFetch({
    'GET /api/status': ok(DEFAULT_STATUS),
    'GET /api/group/': ok(['default']),
    'GET /api/user/': ok([root, alice, bob, ada, otto, rita, gone]),
  });
  renderPage(<UsersPage />, { path: '/user' });
}

/** The row's offered actions as the user reads them: button texts, then link texts with targets. */
async function actionsOf(username: string): Promise<string[]> {
  const cell = await screen.findByText(username, { selector: 'td div' });
  const row = cell.closest('tr');
  if (!row) throw new Error(`no row for ${username}`);
  const buttons = within(row)
    .queryAllByRole('button')
    .map((b) => b.textContent ?? '');
  const links = within(row)
    .queryAllByRole('link')
    .map((a) => `${a.textContent ?? ''} → ${a.getAttribute('href') ?? ''}`);
  return [...buttons, ...links];
}

describe('row actions by role', () => {
  it('root sees Promote on users, Demote on admins, nothing on another root', async () => {
    showUsersTo(root);
    expect(await actionsOf('alice')).toEqual(['Promote', 'Disable', 'Delete', 'Edit → /user/edit/2']);
    expect(await actionsOf('bob')).toEqual(['Promote', 'Enable', 'Delete', 'Edit → /user/edit/3']);
    expect(await actionsOf('ada')).toEqual(['Demote', 'Disable', 'Delete', 'Edit → /user/edit/4']);
    expect(await actionsOf('rita')).toEqual([]);
    expect(await actionsOf('gone')).toEqual([]);
    // Root's own row: no management action, only the own-account form.
    expect(await actionsOf('root')).toEqual(['Edit → /user/edit']);
  });

  it('an admin sees no Promote or Demote anywhere and no actions on admins or root', async () => {
    showUsersTo(ada);
    expect(await actionsOf('alice')).toEqual(['Disable', 'Delete', 'Edit → /user/edit/2']);
    expect(await actionsOf('bob')).toEqual(['Enable', 'Delete', 'Edit → /user/edit/3']);
    expect(await actionsOf('root')).toEqual([]);
    expect(await actionsOf('rita')).toEqual([]);
    expect(await actionsOf('otto')).toEqual([]);
    expect(await actionsOf('ada')).toEqual(['Edit → /user/edit']);
    expect(screen.queryAllByRole('button', { name: /Promote|Demote/ })).toHaveLength(0);
  });
});
