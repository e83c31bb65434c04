// Saving site settings as the super admin meets it: only changed keys go out (one PUT each), the
// three outcomes are told apart, JSON fields are checked on blur, secrets are write-only.
import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { OPTION_DEFS, OPTION_KEYS, isSecretOption } from '@sluice/shared';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadSections } from '../../../i18n';
import { clearUser, setUser } from '../../../lib/session';
import { DEFAULT_STATUS } from '../../../lib/status';
import { failure, installFetch, ok } from '../../../test/fake-fetch';
import type { RecordedCall } from '../../../test/fake-fetch';
import { renderPage } from '../../../test/render';
import { OperationTab, OtherTab, SystemTab } from './site-tabs';

const defaults = (): Record<string, string> =>
  Object.fromEntries(
    OPTION_KEYS.filter((key) => !isSecretOption(key)).map((key) => [key, OPTION_DEFS[key].default]),
  );

/** Serves the options; PUTs of the keys in `refuse` fail with the given sentence. */
function serve(
  stored: Record<string, string> = defaults(),
  refuse: Record<string, string> = {},
): RecordedCall[] {
  return installFetch({
    'GET /api/status': ok(DEFAULT_STATUS),
    'GET /api/option/': ok(Object.entries(stored).map(([key, value]) => ({ key, value }))),
    'PUT /api/option/': async (request) => {
      const { key } = (await request.json()) as { key: string };
      return refuse[key] ? failure(400, refuse[key]) : ok(null);
    },
    'DELETE /api/log/': ok(42),
  });
}

const puts = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'PUT').map((c) => c.body);

async function card(title: string): Promise<HTMLElement> {
  const heading = await screen.findByText(title, { selector: '.ant-card-head-title' });
  const element = heading.closest('.ant-card');
  if (!(element instanceof HTMLElement)) throw new Error(`no card ${title}`);
  return element;
}

const type = (scope: HTMLElement, label: string, value: string) =>
  fireEvent.change(within(scope).getByLabelText(label), { target: { value } });

const save = (scope: HTMLElement) => fireEvent.click(within(scope).getByRole('button', { name: /Save/ }));

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

describe('saving a settings card', () => {
  it('sends only the changed key, then warns when nothing else changed', async () => {
    const calls = serve();
    renderPage(<OtherTab />, { path: '/setting' });
    const site = await card('Site');
    type(site, 'System name', 'My Gateway');
    save(site);
    expect(await screen.findByText('save success')).toBeTruthy();
    expect(puts(calls)).toEqual([{ key: 'SystemName', value: 'My Gateway' }]);

    save(site);
    expect(await screen.findByText('you seem not to have changed anything')).toBeTruthy();
    expect(puts(calls)).toHaveLength(1);
  });

  it('says some saves failed and shows the reason beside the field that failed', async () => {
    const calls = serve(defaults(), { Logo: 'the logo address is not allowed' });
    renderPage(<OtherTab />, { path: '/setting' });
    const site = await card('Site');
    type(site, 'System name', 'My Gateway');
    type(site, 'Logo image URL', 'https://example.com/logo.png');
    save(site);
    expect(await screen.findByText('some saves failed, please retry')).toBeTruthy();
    expect(within(site).getByText('the logo address is not allowed')).toBeTruthy();
    expect(puts(calls)).toEqual([
      { key: 'SystemName', value: 'My Gateway' },
      { key: 'Logo', value: 'https://example.com/logo.png' },
    ]);

    // The saved key is not sent again; the failed one is.
    save(site);
    await waitFor(() => expect(puts(calls)).toHaveLength(3));
    expect(puts(calls)[2]).toEqual({ key: 'Logo', value: 'https://example.com/logo.png' });
  });

  it('says the save failed when every key failed', async () => {
    serve(defaults(), { Notice: 'nope' });
    renderPage(<OtherTab />, { path: '/setting' });
    const notice = await card('Announcement');
    type(notice, 'Announcement', 'Maintenance tonight');
    save(notice);
    expect(await screen.findByText('save failed, please retry')).toBeTruthy();
  });

  it('sends a switch as "true"/"false" and a number as its digits', async () => {
    const calls = serve();
    renderPage(<OperationTab />, { path: '/setting' });
    const dashboard = await card('Data dashboard');
    fireEvent.click(within(dashboard).getByRole('switch'));
    type(dashboard, 'Refresh interval (minutes)', '15');
    save(dashboard);
    expect(await screen.findByText('save success')).toBeTruthy();
    expect(puts(calls)).toEqual([
      { key: 'DataExportInterval', value: '15' },
      { key: 'DataExportEnabled', value: 'false' },
    ]);
  });

  it('raises a refresh interval below 1 minute to 1', async () => {
    const calls = serve();
    renderPage(<OperationTab />, { path: '/setting' });
    const dashboard = await card('Data dashboard');
    const interval = within(dashboard).getByLabelText('Refresh interval (minutes)');
    type(dashboard, 'Refresh interval (minutes)', '0');
    fireEvent.blur(interval);
    await waitFor(() => expect(interval).toHaveProperty('value', '1'));
    save(dashboard);
    await waitFor(() => expect(puts(calls)).toEqual([{ key: 'DataExportInterval', value: '1' }]));
  });
});

describe('JSON fields', () => {
  it('say "not a valid JSON string" on blur and are not sent', async () => {
    const calls = serve();
    renderPage(<OperationTab />, { path: '/setting' });
    const ratios = await card('Ratios');
    type(ratios, 'Model ratios', '{"gpt-4": 15');
    fireEvent.blur(within(ratios).getByLabelText('Model ratios'));
    expect(await within(ratios).findByText('not a valid JSON string')).toBeTruthy();
    save(ratios);
    expect(await screen.findByText('please check input')).toBeTruthy();
    expect(puts(calls)).toHaveLength(0);
  });

  it('edit the cache read and write ratios beside the other ratios', async () => {
    const calls = serve();
    renderPage(<OperationTab />, { path: '/setting' });
    const ratios = await card('Ratios');
    const reads = within(ratios).getByLabelText('Cache read ratios') as HTMLTextAreaElement;
    const writes = within(ratios).getByLabelText('Cache write ratios') as HTMLTextAreaElement;
    expect(JSON.parse(reads.value)).toMatchObject({ 'claude-sonnet-4-5': 0.1, 'gemini-2.5-pro': 0.25 });
    expect(JSON.parse(writes.value)).toMatchObject({ 'claude-sonnet-4-5': 1.25 });
    expect(
      within(ratios).getByText(/A model not listed pays 1.25, Anthropic’s 5-minute cache-write price/),
    ).toBeTruthy();

    type(ratios, 'Cache write ratios', '{"claude-sonnet-4-5": 2}');
    save(ratios);
    expect(await screen.findByText('save success')).toBeTruthy();
    // JSON is sent compact.
    expect(puts(calls)).toEqual([{ key: 'CreateCacheRatio', value: '{"claude-sonnet-4-5":2}' }]);
  });

  it('word the top-up group ratio error on its own', async () => {
    serve();
    renderPage(<SystemTab />, { path: '/setting' });
    const payment = await card('Payment');
    type(payment, 'Top-up group ratios', 'vip: 2');
    fireEvent.blur(within(payment).getByLabelText('Top-up group ratios'));
    expect(await within(payment).findByText('top-up group ratio is not valid JSON')).toBeTruthy();
  });
});

describe('system settings', () => {
  it('sends a secret only when one is typed', async () => {
    const calls = serve();
    renderPage(<SystemTab />, { path: '/setting' });
    const smtp = await card('SMTP');
    const token = within(smtp).getByLabelText('SMTP password or access token');
    expect(token).toHaveProperty('value', '');
    type(smtp, 'SMTP server', 'smtp.example.com');
    save(smtp);
    expect(await screen.findByText('save success')).toBeTruthy();
    expect(puts(calls)).toEqual([{ key: 'SMTPServer', value: 'smtp.example.com' }]);

    type(smtp, 'SMTP password or access token', 's3cret');
    save(smtp);
    await waitFor(() => expect(puts(calls)).toHaveLength(2));
    expect(puts(calls)[1]).toEqual({ key: 'SMTPToken', value: 's3cret' });
  });

  it('asks for the server address before saving payment settings', async () => {
    const calls = serve({ ...defaults(), ServerAddress: '' });
    renderPage(<SystemTab />, { path: '/setting' });
    const payment = await card('Payment');
    type(payment, 'Payment gateway address', 'https://pay.example.com');
    save(payment);
    expect(await screen.findByText('please fill server address first')).toBeTruthy();
    expect(puts(calls)).toHaveLength(0);
  });

  it('asks before turning password login off, and keeps it on when cancelled', async () => {
    const calls = serve();
    renderPage(<SystemTab />, { path: '/setting' });
    const login = await card('Login and registration');
    const passwordLogin = within(login).getByLabelText('Allow login with a password');
    fireEvent.click(passwordLogin);
    expect(await screen.findByText('Turn off password login?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(passwordLogin.getAttribute('aria-checked')).toBe('true');

    fireEvent.click(passwordLogin);
    // The cancelled dialog may still be fading out (happy-dom never ends the animation): use the new one.
    await waitFor(() =>
      expect(screen.getAllByRole('button', { name: 'Turn off' }).length).toBeGreaterThan(1),
    );
    fireEvent.click(screen.getAllByRole('button', { name: 'Turn off' }).at(-1) as HTMLElement);
    await waitFor(() => expect(passwordLogin.getAttribute('aria-checked')).toBe('false'));
    save(login);
    await waitFor(() => expect(puts(calls)).toEqual([{ key: 'PasswordLoginEnabled', value: 'false' }]));
  });
});

describe('log purge', () => {
  it('deletes logs older than one month ago by default and tells how many went', async () => {
    const calls = serve();
    renderPage(<OperationTab />, { path: '/setting' });
    const logs = await card('Logs');
    fireEvent.click(within(logs).getByRole('button', { name: /Clean history logs/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Clean history logs' }));
    expect(await screen.findByText('42 logs cleaned')).toBeTruthy();
    const purge = calls.find((c) => c.method === 'DELETE');
    const target = Number(purge?.query.get('target_timestamp'));
    const monthAgo = new Date();
    monthAgo.setMonth(monthAgo.getMonth() - 1);
    // Within a day of one month ago (the test may run across midnight or a month boundary).
    expect(Math.abs(target - monthAgo.getTime() / 1000)).toBeLessThan(86_400 * 3);
  });

  it('asks for a time when none is chosen', async () => {
    const calls = serve();
    renderPage(<OperationTab />, { path: '/setting' });
    const logs = await card('Logs');
    const clear = logs.querySelector('.ant-picker-clear');
    if (!clear) throw new Error('the date picker has no clear button');
    fireEvent.mouseDown(clear);
    fireEvent.mouseUp(clear);
    fireEvent.click(clear);
    fireEvent.click(within(logs).getByRole('button', { name: /Clean history logs/ }));
    expect(await screen.findByText('please select log time')).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
  });
});
