import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ROLE, publicStatusSchema } from '@sluice/shared';
import type { OptionKey } from '@sluice/shared';
import { testDialects } from '../../test-support/databases.js';
import { createTestApp } from '../../test-support/test-app.js';
import type { Caller, TestApp } from '../../test-support/test-app.js';

// Spec part 1 §3 "Public status object" and part 2 §3 "Platform status kept locally".
const SPEC_FIELDS = [
  'system_name',
  'logo',
  'footer_html',
  'quota_per_unit',
  'display_in_currency',
  'enable_drawing',
  'enable_task',
  'enable_data_export',
  'chats',
  'data_export_default_time',
  'default_collapse_sidebar',
  'mj_notify_enabled',
  'chat_link',
  'chat_link2',
  'email_verification',
  'turnstile_check',
  'turnstile_site_key',
  'github_oauth',
  'github_client_id',
  'linuxdo_oauth',
  'linuxdo_client_id',
  'wechat_login',
  'wechat_qrcode',
  'telegram_oauth',
  'telegram_bot_name',
  'server_address',
  'top_up_link',
  'min_topup',
  'enable_online_topup',
];

describe.each(testDialects())('site status on %s', (dialect) => {
  let t: TestApp;
  let root: Caller;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    root = await t.createUser({ role: ROLE.root });
  });
  afterAll(async () => t?.close());
  beforeEach(async () => {
    await t.db.db.deleteFrom('options').execute();
    await t.app.ctx.options.reload();
  });

  const getStatus = async () => {
    const res = await t.call({ method: 'GET', url: '/api/status' });
    expect(res.statusCode).toBe(200);
    expect(res.json().success).toBe(true);
    return publicStatusSchema.strict().parse(res.json().data);
  };
  const put = async (key: OptionKey, value: string) => {
    const res = await t.call({ method: 'PUT', url: '/api/option/', payload: { key, value }, as: root });
    expect(res.json(), key).toMatchObject({ success: true });
  };

  it('carries every field of the spec with its type, for visitors', async () => {
    const status = await getStatus();
    expect(Object.keys(status)).toEqual(expect.arrayContaining(SPEC_FIELDS));
    expect(status).toMatchObject({
      system_name: 'Sluice',
      quota_per_unit: 500000,
      min_topup: 1,
      price: 7.3,
      display_in_currency: true,
      data_export_default_time: 'hour',
      data_export_interval: 5,
      enable_online_topup: false,
      github_oauth: false,
      turnstile_check: false,
      password_login: true,
      register_enabled: true,
      docs_link: '',
      demo_site_enabled: false,
      self_use_mode_enabled: false,
      usd_exchange_rate: 7.3,
    });
    expect(status.chats.length).toBeGreaterThan(0);
  });

  it('follows the options the super admin sets', async () => {
    await put('ServerAddress', 'https://gw.example');
    await put('TopUpLink', 'https://shop.example/topup');
    await put('MinTopUp', '5');
    await put('Footer', '<b>footer</b>');
    await put('Logo', 'https://cdn.example/logo.svg');
    await put('ChatLink', 'https://chat.example');
    await put('ChatLink2', 'https://chat2.example');
    await put('DefaultCollapseSidebar', 'true');
    await put('MjNotifyEnabled', 'true');
    await put('DataExportEnabled', 'false');
    await put('TaskEnabled', 'false');
    await put('WeChatAccountQRCodeImageURL', 'https://cdn.example/qr.png');
    await put('TelegramBotName', 'sluice_bot');
    await put('GitHubClientId', 'gh-client-id');
    await put('LinuxDOClientId', 'ld-client-id');
    await put('TurnstileSiteKey', 'site-key');
    await put('DisplayInCurrencyEnabled', 'false');
    await put('DocsLink', 'https://docs.gw.example');
    await put('DemoSiteEnabled', 'true');
    await put('SelfUseModeEnabled', 'true');
    await put('USDExchangeRate', '7.05');
    expect(await getStatus()).toMatchObject({
      server_address: 'https://gw.example',
      top_up_link: 'https://shop.example/topup',
      min_topup: 5,
      footer_html: '<b>footer</b>',
      logo: 'https://cdn.example/logo.svg',
      chat_link: 'https://chat.example',
      chat_link2: 'https://chat2.example',
      default_collapse_sidebar: true,
      mj_notify_enabled: true,
      enable_data_export: false,
      enable_task: false,
      wechat_qrcode: 'https://cdn.example/qr.png',
      telegram_bot_name: 'sluice_bot',
      github_client_id: 'gh-client-id',
      linuxdo_client_id: 'ld-client-id',
      turnstile_site_key: 'site-key',
      display_in_currency: false,
      docs_link: 'https://docs.gw.example',
      demo_site_enabled: true,
      self_use_mode_enabled: true,
      usd_exchange_rate: 7.05,
    });
  });

  it('never shows secrets', async () => {
    await put('ServerAddress', 'https://gw.example');
    await put('EpayKey', 'epay-secret-123');
    await put('TurnstileSecretKey', 'turnstile-secret-456');
    await put('GitHubClientSecret', 'github-secret-789');
    const res = await t.call({ method: 'GET', url: '/api/status' });
    for (const secret of ['epay-secret-123', 'turnstile-secret-456', 'github-secret-789'])
      expect(res.body).not.toContain(secret);
  });

  it('serves the notice, about and home page texts', async () => {
    await put('Notice', 'notice text');
    await put('About', '# About us');
    await put('HomePageContent', 'https://home.example');
    const text = async (url: string) => (await t.call({ method: 'GET', url })).json().data;
    expect(await text('/api/notice')).toBe('notice text');
    expect(await text('/api/about')).toBe('# About us');
    expect(await text('/api/home_page_content')).toBe('https://home.example');
  });
});
