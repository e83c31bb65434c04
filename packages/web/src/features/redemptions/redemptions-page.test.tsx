// The redemption code page as an admin meets it: the table, which actions a code's status allows,
// creating codes (the dialog with the new codes), editing, copying.
import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RedemptionView } from '@sluice/shared';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadSections } from '../../i18n';
import { clearUser, setUser } from '../../lib/session';
import { DEFAULT_STATUS } from '../../lib/status';
import { installFetch, ok } from '../../test/fake-fetch';
import type { FakeRoute, RecordedCall } from '../../test/fake-fetch';
import { renderPage } from '../../test/render';
import { RedemptionsPage } from './redemptions-page';

const code = (over: Partial<RedemptionView>): RedemptionView => ({
  id: 11,
  user_id: 1,
  key: 'f'.repeat(32),
  status: 1,
  name: 'promo',
  quota: 100_000,
  created_time: 1_700_000_000,
  redeemed_time: 0,
  used_user_id: 0,
  ...over,
});
const fresh = code({});
const used = code({ id: 12, name: 'spent', key: 'e'.repeat(32), status: 3, used_user_id: 42 });

function serve(routes: Record<string, FakeRoute> = {}): RecordedCall[] {
  return installFetch({
    'GET /api/status': ok(DEFAULT_STATUS),
    'GET /api/redemption/': ok([fresh, used]),
    ...routes,
  });
}

const sent = (calls: RecordedCall[], method: string) =>
  calls.filter((c) => c.method === method && c.path === '/api/redemption/').map((c) => c.body);

async function rowOf(name: string): Promise<HTMLElement> {
  const row = (await screen.findByText(name)).closest('tr');
  if (!row) throw new Error(`no row for ${name}`);
  return row;
}

vi.setConfig({ testTimeout: 30_000 });
configure({ asyncUtilTimeout: 5_000 });

beforeAll(() => loadSections());
beforeEach(() => {
  localStorage.clear();
  setUser({ id: 1, username: 'root', display_name: '', role: 100, status: 1, group: 'default' });
});
afterEach(() => {
  cleanup();
  clearUser();
  vi.unstubAllGlobals();
});

describe('redemption codes', () => {
  it('shows status, quota and redeemer, and allows only what the status permits', async () => {
    serve();
    renderPage(<RedemptionsPage />, { path: '/redemption' });
    const row = await rowOf('promo');
    expect(within(row).getByText('Unused')).toBeTruthy();
    expect(within(row).getByText('$0.20')).toBeTruthy();
    expect(within(row).getByText('none')).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Disable' })).toHaveProperty('disabled', false);
    expect(within(row).getByRole('button', { name: 'Edit' })).toHaveProperty('disabled', false);
    const usedRow = await rowOf('spent');
    expect(within(usedRow).getByText('Used')).toBeTruthy();
    expect(within(usedRow).getByText('42')).toBeTruthy();
    // A used code can be neither enabled nor edited.
    expect(within(usedRow).getByRole('button', { name: 'Enable' })).toHaveProperty('disabled', true);
    expect(within(usedRow).getByRole('button', { name: 'Edit' })).toHaveProperty('disabled', true);
  });

  it('a missing name marks the field and sends nothing', async () => {
    const calls = serve();
    renderPage(<RedemptionsPage />, { path: '/redemption' });
    fireEvent.click(await screen.findByRole('button', { name: /Add redemption code/ }));
    const drawer = await screen.findByRole('dialog');
    expect((within(drawer).getByLabelText('Quota') as HTMLInputElement).value).toBe('100000');
    expect((within(drawer).getByLabelText('How many to create') as HTMLInputElement).value).toBe('1');
    fireEvent.click(within(drawer).getByRole('button', { name: 'Submit' }));
    expect(await within(drawer).findByText('please enter a name for the redemption code')).toBeTruthy();
    expect(sent(calls, 'POST')).toHaveLength(0);
  });

  it('creates codes and shows them in a dialog that copies them all', async () => {
    const codes = ['1'.repeat(32), '2'.repeat(32)];
    const calls = serve({ 'POST /api/redemption/': ok(codes) });
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    vi.stubGlobal('isSecureContext', true);
    renderPage(<RedemptionsPage />, { path: '/redemption' });
    fireEvent.click(await screen.findByRole('button', { name: /Add redemption code/ }));
    const drawer = await screen.findByRole('dialog');
    fireEvent.change(within(drawer).getByLabelText('Name'), { target: { value: ' launch ' } });
    fireEvent.change(within(drawer).getByLabelText('How many to create'), { target: { value: '2' } });
    fireEvent.click(within(drawer).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(sent(calls, 'POST')).toEqual([{ name: 'launch', quota: 100_000, count: 2 }]));

    const list = await screen.findByRole('list', { name: 'Created redemption codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(codes);
    expect(screen.getByText('2 redemption code(s) created')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Copy all/ }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(codes.join('\n')));
  });

  it('edits an unused code without a count and updates the row', async () => {
    const calls = serve({ 'PUT /api/redemption/': ok({ ...fresh, name: 'promo2', quota: 200_000 }) });
    renderPage(<RedemptionsPage />, { path: '/redemption' });
    fireEvent.click(within(await rowOf('promo')).getByRole('button', { name: 'Edit' }));
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).queryByLabelText('How many to create')).toBeNull();
    fireEvent.change(within(drawer).getByLabelText('Name'), { target: { value: 'promo2' } });
    fireEvent.change(within(drawer).getByLabelText('Quota'), { target: { value: '200000' } });
    fireEvent.click(within(drawer).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(sent(calls, 'PUT')).toEqual([{ id: 11, name: 'promo2', quota: 200_000 }]));
    const row = await rowOf('promo2');
    expect(within(row).getByText('$0.40')).toBeTruthy();
  });

  it('disabling sends status_only and shows the answered status', async () => {
    const calls = serve({ 'PUT /api/redemption/': ok({ ...fresh, status: 2 }) });
    renderPage(<RedemptionsPage />, { path: '/redemption' });
    const row = await rowOf('promo');
    fireEvent.click(within(row).getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(within(row).getByText('Disabled')).toBeTruthy());
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.query.get('status_only')).toBe('true');
    expect(put?.body).toEqual({ id: 11, status: 2 });
    // A disabled code can be enabled again but not edited.
    expect(within(row).getByRole('button', { name: /Enable$/ })).toHaveProperty('disabled', false);
    expect(within(row).getByRole('button', { name: 'Edit' })).toHaveProperty('disabled', true);
  });

  it('copy selected without a selection asks for one', async () => {
    serve();
    renderPage(<RedemptionsPage />, { path: '/redemption' });
    await rowOf('promo');
    fireEvent.click(screen.getByRole('button', { name: /Copy selected/ }));
    expect(await screen.findByText('please select at least one redemption code')).toBeTruthy();
  });

  it('searches by id or name from the first page', async () => {
    const calls = serve({ 'GET /api/redemption/search': ok([used]) });
    renderPage(<RedemptionsPage />, { path: '/redemption' });
    await rowOf('promo');
    fireEvent.change(screen.getByLabelText('Search redemption codes'), { target: { value: '12' } });
    fireEvent.click(screen.getByRole('button', { name: /Query/ }));
    await waitFor(() => expect(screen.queryByText('promo')).toBeNull());
    expect(calls.find((c) => c.path === '/api/redemption/search')?.query.get('keyword')).toBe('12');
  });
});
