import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_COMPLETION_RATIO,
  DEFAULT_MODEL_RATIO,
  MSG,
  OPTION_ALIASES,
  OPTION_DEFS,
  OPTION_KEYS,
  ROLE,
  isSecretOption,
  optionListSchema,
} from '@sluice/shared';
import type { OptionEntry, OptionKey } from '@sluice/shared';
import type { CacheBus } from '../../platform/cache-bus.js';
import { testDialects } from '../../test-support/databases.js';
import { createTestApp, expectRefusal } from '../../test-support/test-app.js';
import type { Caller, TestApp } from '../../test-support/test-app.js';

describe.each(testDialects())('options API on %s', (dialect) => {
  let t: TestApp;
  let root: Caller;
  let admin: Caller;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    root = await t.createUser({ role: ROLE.root });
    admin = await t.createUser({ role: ROLE.admin });
  });
  afterAll(async () => t?.close());
  beforeEach(async () => {
    await t.db.db.deleteFrom('options').execute();
    await t.app.ctx.options.reload();
  });

  const put = (key: string, value: unknown, as: Caller = root) =>
    t.call({ method: 'PUT', url: '/api/option/', payload: { key, value }, as });
  const putOk = async (key: string, value: unknown) => {
    const res = await put(key, value);
    expect(res.json(), `${key}=${String(value)}`).toMatchObject({ success: true });
  };
  const list = async (): Promise<OptionEntry[]> => {
    const res = await t.call({ method: 'GET', url: '/api/option/', as: root });
    expect(res.statusCode).toBe(200);
    return optionListSchema.parse(res.json().data);
  };
  const listed = async (key: OptionKey) => (await list()).find((e) => e.key === key)?.value;
  const status = async () => (await t.call({ method: 'GET', url: '/api/status' })).json().data;
  const stored = async (key: string) =>
    (await t.db.db.selectFrom('options').select('value').where('key', '=', key).executeTakeFirst())?.value;

  describe('GET /api/option/', () => {
    it('lists every non-secret key with its default when nothing is stored', async () => {
      const entries = await list();
      const expected = OPTION_KEYS.filter((k) => !isSecretOption(k)).map((k) => ({
        key: k,
        value: OPTION_DEFS[k].default,
      }));
      // Then the other names some consoles use, each with the value of the option it names.
      const aliases = Object.entries(OPTION_ALIASES).map(([alias, k]) => ({
        key: alias,
        value: OPTION_DEFS[k].default,
      }));
      expect(entries).toEqual([...expected, ...aliases]);
    });

    it('shows stored values', async () => {
      await putOk('SystemName', 'My Gateway');
      expect(await listed('SystemName')).toBe('My Gateway');
    });

    it('never returns a secret, not even its key', async () => {
      await putOk('GitHubClientSecret', 'gh-secret-value-1234');
      await putOk('SMTPToken', 'smtp-token-value-5678');
      const res = await t.call({ method: 'GET', url: '/api/option/', as: root });
      expect(res.body).not.toContain('gh-secret-value-1234');
      expect(res.body).not.toContain('smtp-token-value-5678');
      const keys = optionListSchema.parse(res.json().data).map((e) => e.key);
      expect(keys).not.toContain('GitHubClientSecret');
      expect(keys.filter((k) => /(Secret|Token)$|^EpayKey$|^WorkerValidKey$/.test(k))).toEqual([]);
    });

    it('is for super admins only', async () => {
      expectRefusal(await t.call({ method: 'GET', url: '/api/option/', as: admin }));
      expect((await t.call({ method: 'GET', url: '/api/option/' })).statusCode).toBe(401);
    });
  });

  describe('PUT /api/option/', () => {
    it('stores a string and answers success', async () => {
      const res = await put('Notice', 'Maintenance tonight');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, message: '', data: null });
      expect(await stored('Notice')).toBe('Maintenance tonight');
      expect((await t.call({ method: 'GET', url: '/api/notice' })).json().data).toBe('Maintenance tonight');
    });

    it('accepts booleans and numbers and stores their string form', async () => {
      await putOk('DrawingEnabled', false);
      await putOk('QuotaForNewUser', 2500);
      await putOk('Price', ' 7.50 ');
      expect(await stored('DrawingEnabled')).toBe('false');
      expect(await stored('QuotaForNewUser')).toBe('2500');
      expect(await stored('Price')).toBe('7.5');
      expect(await listed('Price')).toBe('7.5');
      expect((await status()).enable_drawing).toBe(false);
    });

    it('takes effect at once: /api/status shows the change on the next request', async () => {
      await putOk('SystemName', 'Renamed');
      await putOk('QuotaPerUnit', '1000000');
      await putOk('DataExportDefaultTime', 'week');
      await putOk('Chats', '[{"Chat":"https://chat.example/?key={key}"}]');
      expect(await status()).toMatchObject({
        system_name: 'Renamed',
        quota_per_unit: 1000000,
        data_export_default_time: 'week',
        chats: [{ Chat: 'https://chat.example/?key={key}' }],
      });
    });

    it('takes effect at once on the saving node even when the cluster bus delivers late', async () => {
      // A Redis bus delivers the node's own invalidation after a round trip; until then only the
      // save itself can refresh this node's copy.
      const quietBus: CacheBus = { publish: () => {}, subscribe: () => () => {}, close: async () => {} };
      const other = await createTestApp({ dialect, bus: quietBus });
      try {
        const superAdmin = await other.createUser({ role: ROLE.root });
        const res = await other.call({
          method: 'PUT',
          url: '/api/option/',
          payload: { key: 'SystemName', value: 'Cluster Node' },
          as: superAdmin,
        });
        expect(res.statusCode).toBe(200);
        const after = await other.call({ method: 'GET', url: '/api/status' });
        expect(after.json().data.system_name).toBe('Cluster Node');
      } finally {
        await other.close();
      }
    });

    it('refuses an unknown key', async () => {
      const res = await put('NoSuchOption', 'x');
      expectRefusal(res);
      expect(res.json()).toMatchObject({ success: false, message: MSG.unknownOption('NoSuchOption') });
    });

    it('refuses a missing or non-scalar value', async () => {
      for (const value of [undefined, null, { a: 1 }, ['x']]) {
        const res = await put('Notice', value);
        expectRefusal(res);
      }
      expectRefusal(await t.call({ method: 'PUT', url: '/api/option/', payload: { value: 'x' }, as: root }));
    });

    it.each(['ModelPrice', 'ModelRatio', 'CompletionRatio', 'GroupRatio', 'UserUsableGroups', 'Chats'])(
      'refuses invalid JSON in %s with the spec message and keeps the old value',
      async (key) => {
        const res = await put(key, '{"gpt-4o": 1,');
        expectRefusal(res);
        expect(res.json().message).toBe(MSG.notValidJson);
        expect(await stored(key)).toBeUndefined();
        expect(await listed(key as OptionKey)).toBe(OPTION_DEFS[key as OptionKey].default);
      },
    );

    it('refuses a JSON value of the wrong shape, naming the key', async () => {
      const res = await put('ModelRatio', '{"gpt-4o": -1}');
      expectRefusal(res);
      expect(res.json().message).toBe('ModelRatio: values must not be negative');
      expectRefusal(await put('Chats', '{"not":"an array"}'));
    });

    it('refuses an invalid TopupGroupRatio with its own message', async () => {
      for (const value of ['vip=2', '{"vip": "two"}']) {
        const res = await put('TopupGroupRatio', value);
        expectRefusal(res);
        expect(res.json().message).toBe(MSG.topupGroupRatioInvalid);
      }
      await putOk('TopupGroupRatio', '{"default":1,"vip":0.9}');
    });

    it.each([
      ['MinTopUp', '0', 'MinTopUp: must be at least 1'],
      ['DataExportInterval', '0', 'DataExportInterval: must be at least 1'],
      ['QuotaForNewUser', '-1', 'QuotaForNewUser: must be at least 0'],
      ['Price', '-1', 'Price: must be at least 0'],
      ['RetryTimes', 'three', 'RetryTimes: must be a number'],
      ['PreConsumedQuota', '1.5', 'PreConsumedQuota: must be an integer'],
      ['DrawingEnabled', 'yes', 'DrawingEnabled: must be true or false'],
      ['DataExportDefaultTime', 'month', 'DataExportDefaultTime: must be hour, day or week'],
    ])('refuses %s = %s', async (key, value, message) => {
      const res = await put(key, value);
      expectRefusal(res);
      expect(res.json()).toMatchObject({ success: false, message });
    });

    it('accepts the smallest allowed numbers', async () => {
      await putOk('MinTopUp', 1);
      await putOk('DataExportInterval', '1');
      await putOk('QuotaForNewUser', '0');
      expect((await status()).min_topup).toBe(1);
    });

    it('lets a secret be cleared', async () => {
      await putOk('SMTPToken', 'abc');
      await putOk('SMTPToken', '');
      expect(await stored('SMTPToken')).toBe('');
    });

    it('is for super admins only', async () => {
      const res = await put('SystemName', 'Hijacked', admin);
      expectRefusal(res);
      expect(await stored('SystemName')).toBeUndefined();
    });
  });

  describe('rules across keys', () => {
    const cases: Array<{
      flag: OptionKey;
      needs: Array<[OptionKey, string]>;
      message: string;
      shows?: string;
    }> = [
      {
        flag: 'GitHubOAuthEnabled',
        needs: [
          ['GitHubClientId', 'gh-client'],
          ['GitHubClientSecret', 'gh-secret'],
        ],
        message: MSG.oauthNeedsClientId('GitHub'),
        shows: 'github_oauth',
      },
      {
        flag: 'LinuxDOOAuthEnabled',
        needs: [
          ['LinuxDOClientId', 'ld-client'],
          ['LinuxDOClientSecret', 'ld-secret'],
        ],
        message: MSG.oauthNeedsClientId('LinuxDO'),
        shows: 'linuxdo_oauth',
      },
      {
        flag: 'WeChatAuthEnabled',
        needs: [['WeChatServerAddress', 'https://wechat.example']],
        message: MSG.wechatNeedsServer,
        shows: 'wechat_login',
      },
      {
        flag: 'TelegramOAuthEnabled',
        needs: [
          ['TelegramBotToken', '123:abc'],
          ['TelegramBotName', 'sluice_bot'],
        ],
        message: MSG.telegramNeedsBot,
        shows: 'telegram_oauth',
      },
      {
        flag: 'TurnstileCheckEnabled',
        needs: [
          ['TurnstileSiteKey', 'site-key'],
          ['TurnstileSecretKey', 'secret-key'],
        ],
        message: MSG.turnstileNeedsKeys,
        shows: 'turnstile_check',
      },
      {
        flag: 'EmailVerificationEnabled',
        needs: [['SMTPServer', 'smtp.example']],
        message: MSG.emailVerificationNeedsSmtp,
        shows: 'email_verification',
      },
    ];

    it.each(cases)('$flag needs its settings filled in first', async ({ flag, needs, message, shows }) => {
      // Each prerequisite missing in turn (the others filled) is refused.
      for (const [missing] of needs) {
        await t.db.db.deleteFrom('options').execute();
        for (const [key, value] of needs) if (key !== missing) await putOk(key, value);
        const res = await put(flag, 'true');
        expectRefusal(res);
        expect(res.json().message).toBe(message);
        expect(await stored(flag)).toBeUndefined();
      }
      for (const [key, value] of needs) await putOk(key, value);
      await putOk(flag, true);
      if (shows) expect((await status())[shows]).toBe(true);
      // Switching off never needs anything.
      for (const [key] of needs) await putOk(key, '');
      await putOk(flag, 'false');
    });

    it('payment settings need the server address first', async () => {
      const res = await put('PayAddress', 'https://pay.example');
      expectRefusal(res);
      expect(res.json().message).toBe(MSG.fillServerAddressFirst);
      expect((await put('EpayKey', 'k')).json().message).toBe(MSG.fillServerAddressFirst);
      await putOk('PayAddress', '');
      await putOk('ServerAddress', 'https://gateway.example');
      await putOk('PayAddress', 'https://pay.example');
      await putOk('EpayId', '1001');
      expect((await status()).enable_online_topup).toBe(false);
      await putOk('EpayKey', 'epay-key');
      expect(await status()).toMatchObject({
        enable_online_topup: true,
        server_address: 'https://gateway.example',
      });
    });

    it('GroupRatio must keep the default group', async () => {
      const res = await put('GroupRatio', '{"vip":1}');
      expectRefusal(res);
      expect(res.json().message).toBe(MSG.groupRatioNeedsDefault);
      await putOk('GroupRatio', '{"default":1,"pro":0.8}');
    });
  });

  describe('POST /api/option/rest_model_ratio', () => {
    it('puts the model and completion ratios back to the defaults', async () => {
      await putOk('ModelRatio', '{"my-model":3}');
      await putOk('CompletionRatio', '{"my-model":2}');
      const res = await t.call({ method: 'POST', url: '/api/option/rest_model_ratio', as: root });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ success: true, message: MSG.modelRatiosReset });
      expect(JSON.parse((await listed('ModelRatio')) ?? '')).toEqual(DEFAULT_MODEL_RATIO);
      expect(JSON.parse((await listed('CompletionRatio')) ?? '')).toEqual(DEFAULT_COMPLETION_RATIO);
      expect(t.app.ctx.options.get('ModelRatio')['my-model']).toBeUndefined();
    });

    it('is for super admins only', async () => {
      await putOk('ModelRatio', '{"my-model":3}');
      const res = await t.call({ method: 'POST', url: '/api/option/rest_model_ratio', as: admin });
      expectRefusal(res);
      expect(await listed('ModelRatio')).toBe('{"my-model":3}');
    });
  });

  describe('GET /api/group/', () => {
    it('lists the groups that have a ratio, for admins', async () => {
      const res = await t.call({ method: 'GET', url: '/api/group/', as: admin });
      expect(res.json()).toEqual({ success: true, message: '', data: ['default', 'vip', 'svip'] });
      await putOk('GroupRatio', '{"default":1,"partner":0.5}');
      expect((await t.call({ method: 'GET', url: '/api/group/', as: admin })).json().data).toEqual([
        'default',
        'partner',
      ]);
    });

    it('is refused to regular users', async () => {
      const user = await t.createUser();
      expectRefusal(await t.call({ method: 'GET', url: '/api/group/', as: user }));
    });
  });
});
