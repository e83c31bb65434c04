// Hostile input on every database: NUL bytes, text longer than its column and ids written in any
// form but plain decimal digits are refused as the console API refuses (HTTP 200, success false)
// and nothing is stored; the relay answers 400 for such model names and never trips over a model
// called like a member of Object.prototype.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockUpstream } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { MSG, ROLE, TOKEN_NAME_MAX, emailTooLong } from '@sluice/shared';
import { testDialects } from '../test-support/databases.js';
import { addChannel, addToken, setOptions } from '../test-support/relay-kit.js';
import type { TestToken } from '../test-support/relay-kit.js';
import { createTestApp, expectRefusal } from '../test-support/test-app.js';
import type { Caller, TestApp } from '../test-support/test-app.js';

const NUL = '\u0000';
const MALFORMED_IDS = ['0x1', '1.0', '1e0', ' 1', '+1'];
const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString'];

/** `id` written in the malformed `form` (0x1, 1e0, …) so that Number() would read it as `id`. */
const spell = (form: string, id: number): string =>
  form === '0x1' ? `0x${id.toString(16)}` : form.replace('1', String(id));
const inPath = (form: string, id: number): string => encodeURIComponent(spell(form, id));

describe.each(testDialects())('hostile input on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let root: Caller;
  let token: TestToken;

  beforeAll(async () => {
    mock = await startMockUpstream();
    t = await createTestApp({ dialect });
    root = await t.createUser({ role: ROLE.root, quota: 500_000_000 });
    token = await addToken(t, root.id, { remain_quota: 500_000_000 });
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  const countRows = async (
    table: 'users' | 'tokens' | 'channels',
    column: 'username' | 'name',
    value: string,
  ) => (await t.db.db.selectFrom(table).select('id').where(column, '=', value).execute()).length;

  describe('a NUL byte', () => {
    it('in the login name is refused, not a server error', async () => {
      const res = await t.call({
        method: 'POST',
        url: '/api/user/login',
        payload: { username: `root${NUL}`, password: 'whatever1' },
      });
      expectRefusal(res, MSG.nulByteInInput('username'));
    });

    it('in a registration is refused and creates no account', async () => {
      const res = await t.call({
        method: 'POST',
        url: '/api/user/register',
        payload: { username: `nul${NUL}user`, password: 'password123', password2: 'password123' },
      });
      expectRefusal(res, MSG.nulByteInInput('username'));
      expect(await countRows('users', 'username', 'nuluser')).toBe(0);
    });

    it('in a token name or a channel name is refused and nothing is stored', async () => {
      expectRefusal(
        await t.call({ method: 'POST', url: '/api/token/', as: root, payload: { name: `tok${NUL}en` } }),
        MSG.nulByteInInput('name'),
      );
      expectRefusal(
        await t.call({
          method: 'POST',
          url: '/api/channel/',
          as: root,
          payload: { name: `chan${NUL}nel`, type: 1, key: 'sk-x', models: 'm', group: 'default' },
        }),
        MSG.nulByteInInput('name'),
      );
      expect(await countRows('tokens', 'name', 'token')).toBe(0);
      expect(await countRows('channels', 'name', 'channel')).toBe(0);
    });

    it('in a query string is refused on routes that read their input themselves', async () => {
      const res = await t.call({
        method: 'GET',
        url: '/api/oauth/telegram/login?id=1%00&first_name=x&auth_date=1&hash=00',
      });
      expectRefusal(res, MSG.nulByteInInput('id'));
    });
  });

  describe('text longer than its column', () => {
    const long = 'n'.repeat(20_000);

    it('is refused as a channel name, and no channel is stored', async () => {
      const res = await t.call({
        method: 'POST',
        url: '/api/channel/',
        as: root,
        payload: { name: long, type: 1, key: 'sk-x', models: 'm', group: 'default' },
      });
      expectRefusal(res, 'name must be at most 255 characters');
      expect(await countRows('channels', 'name', long)).toBe(0);
    });

    it('is refused as a channel group or model, alone or joined, and no channel is stored', async () => {
      const cases = [
        { fields: { group: 'g'.repeat(65) }, message: 'a group name must be at most 64 characters' },
        {
          fields: { group: Array.from({ length: 5 }, (_, i) => `${i}`.repeat(60)).join(',') },
          message: 'the groups together must be at most 255 characters',
        },
        {
          fields: { models: `m,${'x'.repeat(256)}` },
          message: 'a model name must be at most 255 characters',
        },
      ];
      for (const [i, c] of cases.entries()) {
        const name = `long-list-${i}`;
        const res = await t.call({
          method: 'POST',
          url: '/api/channel/',
          as: root,
          payload: { name, type: 1, key: 'sk-x', models: 'm', group: 'default', ...c.fields },
        });
        expectRefusal(res, c.message);
        expect(await countRows('channels', 'name', name)).toBe(0);
      }
    });

    it('is refused as an invitation or verification code at registration', async () => {
      for (const field of ['aff_code', 'verification_code']) {
        const res = await t.call({
          method: 'POST',
          url: '/api/user/register',
          payload: { username: `longcode${field.length}`, password: 'password123', [field]: long },
        });
        expectRefusal(res, /code must be at most 32 characters$/);
        expect(await countRows('users', 'username', `longcode${field.length}`)).toBe(0);
      }
    });

    it('is refused as an email address at registration, and no account is made', async () => {
      const res = await t.call({
        method: 'POST',
        url: '/api/user/register',
        payload: { username: 'longmail', password: 'password123', email: `${long}@example.com` },
      });
      expectRefusal(res, emailTooLong);
      expect(await countRows('users', 'username', 'longmail')).toBe(0);
    });

    it('is refused as a token name', async () => {
      const res = await t.call({ method: 'POST', url: '/api/token/', as: root, payload: { name: long } });
      expectRefusal(res, MSG.tokenNameTooLong(TOKEN_NAME_MAX));
    });
  });

  describe.each(MALFORMED_IDS)('the id %j', (form) => {
    it('is refused in a path, and the token it names is kept', async () => {
      const user = await t.createUser();
      expectRefusal(await t.call({ method: 'GET', url: `/api/user/${inPath(form, user.id)}`, as: root }));
      const kept = await addToken(t, root.id);
      expectRefusal(await t.call({ method: 'DELETE', url: `/api/token/${inPath(form, kept.id)}`, as: root }));
      const row = await t.db.db
        .selectFrom('tokens')
        .select('id')
        .where('id', '=', kept.id)
        .executeTakeFirst();
      expect(row).toBeDefined();
    });

    it('is refused in a JSON body, and the user stays as they were', async () => {
      const user = await t.createUser();
      const res = await t.call({
        method: 'POST',
        url: '/api/user/manage',
        as: root,
        payload: { id: spell(form, user.id), action: 'disable' },
      });
      expectRefusal(res, MSG.userIdInvalid);
      const row = await t.db.db
        .selectFrom('users')
        .select('status')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe(1);
    });
  });

  it('ignores a page number or list filter spelt like those ids, where the id itself is refused', async () => {
    // List queries read numbers as new-api does (Atoi, its error dropped): a value that does not parse
    // is no filter and the first page, so the classic console's NaN for a cleared date does not break
    // its pages. That is the only leniency: the same spellings as ids (above) stay refused.
    for (const form of ['0x1', '1.0', '1e0']) {
      const query = { p: spell(form, 2), page_size: '10', channel: spell(form, 1), start_timestamp: 'NaN' };
      const res = await t.call({ method: 'GET', url: '/api/log/', as: root, query });
      expect(res.json(), form).toMatchObject({ success: true, data: { page: 1, page_size: 10 } });
    }
  });

  it('accepts an id written as decimal digits, in a path and in a body', async () => {
    const user = await t.createUser();
    const read = await t.call({ method: 'GET', url: `/api/user/${user.id}`, as: root });
    expect(read.json()).toMatchObject({ success: true, data: { id: user.id } });
    const manage = await t.call({
      method: 'POST',
      url: '/api/user/manage',
      as: root,
      payload: { id: String(user.id), action: 'disable' },
    });
    expect(manage.json()).toMatchObject({ success: true, data: { status: 2 } });
  });

  it.each(PROTOTYPE_NAMES)('an option key %s is refused as unknown and changes nothing', async (key) => {
    const res = await t.call({ method: 'PUT', url: '/api/option/', as: root, payload: { key, value: '{}' } });
    expectRefusal(res);
    const rows = await t.db.db.selectFrom('options').select('key').where('key', '=', key).execute();
    expect(rows).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  describe('relay model names', () => {
    const chat = (model: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/chat/completions',
        headers: { authorization: `Bearer ${token.key}` },
        payload: { model, messages: [{ role: 'user', content: 'hello' }] },
      });

    it.each(PROTOTYPE_NAMES)(
      'a model called %s is refused for want of a price, not a crash',
      async (model) => {
        await setOptions(t, { ModelRatio: { 'priced-model': 1 } });
        await addChannel(t, { base_url: mock.url, models: PROTOTYPE_NAMES.join(',') });
        const res = await chat(model);
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toMatchObject({ error: { code: 'model_price_not_set' } });
      },
    );

    it('a model name holding a NUL byte is a 400', async () => {
      const res = await chat(`gpt${NUL}-4o`);
      expect(res.statusCode, res.body).toBe(400);
    });

    it('a model name longer than 256 characters is a 400', async () => {
      const res = await chat('m'.repeat(257));
      expect(res.statusCode, res.body).toBe(400);
    });
  });
});
