// The token drawer as a user meets it: presets, the unlimited switch, expiry typing and shortcuts,
// the model-limit switch, the group choice, and exactly what create and edit send.
import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TokenView } from '@sluice/shared';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadSections } from '../../i18n';
import { dayjs } from '../../lib/dates';
import { clearUser, setUser } from '../../lib/session';
import { DEFAULT_STATUS } from '../../lib/status';
import { installFetch, ok } from '../../test/fake-fetch';
import type { RecordedCall } from '../../test/fake-fetch';
import { renderPage } from '../../test/render';
import { TokensPage } from './tokens-page';

const existing: TokenView = {
  id: 7,
  user_id: 2,
  key: 'k'.repeat(48),
  status: 1,
  name: 'ci-bot',
  created_time: 1_700_000_000,
  accessed_time: 1_700_000_000,
  expired_time: -1,
  remain_quota: 1_000_000,
  unlimited_quota: false,
  used_quota: 0,
  model_limits_enabled: false,
  model_limits: '',
  allow_ips: '',
  group: '',
};

function serve(groups: Record<string, { ratio: number; desc: string }> = {}): RecordedCall[] {
  return installFetch({
    'GET /api/status': ok(DEFAULT_STATUS),
    'GET /api/token/': ok([existing]),
    'POST /api/token/': ok([existing]),
    'PUT /api/token/': ok(existing),
    'GET /api/user/models': ok(['gpt-4o', 'claude-3-haiku']),
    'GET /api/user/self/groups': ok(groups),
  });
}

const sent = (calls: RecordedCall[], method: string) =>
  calls
    .filter((c) => c.method === method && c.path === '/api/token/')
    .map((c) => c.body as Record<string, unknown>);

async function openAdd(): Promise<HTMLElement> {
  fireEvent.click(await screen.findByRole('button', { name: /Add token/ }));
  return screen.findByRole('dialog');
}

const submit = (drawer: HTMLElement) =>
  fireEvent.click(within(drawer).getByRole('button', { name: 'Submit' }));

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
});

describe('token drawer', () => {
  it('requires a name and sends nothing without one', async () => {
    const calls = serve();
    renderPage(<TokensPage />, { path: '/token' });
    const drawer = await openAdd();
    submit(drawer);
    expect(await within(drawer).findByText('please enter a token name')).toBeTruthy();
    expect(sent(calls, 'POST')).toHaveLength(0);
  });

  it('quota and count presets fill the fields, and the defaults are 500000 quota, never expiring', async () => {
    const calls = serve();
    renderPage(<TokensPage />, { path: '/token' });
    const drawer = await openAdd();
    const quota = within(drawer).getByLabelText('Quota') as HTMLInputElement;
    expect(quota.value).toBe('500000');
    expect(within(drawer).getByText('Shown as $1.00')).toBeTruthy();
    const quotaPresets = within(drawer).getByRole('group', { name: 'Quota presets' });
    expect(
      within(quotaPresets)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['1$', '10$', '50$', '100$', '500$', '1000$']);
    fireEvent.click(within(quotaPresets).getByRole('button', { name: '100$' }));
    await waitFor(() => expect(quota.value).toBe('50000000'));
    expect(within(drawer).getByText('Shown as $100.00')).toBeTruthy();
    const countPresets = within(drawer).getByRole('group', { name: 'Count presets' });
    expect(
      within(countPresets)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['10', '20', '30', '100']);
    fireEvent.click(within(countPresets).getByRole('button', { name: '20' }));

    fireEvent.change(within(drawer).getByLabelText('Name'), { target: { value: 'batch' } });
    submit(drawer);
    await waitFor(() => expect(sent(calls, 'POST')).toHaveLength(1));
    expect(sent(calls, 'POST')[0]).toEqual({
      name: 'batch',
      remain_quota: 50_000_000,
      unlimited_quota: false,
      expired_time: -1,
      model_limits_enabled: false,
      model_limits: '',
      allow_ips: '',
      group: '',
      count: 20,
    });
    expect(await screen.findByText('token created')).toBeTruthy();
  });

  it('unlimited quota disables the quota field and its presets', async () => {
    const calls = serve();
    renderPage(<TokensPage />, { path: '/token' });
    const drawer = await openAdd();
    const quota = within(drawer).getByLabelText('Quota') as HTMLInputElement;
    const presets = within(within(drawer).getByRole('group', { name: 'Quota presets' })).getAllByRole(
      'button',
    );
    expect(quota.disabled).toBe(false);
    fireEvent.click(within(drawer).getByRole('switch', { name: 'Unlimited quota' }));
    await waitFor(() => expect(quota.disabled).toBe(true));
    for (const button of presets) expect((button as HTMLButtonElement).disabled).toBe(true);

    fireEvent.change(within(drawer).getByLabelText('Name'), { target: { value: 'open' } });
    submit(drawer);
    await waitFor(() => expect(sent(calls, 'POST')).toHaveLength(1));
    expect(sent(calls, 'POST')[0]).toMatchObject({ unlimited_quota: true });
  });

  it('a typed expiry that is not a date stops the form with "expiry time format error"', async () => {
    const calls = serve();
    renderPage(<TokensPage />, { path: '/token' });
    const drawer = await openAdd();
    fireEvent.change(within(drawer).getByLabelText('Name'), { target: { value: 'short' } });
    const expiry = within(drawer).getByLabelText('Expiry time') as HTMLInputElement;
    fireEvent.change(expiry, { target: { value: 'tomorrow noon' } });
    submit(drawer);
    expect(await within(drawer).findByText('expiry time format error')).toBeTruthy();
    expect(sent(calls, 'POST')).toHaveLength(0);

    // The one-day shortcut writes a valid time, a day ahead.
    const shortcuts = within(drawer).getByRole('group', { name: 'Expiry shortcuts' });
    fireEvent.click(within(shortcuts).getByRole('button', { name: 'One day' }));
    await waitFor(() => expect(within(drawer).queryByText('expiry time format error')).toBeNull());
    submit(drawer);
    await waitFor(() => expect(sent(calls, 'POST')).toHaveLength(1));
    const expiredTime = sent(calls, 'POST')[0]?.expired_time as number;
    const inADay = dayjs().add(1, 'day').unix();
    expect(Math.abs(expiredTime - inADay)).toBeLessThan(120);
  });

  it('the model list is usable only while the limit switch is on', async () => {
    const calls = serve();
    renderPage(<TokensPage />, { path: '/token' });
    const drawer = await openAdd();
    const models = within(drawer).getByRole('combobox', { name: 'Allowed models' }) as HTMLInputElement;
    expect(models.disabled).toBe(true);
    fireEvent.click(within(drawer).getByRole('switch', { name: 'Limit models' }));
    await waitFor(() => expect(models.disabled).toBe(false));

    fireEvent.mouseDown(models);
    fireEvent.click(await screen.findByTitle('claude-3-haiku'));
    fireEvent.change(within(drawer).getByLabelText('Name'), { target: { value: 'limited' } });
    submit(drawer);
    await waitFor(() => expect(sent(calls, 'POST')).toHaveLength(1));
    expect(sent(calls, 'POST')[0]).toMatchObject({
      model_limits_enabled: true,
      model_limits: 'claude-3-haiku',
    });
  });

  it('with no selectable groups the group choice is disabled with a hint', async () => {
    serve({});
    renderPage(<TokensPage />, { path: '/token' });
    const drawer = await openAdd();
    expect(await within(drawer).findByText('The admin has not set selectable groups')).toBeTruthy();
    const group = within(drawer).getByRole('combobox', { name: 'Group' }) as HTMLInputElement;
    expect(group.disabled).toBe(true);
  });

  it('offers the selectable groups and sends the chosen one', async () => {
    const calls = serve({
      default: { ratio: 1, desc: 'your current group' },
      vip: { ratio: 2, desc: 'VIP' },
    });
    renderPage(<TokensPage />, { path: '/token' });
    const drawer = await openAdd();
    const group = within(drawer).getByRole('combobox', { name: 'Group' }) as HTMLInputElement;
    await waitFor(() => expect(group.disabled).toBe(false));
    fireEvent.mouseDown(group);
    fireEvent.click(await screen.findByText('VIP'));
    fireEvent.change(within(drawer).getByLabelText('Name'), { target: { value: 'grouped' } });
    submit(drawer);
    await waitFor(() => expect(sent(calls, 'POST')).toHaveLength(1));
    expect(sent(calls, 'POST')[0]).toMatchObject({ group: 'vip' });
  });

  it('input left in a cancelled drawer does not carry over to the next one', async () => {
    serve();
    renderPage(<TokensPage />, { path: '/token' });
    const first = await openAdd();
    fireEvent.change(within(first).getByLabelText('Name'), { target: { value: 'abandoned' } });
    fireEvent.click(within(first).getByRole('button', { name: 'Cancel' }));
    const row = (await screen.findByText('ci-bot')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Edit' }));
    const edit = (await screen.findByText('Edit token')).closest<HTMLElement>('[role="dialog"]');
    if (!edit) throw new Error('no edit drawer');
    expect((within(edit).getByLabelText('Name') as HTMLInputElement).value).toBe('ci-bot');
  });

  it('edits an existing token with its values and sends its id, without a count', async () => {
    const calls = serve();
    renderPage(<TokensPage />, { path: '/token' });
    const row = (await screen.findByText('ci-bot')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Edit' }));
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).getByText('Edit token')).toBeTruthy();
    expect((within(drawer).getByLabelText('Name') as HTMLInputElement).value).toBe('ci-bot');
    expect((within(drawer).getByLabelText('Quota') as HTMLInputElement).value).toBe('1000000');
    expect(within(drawer).queryByLabelText('How many to create')).toBeNull();
    fireEvent.change(within(drawer).getByLabelText('Name'), { target: { value: 'ci-bot-2' } });
    submit(drawer);
    await waitFor(() => expect(sent(calls, 'PUT')).toHaveLength(1));
    expect(sent(calls, 'PUT')[0]).toEqual({
      id: 7,
      name: 'ci-bot-2',
      remain_quota: 1_000_000,
      unlimited_quota: false,
      expired_time: -1,
      model_limits_enabled: false,
      model_limits: '',
      allow_ips: '',
      group: '',
    });
    expect(await screen.findByText('token updated')).toBeTruthy();
  });
});
