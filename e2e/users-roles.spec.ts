// What each role meets in user management on the real server: a regular user edits their own
// account without any refusal, and an admin is offered only the actions the server lets an admin use.
import { expect, test } from '@playwright/test';
import type { APIRequestContext } from '@playwright/test';
import { freshUsername, logIn, registerUser } from './helpers.js';

const PASSWORD = 'e2e-password-7';

/** Root (still on the first-start password here) creates an account with the given role. */
async function createAsRoot(request: APIRequestContext, username: string, role: number): Promise<void> {
  const login = await request.post('/api/user/login', { data: { username: 'root', password: '123456' } });
  const rootId = ((await login.json()) as { data: { id: number } }).data.id;
  const res = await request.post('/api/user/', {
    data: { username, password: PASSWORD, display_name: username, role },
    headers: { 'New-Api-User': String(rootId) },
  });
  expect(((await res.json()) as { success: boolean }).success, await res.text()).toBe(true);
}

test('a regular user edits their own display name without any refusal', async ({ page }) => {
  const username = freshUsername('self');
  await registerUser(page, username, PASSWORD);
  await logIn(page, username, PASSWORD);
  const groupCalls: string[] = [];
  page.on('request', (req) => {
    if (new URL(req.url()).pathname === '/api/group/') groupCalls.push(req.url());
  });

  await page.goto('/user/edit');
  await expect(page.getByRole('heading', { name: 'Edit my account' })).toBeVisible();
  await expect(page.getByLabel('Username')).toHaveValue(username);
  await expect(page.getByLabel('Group')).toHaveCount(0);
  await expect(page.getByLabel('Quota')).toHaveCount(0);
  await page.getByLabel('Display name').fill('Self Edited');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('user updated')).toBeVisible();
  await expect(page.getByText(/do not have permission/)).toHaveCount(0);
  expect(groupCalls).toEqual([]);

  // The server kept it: a fresh load of the page shows the new name.
  await page.reload();
  await expect(page.getByLabel('Display name')).toHaveValue('Self Edited');
  await expect(page.getByText(/do not have permission/)).toHaveCount(0);
});

test('an admin sees no Promote, and no actions on root, another admin or themselves', async ({
  page,
  request,
}) => {
  const admin = freshUsername('adm');
  const otherAdmin = freshUsername('adm2');
  const member = freshUsername('mem');
  await createAsRoot(request, admin, 10);
  await createAsRoot(request, otherAdmin, 10);
  await createAsRoot(request, member, 1);
  await logIn(page, admin, PASSWORD);
  await page.goto('/user');
  await expect(page.getByRole('heading', { name: 'Manage users' })).toBeVisible();
  const rows = page.locator('.ant-table-tbody tr.ant-table-row');
  await expect(rows.first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Promote' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Demote' })).toHaveCount(0);

  const search = async (keyword: string) => {
    await page.getByLabel('Search users').fill(keyword);
    await page.getByRole('button', { name: 'Query' }).click();
    await expect(page).toHaveURL(new RegExp(`keyword=${keyword}`));
    const row = rows.filter({ has: page.getByText(keyword, { exact: true }) });
    await expect(row).toHaveCount(1);
    return row;
  };

  const rootRow = await search('root');
  await expect(rootRow.getByText('Super admin')).toBeVisible();
  await expect(rootRow.getByRole('button')).toHaveCount(0);
  await expect(rootRow.getByRole('link')).toHaveCount(0);

  const otherAdminRow = await search(otherAdmin);
  await expect(otherAdminRow.getByText('Admin', { exact: true })).toBeVisible();
  await expect(otherAdminRow.getByRole('button')).toHaveCount(0);
  await expect(otherAdminRow.getByRole('link')).toHaveCount(0);

  const ownRow = await search(admin);
  await expect(ownRow.getByRole('button')).toHaveCount(0);
  await expect(ownRow.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/user/edit');

  // A regular user's row keeps what an admin may do, and disabling it works.
  const memberRow = await search(member);
  await expect(memberRow.getByRole('button', { name: 'Promote' })).toHaveCount(0);
  await expect(memberRow.getByRole('button', { name: 'Delete' })).toBeVisible();
  await memberRow.getByRole('button', { name: 'Disable' }).click();
  await expect(page.getByText('operation done')).toBeVisible();
  await expect(memberRow.getByText('Banned')).toBeVisible();
});
