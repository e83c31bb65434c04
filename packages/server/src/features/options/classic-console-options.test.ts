// The option keys the classic 2025 new-api console saves from its operation tab (and its rate-limit
// tab) are accepted, stored and read back as that console expects.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MSG, ROLE, optionListSchema } from '@sluice/shared';
import { testDialects } from '../../test-support/databases.js';
import { createTestApp, expectRefusal } from '../../test-support/test-app.js';
import type { Caller, TestApp } from '../../test-support/test-app.js';

/**
 * Every key of the classic operation tab, card by card, with a value as that console sends it
 * (switches as "true"/"false", number inputs as digits, JSON as typed in its text areas).
 */
const CLASSIC_OPERATION_TAB: Array<[string, string]> = [
  // General
  ['TopUpLink', 'https://shop.example.com/buy'],
  ['general_setting.docs_link', 'https://docs.example.com'],
  ['QuotaPerUnit', '500000'],
  ['USDExchangeRate', '7.1'],
  ['RetryTimes', '2'],
  ['DisplayInCurrencyEnabled', 'false'],
  ['DisplayTokenStatEnabled', 'false'],
  ['DefaultCollapseSidebar', 'true'],
  ['DemoSiteEnabled', 'true'],
  ['SelfUseModeEnabled', 'true'],
  // Drawing
  ['DrawingEnabled', 'false'],
  ['MjNotifyEnabled', 'true'],
  ['MjAccountFilterEnabled', 'true'],
  ['MjForwardUrlEnabled', 'false'],
  ['MjModeClearEnabled', 'true'],
  ['MjActionCheckSuccessEnabled', 'false'],
  // Sensitive words
  ['CheckSensitiveEnabled', 'true'],
  ['CheckSensitiveOnPromptEnabled', 'true'],
  ['SensitiveWords', 'first\nsecond'],
  // Logs
  ['LogConsumeEnabled', 'false'],
  // Data dashboard
  ['DataExportEnabled', 'false'],
  ['DataExportInterval', '10'],
  ['DataExportDefaultTime', 'day'],
  // Monitoring
  ['ChannelDisableThreshold', '8'],
  ['QuotaRemindThreshold', '2000'],
  ['AutomaticDisableChannelEnabled', 'true'],
  ['AutomaticEnableChannelEnabled', 'true'],
  ['AutomaticDisableKeywords', 'Your credit balance is too low\nThis organization has been disabled.'],
  // Quota
  ['QuotaForNewUser', '1000'],
  ['PreConsumedQuota', '600'],
  ['QuotaForInviter', '300'],
  ['QuotaForInvitee', '200'],
  // Chats
  ['Chats', '[{"Next Chat":"https://chat.example.com/#/?settings={\\"key\\":\\"{key}\\"}"}]'],
  // Group and model ratios (shown indented, sent as typed)
  ['GroupRatio', '{\n  "default": 1,\n  "vip": 0.8\n}'],
  ['UserUsableGroups', '{\n  "default": "Default",\n  "vip": "VIP"\n}'],
  ['ModelPrice', '{\n  "mj_imagine": 0.1\n}'],
  ['ModelRatio', '{\n  "gpt-4o": 1.25\n}'],
  ['CacheRatio', '{\n  "gpt-4o": 0.5\n}'],
  ['CreateCacheRatio', '{\n  "claude-sonnet-4-5": 1.25\n}'],
  ['CompletionRatio', '{\n  "gpt-4o": 4\n}'],
  // The rate-limit tab
  ['ModelRequestRateLimitEnabled', 'true'],
  ['ModelRequestRateLimitDurationMinutes', '3'],
  ['ModelRequestRateLimitCount', '100'],
  ['ModelRequestRateLimitSuccessCount', '50'],
  ['ModelRequestRateLimitGroup', '{\n  "default": [200, 100],\n  "vip": [0, 1000]\n}'],
];

describe.each(testDialects())('options of the classic console on %s', (dialect) => {
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

  const put = (key: string, value: unknown) =>
    t.call({ method: 'PUT', url: '/api/option/', payload: { key, value }, as: root });
  const listed = async (): Promise<Record<string, string>> => {
    const res = await t.call({ method: 'GET', url: '/api/option/', as: root });
    return Object.fromEntries(optionListSchema.parse(res.json().data).map((e) => [e.key, e.value]));
  };
  const status = async () => (await t.call({ method: 'GET', url: '/api/status' })).json().data;

  it('accepts every key the classic operation tab saves, and lists each back as saved', async () => {
    for (const [key, value] of CLASSIC_OPERATION_TAB) {
      const res = await put(key, value);
      expect(res.json(), `${key}=${value}`).toEqual({ success: true, message: '', data: null });
    }
    const options = await listed();
    for (const [key, value] of CLASSIC_OPERATION_TAB) expect(options[key], key).toBe(value);
  });

  it('keeps the docs link under both names and publishes it in /api/status', async () => {
    expect((await listed())['general_setting.docs_link']).toBe('');
    expect((await put('general_setting.docs_link', 'https://docs.example.com')).json().success).toBe(true);
    expect(await listed()).toMatchObject({
      DocsLink: 'https://docs.example.com',
      'general_setting.docs_link': 'https://docs.example.com',
    });
    expect((await status()).docs_link).toBe('https://docs.example.com');

    expect((await put('DocsLink', 'https://help.example.org/start')).json().success).toBe(true);
    expect((await listed())['general_setting.docs_link']).toBe('https://help.example.org/start');
    expect((await put('DocsLink', '')).json().success).toBe(true);
    expect((await status()).docs_link).toBe('');
  });

  it('refuses a docs link that is not an http(s) address, naming the key it was sent under', async () => {
    expectRefusal(
      await put('general_setting.docs_link', 'docs.example.com'),
      'general_setting.docs_link: must be an http(s) address or empty',
    );
    expectRefusal(
      await put('DocsLink', 'javascript:alert(1)'),
      'DocsLink: must be an http(s) address or empty',
    );
    expect((await status()).docs_link).toBe('');
  });

  it('publishes the demo site, self-use and exchange rate settings in /api/status', async () => {
    expect(await status()).toMatchObject({
      demo_site_enabled: false,
      self_use_mode_enabled: false,
      usd_exchange_rate: 7.3,
    });
    await put('DemoSiteEnabled', 'true');
    await put('SelfUseModeEnabled', true);
    await put('USDExchangeRate', '7.25');
    expect(await status()).toMatchObject({
      demo_site_enabled: true,
      self_use_mode_enabled: true,
      usd_exchange_rate: 7.25,
    });
    expectRefusal(await put('USDExchangeRate', '0'), 'USDExchangeRate: must be greater than 0');
  });

  it.each([
    ['ModelRequestRateLimitDurationMinutes', '0', 'ModelRequestRateLimitDurationMinutes: must be at least 1'],
    ['ModelRequestRateLimitCount', '-1', 'ModelRequestRateLimitCount: must be at least 0'],
    ['ModelRequestRateLimitSuccessCount', '0', 'ModelRequestRateLimitSuccessCount: must be at least 1'],
    ['ModelRequestRateLimitSuccessCount', '2.5', 'ModelRequestRateLimitSuccessCount: must be an integer'],
    ['ModelRequestRateLimitEnabled', 'on', 'ModelRequestRateLimitEnabled: must be true or false'],
  ])('refuses %s = %s', async (key, value, message) => {
    expectRefusal(await put(key, value), message);
  });

  it('refuses a per-group rate limit table of the wrong shape and keeps the old one', async () => {
    expect((await put('ModelRequestRateLimitGroup', '{"vip":[10,5]}')).json().success).toBe(true);
    expectRefusal(await put('ModelRequestRateLimitGroup', '{"vip":[10,'), MSG.notValidJson);
    for (const value of ['{"vip":[10]}', '{"vip":[10,0]}', '{"vip":[-1,5]}', '{"vip":"10,5"}', '[[10,5]]']) {
      const res = await put('ModelRequestRateLimitGroup', value);
      expectRefusal(res, /^ModelRequestRateLimitGroup: must be a JSON object of group → \[total requests/);
    }
    expect((await listed()).ModelRequestRateLimitGroup).toBe('{"vip":[10,5]}');
  });

  it('lists the default disable keywords one per line, as the monitoring card shows them', async () => {
    const keywords = (await listed()).AutomaticDisableKeywords?.split('\n') ?? [];
    expect(keywords).toEqual(expect.arrayContaining(['Your credit balance is too low', 'Permission denied']));
    expect(keywords.every((k) => k.trim() === k && k !== '')).toBe(true);
  });

  it('still refuses keys it does not know, including look-alikes of the aliases', async () => {
    for (const key of [
      'general_setting.nothing',
      'general_setting',
      'constructor',
      '__proto__',
      'docs_link',
    ]) {
      expectRefusal(await put(key, 'x'), MSG.unknownOption(key));
    }
  });
});
