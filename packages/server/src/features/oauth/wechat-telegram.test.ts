import { MSG } from '@sluice/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../test-support/databases.js';
import { createTestApp, expectRefusal } from '../../test-support/test-app.js';
import type { Caller, TestApp } from '../../test-support/test-app.js';
import { guardedCall, manualClock, setOptions } from '../../test-support/fakes/app-helpers.js';
import { signTelegramLogin } from '../../test-support/fakes/telegram.js';
import type { TelegramUser } from '../../test-support/fakes/telegram.js';
import { startFakeWeChat } from '../../test-support/fakes/wechat.js';
import type { FakeWeChat } from '../../test-support/fakes/wechat.js';

const WECHAT_TOKEN = 'wechat-server-token-never-shown';
const BOT_TOKEN = '777000:telegram-bot-token-never-shown';

describe.each(testDialects())('WeChat and Telegram sign-in on %s', (dialect) => {
  let t: TestApp;
  let wechat: FakeWeChat;
  let call: ReturnType<typeof guardedCall>;
  const clock = manualClock();
  let n = 0;

  const userRow = (id: number) =>
    t.db.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    wechat = await startFakeWeChat({ token: WECHAT_TOKEN });
    t = await createTestApp({ dialect, clock });
    call = guardedCall(t, [WECHAT_TOKEN, BOT_TOKEN]);
    await setOptions(t, {
      WeChatServerAddress: `${wechat.url}/`,
      WeChatServerToken: WECHAT_TOKEN,
      WeChatAuthEnabled: 'true',
      TelegramBotToken: BOT_TOKEN,
      TelegramBotName: 'sluice_bot',
      TelegramOAuthEnabled: 'true',
    });
  });
  afterAll(async () => {
    await t?.close();
    await wechat?.close();
  });

  describe('WeChat', () => {
    const login = (code: string, aff = '') =>
      call({ method: 'GET', url: `/api/oauth/wechat?code=${code}${aff ? `&aff=${aff}` : ''}` });
    const bind = (code: string, as: Caller) =>
      call({ method: 'GET', url: `/api/oauth/wechat/bind?code=${code}`, as });

    it('creates the account for a new openid, then signs in to it with the next code', async () => {
      const inviter = await t.createUser();
      const openid = `o-openid-${++n}`;
      const first = await login(wechat.issueCode(openid), (await userRow(inviter.id)).aff_code);
      expect(first.statusCode).toBe(200);
      expect(first.json().data.username).toMatch(/^wechat_\d+$/);
      expect(first.json().data.display_name).toBe('WeChat User');
      const row = await userRow(first.json().data.id);
      expect(row.wechat_id).toBe(openid);
      expect(row.inviter_id).toBe(inviter.id);
      expect(wechat.requests.at(-1)?.headers.authorization).toBe(WECHAT_TOKEN);

      const again = await login(wechat.issueCode(openid));
      expect(again.json().data.id).toBe(first.json().data.id);
    });

    it('refuses a code the WeChat server does not know, or one already used', async () => {
      const unknown = await login('000000');
      expectRefusal(unknown);
      expect(unknown.json().message).toBe(MSG.wechatCodeInvalid);
      const code = wechat.issueCode(`o-openid-${++n}`);
      expect((await login(code)).statusCode).toBe(200);
      expect((await login(code)).json().message).toBe(MSG.wechatCodeInvalid);
    });

    it('binds WeChat to the signed-in user and refuses an openid another user holds', async () => {
      const user = await t.createUser();
      const other = await t.createUser();
      const openid = `o-openid-${++n}`;
      const res = await bind(wechat.issueCode(openid), user);
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBe(MSG.bindSuccess);
      expect((await userRow(user.id)).wechat_id).toBe(openid);
      expect((await login(wechat.issueCode(openid))).json().data.id).toBe(user.id);

      const taken = await bind(wechat.issueCode(openid), other);
      expectRefusal(taken);
      expect(taken.json().message).toBe(MSG.oauthAccountBound('WeChat'));
      expect((await userRow(other.id)).wechat_id).toBe('');

      expect(
        (await call({ method: 'GET', url: `/api/oauth/wechat/bind?code=${wechat.issueCode('x')}` }))
          .statusCode,
      ).toBe(401);
    });

    it('is refused while switched off, and answers 502 when the WeChat server refuses the token', async () => {
      await setOptions(t, { WeChatAuthEnabled: 'false' });
      try {
        const off = await login(wechat.issueCode(`o-openid-${++n}`));
        expectRefusal(off);
        expect(off.json().message).toBe(MSG.oauthNotEnabled('WeChat'));
      } finally {
        await setOptions(t, { WeChatAuthEnabled: 'true' });
      }
      await setOptions(t, { WeChatServerToken: 'wrong-token' });
      try {
        const res = await login(wechat.issueCode(`o-openid-${++n}`));
        expectRefusal(res);
        expect(res.json().message).toBe(MSG.oauthUpstreamFailed('WeChat'));
      } finally {
        await setOptions(t, { WeChatServerToken: WECHAT_TOKEN });
      }
    });
  });

  describe('Telegram', () => {
    const query = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
    const signed = (user: TelegramUser, age = 60) => signTelegramLogin(BOT_TOKEN, user, clock.now() - age);
    const login = (fields: Record<string, string>) =>
      call({ method: 'GET', url: `/api/oauth/telegram/login?${query(fields)}` });
    const bind = (fields: Record<string, string>, as: Caller) =>
      call({ method: 'GET', url: `/api/oauth/telegram/bind?${query(fields)}`, as });
    const countUsers = async () =>
      Number(
        (
          await t.db.db
            .selectFrom('users')
            .select((eb) => eb.fn.countAll().as('c'))
            .executeTakeFirstOrThrow()
        ).c,
      );

    it('signs up with correctly signed widget data (the console adds lang), then signs in again', async () => {
      const id = 880000 + ++n;
      const user = {
        id,
        first_name: 'Ada',
        last_name: 'Lovelace',
        username: `ada_${n}`,
        photo_url: 'https://t.me/a.jpg',
      };
      const first = await login({ ...signed(user), lang: 'en' });
      expect(first.statusCode).toBe(200);
      expect(first.json().data).toMatchObject({ username: `ada_${n}`, display_name: 'Ada Lovelace' });
      expect((await userRow(first.json().data.id)).telegram_id).toBe(String(id));

      const again = await login(signed(user, 10));
      expect(again.json().data.id).toBe(first.json().data.id);
    });

    it('refuses tampered data and data signed more than a day ago', async () => {
      const users = await countUsers();
      const data = signed({ id: 880000 + ++n, first_name: 'Eve' });
      const tampered = await login({ ...data, id: String(Number(data.id) + 1) });
      expectRefusal(tampered);
      expect(tampered.json().message).toBe(MSG.telegramAuthInvalid);
      expectRefusal(await login({ ...data, first_name: 'Mallory' }));
      expectRefusal(await login(signTelegramLogin('1:another-bot', { id: 880000 + ++n }, clock.now())));

      const old = await login(signed({ id: 880000 + ++n, first_name: 'Old' }, 24 * 3600 + 1));
      expectRefusal(old);
      expect(old.json().message).toBe(MSG.telegramAuthInvalid);
      expect(await countUsers()).toBe(users);
    });

    it('binds to the signed-in user and refuses an account another user holds', async () => {
      const user = await t.createUser();
      const other = await t.createUser();
      const tg = { id: 880000 + ++n, first_name: 'Bound' };
      const res = await bind(signed(tg), user);
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBe(MSG.bindSuccess);
      expect((await userRow(user.id)).telegram_id).toBe(String(tg.id));
      expect((await login(signed(tg))).json().data.id).toBe(user.id);

      const taken = await bind(signed(tg), other);
      expectRefusal(taken);
      expect(taken.json().message).toBe(MSG.oauthAccountBound('Telegram'));
      expectRefusal(await bind({ ...signed({ id: 880000 + ++n }), hash: '0'.repeat(64) }, other));
    });

    it('is refused while switched off or without a bot token', async () => {
      await setOptions(t, { TelegramOAuthEnabled: 'false' });
      try {
        const off = await login(signed({ id: 880000 + ++n }));
        expectRefusal(off);
        expect(off.json().message).toBe(MSG.oauthNotEnabled('Telegram'));
      } finally {
        await setOptions(t, { TelegramOAuthEnabled: 'true' });
      }
      // With an empty token anyone could compute the signature.
      await setOptions(t, { TelegramBotToken: '' });
      try {
        const forged = await login(signTelegramLogin('', { id: 880000 + ++n }, clock.now()));
        expectRefusal(forged);
      } finally {
        await setOptions(t, { TelegramBotToken: BOT_TOKEN });
      }
    });
  });
});
