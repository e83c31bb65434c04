import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockUpstream, withMock } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { CHANNEL_STATUS, LOG_TYPE, ROLE, TOKEN_STATUS } from '@sluice/shared';
import { testDialects } from '../test-support/databases.js';
import { createTestApp } from '../test-support/test-app.js';
import type { Caller, TestApp } from '../test-support/test-app.js';
import { addChannel, addToken, billingWritten, setOptions } from '../test-support/relay-kit.js';
import { invalidateTokenCache, invalidateUserCache } from './cache-invalidation.js';

const MODEL = 'auth-test-model';
const chat = { model: MODEL, messages: [{ role: 'user', content: 'hi' }] };

describe.each(testDialects())('relay auth on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let user: Caller;
  let channelId: number;

  beforeAll(async () => {
    mock = await startMockUpstream();
    t = await createTestApp({ dialect });
    await setOptions(t, { ModelRatio: { [MODEL]: 1, 'other-model': 1 } });
    user = await t.createUser({ quota: 10_000_000 });
    channelId = await addChannel(t, {
      base_url: mock.url,
      models: `${MODEL},other-model`,
      group: 'default,vip',
    });
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  const call = (
    headers: Record<string, string>,
    body: unknown = chat,
    extra: { url?: string; remoteAddress?: string } = {},
  ) =>
    t.app.inject({
      method: 'POST',
      url: extra.url ?? '/v1/chat/completions',
      headers: { 'content-type': 'application/json', ...headers },
      payload: JSON.stringify(body),
      ...(extra.remoteAddress ? { remoteAddress: extra.remoteAddress } : {}),
    });
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
  const errorOf = (res: { json(): unknown }) =>
    (res.json() as { error: { message: string; type: string; code: string } }).error;
  const tokenStatus = async (id: number) =>
    (await t.db.db.selectFrom('tokens').select('status').where('id', '=', id).executeTakeFirstOrThrow())
      .status;

  it('accepts the key from Authorization, x-api-key, x-goog-api-key and ?key=', async () => {
    const token = await addToken(t, user.id);
    expect((await call(bearer(token.key))).statusCode).toBe(200);
    expect((await call({ 'x-api-key': token.key })).statusCode).toBe(200);
    expect((await call({ 'x-goog-api-key': token.key })).statusCode).toBe(200);
    expect((await call({}, chat, { url: `/v1/chat/completions?key=${token.key}` })).statusCode).toBe(200);
  });

  it('refuses a missing or unknown key with 401 in the OpenAI error format', async () => {
    const missing = await call({});
    expect(missing.statusCode).toBe(401);
    expect(errorOf(missing)).toMatchObject({ code: 'missing_api_key', type: 'invalid_request_error' });
    const unknown = await call(bearer(`sk-${'x'.repeat(48)}`));
    expect(unknown.statusCode).toBe(401);
    expect(errorOf(unknown)).toMatchObject({ message: 'invalid token', code: 'invalid_api_key' });
  });

  it('refuses a disabled token with 401', async () => {
    const token = await addToken(t, user.id, { status: TOKEN_STATUS.disabled });
    const res = await call(bearer(token.key));
    expect(res.statusCode).toBe(401);
    expect(errorOf(res).code).toBe('token_disabled');
  });

  it('refuses an expired token with 401 and marks it expired', async () => {
    const token = await addToken(t, user.id, { expired_time: t.app.ctx.clock.now() - 10 });
    const res = await call(bearer(token.key));
    expect(res.statusCode).toBe(401);
    expect(errorOf(res).code).toBe('token_expired');
    expect(await tokenStatus(token.id)).toBe(TOKEN_STATUS.expired);
    const never = await addToken(t, user.id, { expired_time: -1 });
    expect((await call(bearer(never.key))).statusCode).toBe(200);
  });

  it('refuses a used-up token with 401 and marks it exhausted; an unlimited one keeps working', async () => {
    const token = await addToken(t, user.id, { remain_quota: 0 });
    const res = await call(bearer(token.key));
    expect(res.statusCode).toBe(401);
    expect(errorOf(res).code).toBe('token_quota_exhausted');
    expect(await tokenStatus(token.id)).toBe(TOKEN_STATUS.exhausted);
    const unlimited = await addToken(t, user.id, { remain_quota: 0, unlimited_quota: 1 });
    expect((await call(bearer(unlimited.key))).statusCode).toBe(200);
  });

  it('refuses with 403 when the token cannot cover the hold, and marks it exhausted once it reaches zero', async () => {
    const token = await addToken(t, user.id, { remain_quota: 10 });
    const short = await call(bearer(token.key), { ...chat, max_tokens: 1000 });
    expect(short.statusCode).toBe(403);
    expect(errorOf(short).code).toBe('insufficient_token_quota');
    expect(await tokenStatus(token.id)).toBe(TOKEN_STATUS.enabled);
  });

  it("refuses with 403 when the user's quota cannot cover the hold", async () => {
    const poor = await t.createUser({ quota: 5 });
    const token = await addToken(t, poor.id);
    const res = await call(bearer(token.key), { ...chat, max_tokens: 1000 });
    expect(res.statusCode).toBe(403);
    expect(errorOf(res).code).toBe('insufficient_user_quota');
  });

  it('refuses a model outside the token model limits with 403', async () => {
    const token = await addToken(t, user.id, { model_limits_enabled: 1, model_limits: MODEL });
    expect((await call(bearer(token.key))).statusCode).toBe(200);
    const res = await call(bearer(token.key), { ...chat, model: 'other-model' });
    expect(res.statusCode).toBe(403);
    expect(errorOf(res).code).toBe('model_not_allowed');
  });

  it('refuses a client address outside allow_ips with 403', async () => {
    const token = await addToken(t, user.id, { allow_ips: '10.0.0.0/8\n192.168.7.7' });
    expect((await call(bearer(token.key), chat, { remoteAddress: '10.20.30.40' })).statusCode).toBe(200);
    expect((await call(bearer(token.key), chat, { remoteAddress: '192.168.7.7' })).statusCode).toBe(200);
    const res = await call(bearer(token.key), chat, { remoteAddress: '192.168.7.8' });
    expect(res.statusCode).toBe(403);
    expect(errorOf(res).code).toBe('ip_not_allowed');
  });

  it("keeps the caller's address out of the user's logs while their settings say record_ip_log false", async () => {
    const owner = await t.createUser({ quota: 5_000_000 });
    const token = await addToken(t, owner.id, { allow_ips: '203.0.113.0/24' });
    const from = { remoteAddress: '203.0.113.9' };
    const saveSetting = async (recordIpLog: boolean) => {
      // As the 2025 console saves its personal settings.
      const res = await t.call({
        method: 'PUT',
        url: '/api/user/setting',
        as: owner,
        payload: {
          notify_type: 'email',
          quota_warning_threshold: 1,
          notification_email: 'owner@example.com',
          record_ip_log: recordIpLog,
        },
      });
      expect(res.json()).toMatchObject({ success: true });
    };
    const newRows = async (since: number) => {
      await billingWritten(t);
      const rows = await t.db.db
        .selectFrom('logs')
        .select(['id', 'type', 'ip'])
        .where('user_id', '=', owner.id)
        .where('id', '>', since)
        .orderBy('id')
        .execute();
      return rows.map((r) => ({ type: r.type, ip: r.ip }));
    };
    const lastId = async () =>
      Number(
        (
          await t.db.db
            .selectFrom('logs')
            .select((eb) => eb.fn.max('id').as('id'))
            .executeTakeFirst()
        )?.id ?? 0,
      );

    let since = await lastId();
    expect((await call(bearer(token.key), chat, from)).statusCode).toBe(200);
    expect(await newRows(since)).toEqual([{ type: LOG_TYPE.consume, ip: '203.0.113.9' }]);

    await saveSetting(false);
    since = await lastId();
    expect((await call(bearer(token.key), chat, from)).statusCode).toBe(200);
    const failing = { ...chat, messages: [{ role: 'user', content: withMock('hi', { status: 500 }) }] };
    expect((await call(bearer(token.key), failing, from)).statusCode).toBe(500);
    const playground = await t.call({
      method: 'POST',
      url: '/pg/chat/completions',
      as: owner,
      payload: chat,
    });
    expect(playground.statusCode).toBe(200);
    // Consumption, error and playground rows alike.
    expect(await newRows(since)).toEqual([
      { type: LOG_TYPE.consume, ip: '' },
      { type: LOG_TYPE.error, ip: '' },
      { type: LOG_TYPE.consume, ip: '' },
    ]);
    // The token's address list still applies to the real address.
    const outside = await call(bearer(token.key), chat, { remoteAddress: '198.51.100.1' });
    expect(errorOf(outside).code).toBe('ip_not_allowed');

    await saveSetting(true);
    since = await lastId();
    expect((await call(bearer(token.key), chat, from)).statusCode).toBe(200);
    expect(await newRows(since)).toEqual([{ type: LOG_TYPE.consume, ip: '203.0.113.9' }]);
  });

  it('refuses a banned or deleted user with 403 once the change is announced', async () => {
    const owner = await t.createUser({ quota: 1_000_000 });
    const token = await addToken(t, owner.id);
    expect((await call(bearer(token.key))).statusCode).toBe(200);
    await t.db.db.updateTable('users').set({ status: 2 }).where('id', '=', owner.id).execute();
    invalidateUserCache(t.app.ctx.bus, owner.id);
    const banned = await call(bearer(token.key));
    expect(banned.statusCode).toBe(403);
    expect(errorOf(banned).code).toBe('user_banned');
    await t.db.db.updateTable('users').set({ status: 1, deleted_at: 1 }).where('id', '=', owner.id).execute();
    invalidateUserCache(t.app.ctx.bus, owner.id);
    const deleted = await call(bearer(token.key));
    expect(deleted.statusCode).toBe(403);
    expect(errorOf(deleted).code).toBe('user_deleted');
  });

  it('bills in the token group when the user may use it, and refuses other groups with 403', async () => {
    const vip = await addToken(t, user.id, { group: 'vip' });
    expect((await call(bearer(vip.key))).statusCode).toBe(200);
    await billingWritten(t);
    const log = await t.db.db.selectFrom('logs').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(log.group).toBe('vip');
    const secret = await addToken(t, user.id, { group: 'secret-group' });
    const res = await call(bearer(secret.key));
    expect(res.statusCode).toBe(403);
    expect(errorOf(res).code).toBe('group_not_allowed');
  });

  it('serves from memory: a row change is seen only after it is announced on the cache bus', async () => {
    const token = await addToken(t, user.id);
    expect((await call(bearer(token.key))).statusCode).toBe(200);
    await t.db.db
      .updateTable('tokens')
      .set({ status: TOKEN_STATUS.disabled })
      .where('id', '=', token.id)
      .execute();
    expect((await call(bearer(token.key))).statusCode).toBe(200);
    invalidateTokenCache(t.app.ctx.bus, token.id);
    expect((await call(bearer(token.key))).statusCode).toBe(401);
  });

  it('lets an administrator pin a channel with sk-<key>-<channelId>, and nobody else', async () => {
    const admin = await t.createUser({ role: ROLE.admin, quota: 1_000_000 });
    const adminToken = await addToken(t, admin.id);
    // A channel outside the default group's abilities, reachable only by pinning.
    const hidden = await addChannel(t, { base_url: mock.url, models: 'unlisted', group: 'nobody' });
    mock.reset();
    const pinned = await call(bearer(`${adminToken.key}-${hidden}`));
    expect(pinned.statusCode).toBe(200);
    await billingWritten(t);
    const log = await t.db.db.selectFrom('logs').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(log.channel_id).toBe(hidden);

    const userToken = await addToken(t, user.id);
    const refused = await call(bearer(`${userToken.key}-${channelId}`));
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused).code).toBe('channel_pin_not_allowed');

    await t.db.db
      .updateTable('channels')
      .set({ status: CHANNEL_STATUS.manuallyDisabled })
      .where('id', '=', hidden)
      .execute();
    t.app.ctx.bus.publish('channels');
    const disabled = await call(bearer(`${adminToken.key}-${hidden}`));
    expect(disabled.statusCode).toBe(403);
  });
});
