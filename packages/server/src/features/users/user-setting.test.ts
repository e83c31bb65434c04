import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@sluice/shared';
import type { SelfUser } from '@sluice/shared';
import { testDialects } from '../../test-support/databases.js';
import { createTestApp, expectRefusal } from '../../test-support/test-app.js';
import type { Caller, TestApp } from '../../test-support/test-app.js';

describe.each(testDialects())('quota warning settings on %s', (dialect) => {
  let t: TestApp;
  let withEmail: Caller;
  let withoutEmail: Caller;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
    withEmail = await t.createUser();
    withoutEmail = await t.createUser();
    await t.db.db
      .updateTable('users')
      .set({ email: 'me@example.com' })
      .where('id', '=', withEmail.id)
      .execute();
  });
  afterAll(async () => t?.close());

  const put = (as: Caller | undefined, payload: unknown) =>
    t.call({ method: 'PUT', url: '/api/user/setting', ...(as ? { as } : {}), payload: payload as object });
  const self = async (as: Caller) =>
    (await t.call({ method: 'GET', url: '/api/user/self', as })).json<{ data: SelfUser }>().data;

  it('has no settings at first: setting is an empty string', async () => {
    expect((await self(withoutEmail)).setting).toBe('');
  });

  it('stores the settings and returns them in GET /api/user/self as JSON text', async () => {
    const res = await put(withoutEmail, {
      notify_type: 'webhook',
      quota_warning_threshold: 250000.5,
      webhook_url: '  https://hooks.example.com/quota?x=1 ',
      webhook_secret: 'shh',
      accept_unset_model_ratio_model: true,
    });
    expect(res.json()).toEqual({ success: true, message: '', data: null });
    // new-api keeps accept_unset_model_ratio_model beside the warning settings, and so does Sluice.
    expect(JSON.parse((await self(withoutEmail)).setting)).toEqual({
      notify_type: 'webhook',
      quota_warning_threshold: 250000.5,
      webhook_url: 'https://hooks.example.com/quota?x=1',
      webhook_secret: 'shh',
      notification_email: '',
      accept_unset_model_ratio_model: true,
    });
    // Email warnings go to the account's address when no notification email is given.
    expect((await put(withEmail, { notify_type: 'email', quota_warning_threshold: 0 })).json().success).toBe(
      true,
    );
    expect(JSON.parse((await self(withEmail)).setting)).toMatchObject({
      notify_type: 'email',
      quota_warning_threshold: 0,
      notification_email: '',
    });
  });

  it('keeps the two switches of the 2025 console, and reads them back as saved', async () => {
    const saved = {
      notify_type: 'email',
      quota_warning_threshold: 500000,
      notification_email: 'alerts@example.com',
      accept_unset_model_ratio_model: false,
      record_ip_log: false,
    };
    expect((await put(withoutEmail, saved)).json()).toMatchObject({ success: true });
    expect(JSON.parse((await self(withoutEmail)).setting)).toMatchObject({
      accept_unset_model_ratio_model: false,
      record_ip_log: false,
    });
    expect((await put(withoutEmail, { ...saved, record_ip_log: true })).json()).toMatchObject({
      success: true,
    });
    expect(JSON.parse((await self(withoutEmail)).setting)).toMatchObject({ record_ip_log: true });
  });

  it('re-arms the warning when the settings are saved', async () => {
    await t.db.db.updateTable('users').set({ quota_warned_at: 123 }).where('id', '=', withEmail.id).execute();
    await put(withEmail, {
      notify_type: 'email',
      quota_warning_threshold: 10,
      notification_email: 'a@b.example',
    });
    const row = await t.db.db
      .selectFrom('users')
      .select('quota_warned_at')
      .where('id', '=', withEmail.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.quota_warned_at)).toBe(0);
  });

  it.each([
    [{ notify_type: 'sms', quota_warning_threshold: 1 }, MSG.notifyTypeInvalid],
    [{ quota_warning_threshold: 1 }, MSG.notifyTypeInvalid],
    [{ notify_type: 'email', quota_warning_threshold: -1 }, MSG.quotaWarningThresholdInvalid],
    [{ notify_type: 'email', quota_warning_threshold: '100' }, MSG.quotaWarningThresholdInvalid],
    [{ notify_type: 'email' }, MSG.quotaWarningThresholdInvalid],
    [{ notify_type: 'webhook', quota_warning_threshold: 1 }, MSG.webhookUrlRequired],
    [{ notify_type: 'webhook', quota_warning_threshold: 1, webhook_url: '   ' }, MSG.webhookUrlRequired],
    [
      { notify_type: 'webhook', quota_warning_threshold: 1, webhook_url: 'ftp://x.example' },
      MSG.webhookUrlInvalid,
    ],
    [{ notify_type: 'webhook', quota_warning_threshold: 1, webhook_url: 'not a url' }, MSG.webhookUrlInvalid],
    [
      { notify_type: 'email', quota_warning_threshold: 1, notification_email: 'nobody' },
      MSG.notificationEmailInvalid,
    ],
    [
      { notify_type: 'email', quota_warning_threshold: 1, record_ip_log: 'no' },
      'record_ip_log must be true or false',
    ],
    [
      { notify_type: 'email', quota_warning_threshold: 1, accept_unset_model_ratio_model: 1 },
      'accept_unset_model_ratio_model must be true or false',
    ],
  ])('refuses %o with "%s" and keeps the stored settings', async (payload, message) => {
    const before = (await self(withEmail)).setting;
    expectRefusal(await put(withEmail, payload), message);
    expect((await self(withEmail)).setting).toBe(before);
  });

  it('refuses email warnings with nowhere to send them', async () => {
    const fresh = await t.createUser();
    expectRefusal(
      await put(fresh, { notify_type: 'email', quota_warning_threshold: 5 }),
      MSG.notificationEmailMissing,
    );
    expect((await self(fresh)).setting).toBe('');
  });

  it('refuses a body that is not an object, and callers who are not signed in', async () => {
    expectRefusal(await put(withEmail, [1, 2]));
    expect((await put(undefined, { notify_type: 'email', quota_warning_threshold: 1 })).statusCode).toBe(401);
  });
});
