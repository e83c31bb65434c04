// The operation tab's general and rate-limit cards: the options the classic console also saves (docs
// link, demo site, self-use mode, the per-user request limit) are shown and saved as changed keys.
import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { OPTION_DEFS, OPTION_KEYS, isSecretOption } from '@sluice/shared';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage, loadSections } from '../../../i18n';
import { clearUser, setUser } from '../../../lib/session';
import { DEFAULT_STATUS } from '../../../lib/status';
import { failure, installFetch, ok } from '../../../test/fake-fetch';
import type { RecordedCall } from '../../../test/fake-fetch';
import { renderPage } from '../../../test/render';
import { OperationTab } from './site-tabs';

const defaults = (): Record<string, string> =>
  Object.fromEntries(
    OPTION_KEYS.filter((key) => !isSecretOption(key)).map((key) => [key, OPTION_DEFS[key].default]),
  );

function serve(stored: Record<string, string>, refuse: Record<string, string> = {}): RecordedCall[] {
  return installFetch({
    'GET /api/status': ok(DEFAULT_STATUS),
    'GET /api/option/': ok(Object.entries(stored).map(([key, value]) => ({ key, value }))),
    'PUT /api/option/': async (request) => {
      const { key } = (await request.json()) as { key: string };
      return refuse[key] ? failure(400, refuse[key]) : ok(null);
    },
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
const save = (scope: HTMLElement) =>
  fireEvent.click(within(scope).getByRole('button', { name: /Save|保存/ }));

// Whole pages of antd forms render slowly in happy-dom on a busy machine; the default waits are too tight.
vi.setConfig({ testTimeout: 30_000 });
configure({ asyncUtilTimeout: 5_000 });

beforeAll(() => loadSections());
beforeEach(() => {
  localStorage.clear();
  setUser({ id: 1, username: 'root', display_name: 'Root', role: 100, status: 1, group: 'default' });
});
afterEach(async () => {
  cleanup();
  clearUser();
  vi.unstubAllGlobals();
  await changeLanguage('en');
});

describe('general card', () => {
  it('shows the stored docs link and switches, and saves the ones changed', async () => {
    const calls = serve({ ...defaults(), DocsLink: 'https://docs.example.com', DemoSiteEnabled: 'true' });
    renderPage(<OperationTab />, { path: '/setting' });
    const general = await card('General');
    expect(within(general).getByLabelText('Documentation link')).toHaveProperty(
      'value',
      'https://docs.example.com',
    );
    expect(within(general).getByLabelText('Demo site mode').getAttribute('aria-checked')).toBe('true');
    const selfUse = within(general).getByLabelText('Self-use mode');
    expect(selfUse.getAttribute('aria-checked')).toBe('false');
    expect(within(general).getByText(/models without a ratio or price are served at no charge/)).toBeTruthy();

    type(general, 'Documentation link', 'https://help.example.org');
    fireEvent.click(selfUse);
    save(general);
    expect(await screen.findByText('save success')).toBeTruthy();
    expect(puts(calls)).toEqual([
      { key: 'DocsLink', value: 'https://help.example.org' },
      { key: 'SelfUseModeEnabled', value: 'true' },
    ]);
  });

  it("shows the server's reason beside a docs link it refused", async () => {
    serve(defaults(), { DocsLink: 'DocsLink: must be an http(s) address or empty' });
    renderPage(<OperationTab />, { path: '/setting' });
    const general = await card('General');
    type(general, 'Documentation link', 'docs.example.com');
    save(general);
    expect(await screen.findByText('save failed, please retry')).toBeTruthy();
    expect(within(general).getByText('DocsLink: must be an http(s) address or empty')).toBeTruthy();
  });
});

describe('request rate limit card', () => {
  it('saves the limit: numbers and the group table first, the switch last', async () => {
    const calls = serve(defaults());
    renderPage(<OperationTab />, { path: '/setting' });
    const limits = await card('Request rate limit');
    expect(within(limits).getByLabelText('Successful requests per window')).toHaveProperty('value', '1000');
    fireEvent.click(within(limits).getByLabelText('Limit the requests of each user'));
    type(limits, 'Window (minutes)', '5');
    type(limits, 'Requests per window, failed ones included', '300');
    type(limits, 'Successful requests per window', '100');
    type(limits, 'Limits per group', '{"vip": [0, 1000]}');
    save(limits);
    expect(await screen.findByText('save success')).toBeTruthy();
    expect(puts(calls)).toEqual([
      { key: 'ModelRequestRateLimitDurationMinutes', value: '5' },
      { key: 'ModelRequestRateLimitCount', value: '300' },
      { key: 'ModelRequestRateLimitSuccessCount', value: '100' },
      { key: 'ModelRequestRateLimitGroup', value: '{"vip":[0,1000]}' },
      { key: 'ModelRequestRateLimitEnabled', value: 'true' },
    ]);
  });

  it('refuses a group table of the wrong shape before sending anything', async () => {
    const calls = serve(defaults());
    renderPage(<OperationTab />, { path: '/setting' });
    const limits = await card('Request rate limit');
    type(limits, 'Limits per group', '{"vip": [10, 0]}');
    fireEvent.blur(within(limits).getByLabelText('Limits per group'));
    expect(await within(limits).findByText(/must be a JSON object of group → \[total requests/)).toBeTruthy();
    save(limits);
    expect(await screen.findByText('please check input')).toBeTruthy();
    expect(puts(calls)).toHaveLength(0);
  });

  it('will not go below one successful request per window', async () => {
    const calls = serve(defaults());
    renderPage(<OperationTab />, { path: '/setting' });
    const limits = await card('Request rate limit');
    const success = within(limits).getByLabelText('Successful requests per window');
    type(limits, 'Successful requests per window', '0');
    fireEvent.blur(success);
    await waitFor(() => expect(success).toHaveProperty('value', '1'));
    save(limits);
    await waitFor(() =>
      expect(puts(calls)).toEqual([{ key: 'ModelRequestRateLimitSuccessCount', value: '1' }]),
    );
  });

  it('is labelled in Chinese', async () => {
    serve(defaults());
    await changeLanguage('zh-CN');
    renderPage(<OperationTab />, { path: '/setting' });
    const limits = await card('请求速率限制');
    expect(within(limits).getByLabelText('每周期成功请求数')).toBeTruthy();
    const general = await card('通用设置');
    expect(within(general).getByLabelText('自用模式')).toBeTruthy();
    expect(within(general).getByLabelText('文档地址')).toBeTruthy();
  });
});

describe('monitoring card', () => {
  it('shows the disable keywords one per line and saves the edited list as typed', async () => {
    const calls = serve(defaults());
    renderPage(<OperationTab />, { path: '/setting' });
    const monitoring = await card('Monitoring');
    const keywords = within(monitoring).getByLabelText('Keywords that disable a channel');
    expect((keywords as HTMLTextAreaElement).value.split('\n')).toContain('Your credit balance is too low');
    type(monitoring, 'Keywords that disable a channel', 'Your credit balance is too low\nspend cap reached');
    save(monitoring);
    expect(await screen.findByText('save success')).toBeTruthy();
    expect(puts(calls)).toEqual([
      { key: 'AutomaticDisableKeywords', value: 'Your credit balance is too low\nspend cap reached' },
    ]);
  });
});
