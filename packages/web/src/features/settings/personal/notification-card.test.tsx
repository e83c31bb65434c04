// The notification settings card of the personal tab as a user meets it: what is stored shows up,
// a save sends new-api's PUT /api/user/setting, and a webhook without its URL is stopped in the form.
import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { SelfUser } from '@sluice/shared';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage, loadSections } from '../../../i18n';
import { clearUser, setUser } from '../../../lib/session';
import { DEFAULT_STATUS } from '../../../lib/status';
import { installFetch, ok } from '../../../test/fake-fetch';
import type { RecordedCall } from '../../../test/fake-fetch';
import { renderPage } from '../../../test/render';
import { PersonalTab } from './personal-tab';

const me: SelfUser = {
  id: 7,
  username: 'alice',
  display_name: 'Alice',
  role: 1,
  status: 1,
  email: 'alice@example.com',
  github_id: '',
  wechat_id: '',
  telegram_id: '',
  linux_do_id: '',
  quota: 3_000_000,
  used_quota: 0,
  request_count: 0,
  group: 'default',
  aff_code: 'abcd1234',
  aff_count: 0,
  aff_quota: 0,
  aff_history_quota: 0,
  inviter_id: 0,
  created_at: 0,
  DeletedAt: null,
  setting: '',
  password_change_required: false,
};

function serve(user: SelfUser): RecordedCall[] {
  let current = user;
  return installFetch({
    'GET /api/status': ok(DEFAULT_STATUS),
    'GET /api/user/self': () => ok(current),
    'GET /api/user/models': ok([]),
    'GET /api/user/aff': ok('abcd1234'),
    'PUT /api/user/setting': async (request) => {
      current = { ...current, setting: JSON.stringify(await request.json()) };
      return ok(null);
    },
  });
}

const settingPuts = (calls: RecordedCall[]) =>
  calls.filter((c) => c.method === 'PUT' && c.path === '/api/user/setting').map((c) => c.body);

async function notificationCard(): Promise<HTMLElement> {
  const heading = await screen.findByText('Notification settings');
  const card = heading.closest('.ant-card');
  if (!(card instanceof HTMLElement)) throw new Error('no notification card');
  return card;
}

const checked = (card: HTMLElement, name: string) =>
  (within(card).getByRole('radio', { name }) as HTMLInputElement).checked;

const save = (card: HTMLElement) =>
  fireEvent.click(within(card).getByRole('button', { name: /Save notification settings/ }));

vi.setConfig({ testTimeout: 30_000 });
configure({ asyncUtilTimeout: 5_000 });

beforeAll(() => loadSections());
beforeEach(() => {
  localStorage.clear();
  setUser({ id: 7, username: 'alice', display_name: 'Alice', role: 1, status: 1, group: 'default' });
});
afterEach(async () => {
  cleanup();
  clearUser();
  vi.unstubAllGlobals();
  await changeLanguage('en');
});

describe('notification settings card', () => {
  it('starts on email warnings to the account address and saves a new threshold', async () => {
    const calls = serve(me);
    renderPage(<PersonalTab />, { path: '/setting' });
    const card = await notificationCard();
    expect(checked(card, 'Email')).toBe(true);
    expect(within(card).getByText('Leave empty to use your account email (alice@example.com).')).toBeTruthy();
    // The default threshold is one dollar's worth, shown as the balance is.
    expect(within(card).getByText('In quota units; $1.00 as your balance is shown.')).toBeTruthy();

    fireEvent.change(within(card).getByLabelText('Quota warning threshold'), {
      target: { value: '2000000' },
    });
    save(card);
    await waitFor(() => expect(settingPuts(calls)).toHaveLength(1));
    expect(settingPuts(calls)[0]).toEqual({
      notify_type: 'email',
      quota_warning_threshold: 2_000_000,
      webhook_url: '',
      webhook_secret: '',
      notification_email: '',
    });
    expect(await screen.findByText('notification settings saved')).toBeTruthy();
  });

  it('stops a webhook without its URL in the form, then sends URL and secret', async () => {
    const calls = serve(me);
    renderPage(<PersonalTab />, { path: '/setting' });
    const card = await notificationCard();
    fireEvent.click(within(card).getByRole('radio', { name: 'Webhook' }));
    const url = await within(card).findByLabelText('Webhook URL');
    save(card);
    expect(await within(card).findByText('please enter a webhook URL')).toBeTruthy();
    expect(settingPuts(calls)).toHaveLength(0);

    fireEvent.change(url, { target: { value: 'ftp://hooks.example.com' } });
    save(card);
    expect(
      await within(card).findByText('the webhook URL must be an http:// or https:// address'),
    ).toBeTruthy();
    expect(settingPuts(calls)).toHaveLength(0);

    fireEvent.change(url, { target: { value: 'https://hooks.example.com/quota' } });
    fireEvent.change(within(card).getByLabelText('Webhook secret'), { target: { value: 'hook-secret' } });
    save(card);
    await waitFor(() => expect(settingPuts(calls)).toHaveLength(1));
    expect(settingPuts(calls)[0]).toMatchObject({
      notify_type: 'webhook',
      webhook_url: 'https://hooks.example.com/quota',
      webhook_secret: 'hook-secret',
      quota_warning_threshold: 500_000,
    });
  });

  it('keeps the switches a classic console stored when it saves the warning settings', async () => {
    const stored = {
      notify_type: 'email',
      quota_warning_threshold: 1000,
      webhook_url: '',
      webhook_secret: '',
      notification_email: '',
      accept_unset_model_ratio_model: true,
      record_ip_log: false,
    };
    const calls = serve({ ...me, setting: JSON.stringify(stored) });
    renderPage(<PersonalTab />, { path: '/setting' });
    const card = await notificationCard();
    fireEvent.change(within(card).getByLabelText('Quota warning threshold'), { target: { value: '5000' } });
    save(card);
    await waitFor(() => expect(settingPuts(calls)).toHaveLength(1));
    // Saving here must not switch IP logging back on behind the user's back.
    expect(settingPuts(calls)[0]).toEqual({ ...stored, quota_warning_threshold: 5000 });
  });

  it('shows the stored settings, in Chinese too', async () => {
    serve({
      ...me,
      setting: JSON.stringify({
        notify_type: 'webhook',
        quota_warning_threshold: 1234,
        webhook_url: 'https://stored.example.com/hook',
        webhook_secret: '',
        notification_email: '',
      }),
    });
    await changeLanguage('zh-CN');
    renderPage(<PersonalTab />, { path: '/setting' });
    const heading = await screen.findByText('通知设置');
    const card = heading.closest('.ant-card') as HTMLElement;
    expect(checked(card, 'Webhook')).toBe(true);
    expect((within(card).getByLabelText('Webhook 地址') as HTMLInputElement).value).toBe(
      'https://stored.example.com/hook',
    );
    expect((within(card).getByLabelText('额度预警阈值') as HTMLInputElement).value).toBe('1234');
  });
});
