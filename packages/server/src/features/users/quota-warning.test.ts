import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockUpstream } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { ROLE } from '@sluice/shared';
import { testDialects } from '../../test-support/databases.js';
import { startFakeServer } from '../../test-support/fakes/http-fake.js';
import type { FakeServer } from '../../test-support/fakes/http-fake.js';
import { startFakeSmtp } from '../../test-support/fakes/smtp.js';
import type { FakeSmtp } from '../../test-support/fakes/smtp.js';
import { addChannel, addToken, setOptions } from '../../test-support/relay-kit.js';
import type { TestToken } from '../../test-support/relay-kit.js';
import { createTestApp } from '../../test-support/test-app.js';
import type { Caller, TestApp } from '../../test-support/test-app.js';
import { createQuotaWarner, quotaWarningsSent } from './quota-warning.js';

const MODEL = 'warning-model';
const SMTP_LOGIN = { user: 'mailer@sluice.test', pass: 'smtp-pass' };

describe.each(testDialects())('low-quota warning on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let smtp: FakeSmtp;
  let hook: FakeServer;
  let admin: Caller;

  beforeAll(async () => {
    mock = await startMockUpstream();
    smtp = await startFakeSmtp(SMTP_LOGIN);
    hook = await startFakeServer(() => ({ json: { ok: true } }));
    t = await createTestApp({ dialect });
    await setOptions(t, {
      ModelRatio: { [MODEL]: 1 },
      GroupRatio: { default: 1 },
      DisplayInCurrencyEnabled: false,
      ServerAddress: 'https://gateway.example',
      SMTPServer: smtp.host,
      SMTPPort: smtp.port,
      SMTPAccount: SMTP_LOGIN.user,
      SMTPToken: SMTP_LOGIN.pass,
    });
    admin = await t.createUser({ role: ROLE.admin });
    await addChannel(t, { base_url: mock.url, models: MODEL });
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
    await smtp?.close();
    await hook?.close();
  });
  beforeEach(() => {
    hook.requests.length = 0;
  });

  const quotaOf = async (id: number) =>
    Number(
      (await t.db.db.selectFrom('users').select('quota').where('id', '=', id).executeTakeFirstOrThrow())
        .quota,
    );

  /** One relay call; resolves once its billing and any warning it caused are done. */
  const spend = async (token: TestToken) => {
    const res = await t.call({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${token.key}` },
      payload: { model: MODEL, messages: [{ role: 'user', content: 'hello there' }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    await quotaWarningsSent(t.app.ctx);
  };

  const putSetting = async (as: Caller, payload: object) => {
    const res = await t.call({ method: 'PUT', url: '/api/user/setting', as, payload });
    expect(res.json<{ success: boolean }>().success, res.body).toBe(true);
  };

  /** A user with a token who has made one call; the threshold then sits 1.5 calls below the balance. */
  async function spender(opts: { email?: string } = {}) {
    const user = await t.createUser({ quota: 10_000 });
    if (opts.email) {
      await t.db.db.updateTable('users').set({ email: opts.email }).where('id', '=', user.id).execute();
    }
    const token = await addToken(t, user.id);
    await spend(token);
    const balance = await quotaOf(user.id);
    const cost = 10_000 - balance;
    expect(cost).toBeGreaterThan(0);
    return { user, token, cost, threshold: balance - Math.floor(cost * 1.5) };
  }

  it('posts one signed webhook when spend crosses the threshold, and no more while below it', async () => {
    const { user, token, threshold } = await spender();
    await putSetting(user, {
      notify_type: 'webhook',
      quota_warning_threshold: threshold,
      webhook_url: `${hook.url}/quota-hook`,
      webhook_secret: 'hook-secret',
    });
    await spend(token);
    expect(hook.requests).toHaveLength(0);
    await spend(token);
    expect(hook.requests).toHaveLength(1);
    for (let i = 0; i < 3; i++) await spend(token);
    expect(hook.requests).toHaveLength(1);

    const [request] = hook.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/quota-hook');
    expect(request?.headers.authorization).toBe('Bearer hook-secret');
    const body = JSON.parse(request?.body ?? '{}') as Record<string, unknown>;
    expect(body).toMatchObject({ type: 'quota_warning', title: 'Your quota is running low' });
    expect(typeof body.timestamp).toBe('number');
    const values = body.values as string[];
    // Counts, not dollars (DisplayInCurrencyEnabled is off); the balance after the crossing call.
    expect(Number(values[1])).toBe(threshold);
    expect(Number(values[0])).toBeLessThan(threshold);
    expect(values[2]).toBe('https://gateway.example/topup');
    expect(String(body.content).match(/\{\{value\}\}/g)).toHaveLength(values.length);
    const row = await t.db.db
      .selectFrom('users')
      .select('quota_warned_at')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.quota_warned_at)).toBeGreaterThan(0);
  });

  it('warns again only after the balance has been back above the threshold', async () => {
    const { user, token, cost, threshold } = await spender();
    await putSetting(user, {
      notify_type: 'webhook',
      quota_warning_threshold: threshold,
      webhook_url: `${hook.url}/again`,
    });
    await spend(token);
    await spend(token);
    expect(hook.requests).toHaveLength(1);
    expect(hook.requests[0]?.headers.authorization).toBeUndefined();

    // A top-up by the admin lifts the balance 3 calls above the threshold…
    const topped = threshold + cost * 3;
    const res = await t.call({
      method: 'PUT',
      url: '/api/user/',
      as: admin,
      payload: { id: user.id, quota: topped },
    });
    expect(res.json<{ success: boolean }>().success, res.body).toBe(true);
    // …which the ledger reads before the next call; spending down again warns once more.
    for (let i = 0; i < 3; i++) await spend(token);
    expect(hook.requests).toHaveLength(1);
    await spend(token);
    expect(hook.requests).toHaveLength(2);
    await spend(token);
    expect(hook.requests).toHaveLength(2);
  });

  it('mails one warning to the account email, or to the notification email when set', async () => {
    const first = await spender({ email: 'account-owner@example.com' });
    await putSetting(first.user, { notify_type: 'email', quota_warning_threshold: first.threshold });
    const second = await spender({ email: 'second-owner@example.com' });
    await putSetting(second.user, {
      notify_type: 'email',
      quota_warning_threshold: second.threshold,
      notification_email: 'alerts@example.com',
    });
    for (const { token } of [first, second]) {
      for (let i = 0; i < 4; i++) await spend(token);
    }
    const to = (address: string) => smtp.messages.filter((m) => m.to.includes(address));
    expect(to('account-owner@example.com')).toHaveLength(1);
    expect(to('alerts@example.com')).toHaveLength(1);
    expect(to('second-owner@example.com')).toHaveLength(0);
    const mail = smtp.lastTo('account-owner@example.com');
    expect(mail.subject).toBe('Your quota is running low');
    expect(mail.html).toContain(`<strong>${first.threshold}</strong>`);
    expect(mail.html).toContain('href="https://gateway.example/topup"');
  });

  it("mails users without settings at the site's QuotaRemindThreshold", async () => {
    const { user, token, threshold } = await spender({ email: 'no-settings@example.com' });
    await setOptions(t, { QuotaRemindThreshold: threshold });
    try {
      for (let i = 0; i < 4; i++) await spend(token);
      expect(smtp.messages.filter((m) => m.to.includes('no-settings@example.com'))).toHaveLength(1);
      const row = await t.db.db
        .selectFrom('users')
        .select('setting')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(row.setting).toBeNull();
    } finally {
      await setOptions(t, { QuotaRemindThreshold: 1000 });
    }
  });

  it('does not warn again after a restart while the balance stays below the threshold', async () => {
    const { user, token, threshold } = await spender();
    await putSetting(user, {
      notify_type: 'webhook',
      quota_warning_threshold: threshold,
      webhook_url: `${hook.url}/restart`,
    });
    await spend(token);
    await spend(token);
    expect(hook.requests).toHaveLength(1);
    // A new warner knows nothing in memory, as after a restart: the row says it already warned.
    const fresh = createQuotaWarner({ ...t.app.ctx, log: { warn: () => undefined } });
    fresh.observe({ charged: new Set([user.id]), userBalances: new Map([[user.id, threshold - 1]]) });
    await fresh.idle();
    await fresh.close();
    expect(hook.requests).toHaveLength(1);
    // The same warner, told of a user whose row says "not warned", does warn: the check is real.
    await t.db.db.updateTable('users').set({ quota_warned_at: 0 }).where('id', '=', user.id).execute();
    const another = createQuotaWarner({ ...t.app.ctx, log: { warn: () => undefined } });
    another.observe({ charged: new Set([user.id]), userBalances: new Map([[user.id, threshold - 1]]) });
    await another.idle();
    await another.close();
    expect(hook.requests).toHaveLength(2);
  });
});
