import { MSG } from '@sluice/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../test-support/databases.js';
import { createTestApp, expectRefusal } from '../../test-support/test-app.js';
import type { TestApp } from '../../test-support/test-app.js';
import { guardedCall, manualClock, setOptions } from '../../test-support/fakes/app-helpers.js';
import { startFakeSmtp } from '../../test-support/fakes/smtp.js';
import type { FakeSmtp } from '../../test-support/fakes/smtp.js';
import { TURNSTILE_PASS, startFakeTurnstile } from '../../test-support/fakes/turnstile.js';
import type { FakeServer } from '../../test-support/fakes/http-fake.js';

const SMTP_TOKEN = 'smtp-token-that-must-stay-secret';
const TURNSTILE_SECRET = 'turnstile-secret-that-must-stay-secret';

const codeIn = (html: string): string => {
  const code = /<strong>(\d{6})<\/strong>/.exec(html)?.[1];
  if (!code) throw new Error(`no code in mail: ${html}`);
  return code;
};

describe.each(testDialects())('email verification and password reset on %s', (dialect) => {
  let t: TestApp;
  let smtp: FakeSmtp;
  let turnstile: FakeServer;
  let call: ReturnType<typeof guardedCall>;
  const clock = manualClock();
  let n = 0;
  const freshEmail = () => `person${++n}@example.com`;

  const smtpOptions = () => ({
    SMTPServer: smtp.host,
    SMTPPort: String(smtp.port),
    SMTPAccount: 'mailer@sluice.test',
    SMTPFrom: 'Sluice <mailer@sluice.test>',
    SMTPToken: SMTP_TOKEN,
  });

  const askCode = (email: string, extra = '') =>
    call({ method: 'GET', url: `/api/verification?email=${encodeURIComponent(email)}${extra}` });

  const userRowEmail = async (id: number) =>
    (await t.db.db.selectFrom('users').select('email').where('id', '=', id).executeTakeFirstOrThrow()).email;

  const setEmail = (id: number, email: string) =>
    t.db.db.updateTable('users').set({ email }).where('id', '=', id).execute();

  beforeAll(async () => {
    smtp = await startFakeSmtp({ user: 'mailer@sluice.test', pass: SMTP_TOKEN });
    turnstile = await startFakeTurnstile({ secret: TURNSTILE_SECRET });
    t = await createTestApp({ dialect, clock, endpoints: { turnstile: turnstile.url } });
    call = guardedCall(t, [SMTP_TOKEN, TURNSTILE_SECRET]);
    await setOptions(t, { ...smtpOptions(), SystemName: 'Acme Gateway' });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    await turnstile?.close();
  });

  it('mails a six-digit code through SMTP, and the code binds the email to the signed-in user once', async () => {
    const user = await t.createUser();
    const email = freshEmail();
    const res = await askCode(email);
    expect(res.statusCode).toBe(200);
    expect(res.json().success).toBe(true);

    const mail = smtp.lastTo(email);
    expect(mail.subject).toContain('Acme Gateway');
    expect(mail.html).toContain('Acme Gateway');
    expect(mail.html).toContain('10 minutes');
    const code = codeIn(mail.html);

    const bind = await call({
      method: 'GET',
      url: `/api/oauth/email/bind?email=${encodeURIComponent(email)}&code=${code}`,
      as: user,
    });
    expect(bind.statusCode).toBe(200);
    expect(bind.json()).toMatchObject({ success: true, message: MSG.bindSuccess });
    expect(await userRowEmail(user.id)).toBe(email);

    const again = await call({
      method: 'GET',
      url: `/api/oauth/email/bind?email=${encodeURIComponent(email)}&code=${code}`,
      as: user,
    });
    expectRefusal(again);
    expect(again.json().message).toBe(MSG.emailCodeWrong);
  });

  it('refuses a wrong code and leaves the email unchanged', async () => {
    const user = await t.createUser();
    const email = freshEmail();
    expect((await askCode(email)).statusCode).toBe(200);
    const code = codeIn(smtp.lastTo(email).html);
    const wrong = code === '000000' ? '111111' : '000000';
    const res = await call({
      method: 'GET',
      url: `/api/oauth/email/bind?email=${email}&code=${wrong}`,
      as: user,
    });
    expectRefusal(res);
    expect(res.json().message).toBe(MSG.emailCodeWrong);
    expect(await userRowEmail(user.id)).toBe('');
  });

  it('refuses another code within 30 seconds, then sends a new one that replaces the first', async () => {
    const user = await t.createUser();
    const email = freshEmail();
    expect((await askCode(email)).statusCode).toBe(200);
    const first = codeIn(smtp.lastTo(email).html);

    clock.advance(20);
    const early = await askCode(email);
    expect(early.statusCode).toBe(429);
    expect(early.json().message).toBe(MSG.resendTooSoon);
    expect(smtp.messages.filter((m) => m.to.includes(email))).toHaveLength(1);

    clock.advance(11);
    expect((await askCode(email)).statusCode).toBe(200);
    const mails = smtp.messages.filter((m) => m.to.includes(email));
    expect(mails).toHaveLength(2);
    const second = codeIn(mails[1]?.html ?? '');

    if (first !== second) {
      const old = await call({
        method: 'GET',
        url: `/api/oauth/email/bind?email=${email}&code=${first}`,
        as: user,
      });
      expect(old.json().message).toBe(MSG.emailCodeWrong);
    }
    const res = await call({
      method: 'GET',
      url: `/api/oauth/email/bind?email=${email}&code=${second}`,
      as: user,
    });
    expect(res.statusCode).toBe(200);
  });

  it('lets a code expire after 10 minutes', async () => {
    const user = await t.createUser();
    const email = freshEmail();
    expect((await askCode(email)).statusCode).toBe(200);
    const code = codeIn(smtp.lastTo(email).html);
    clock.advance(10 * 60 + 1);
    const res = await call({
      method: 'GET',
      url: `/api/oauth/email/bind?email=${email}&code=${code}`,
      as: user,
    });
    expectRefusal(res);
    expect(res.json().message).toBe(MSG.emailCodeWrong);
  });

  it('refuses an address another user already has, both for the code and for the binding', async () => {
    const owner = await t.createUser();
    const email = freshEmail();
    await setEmail(owner.id, email);
    const sent = smtp.messages.length;
    const res = await askCode(email.toUpperCase());
    expectRefusal(res);
    expect(res.json().message).toBe(MSG.emailTaken);
    expect(smtp.messages.length).toBe(sent);

    // The owner asking again for their own address is not a conflict.
    expect(
      (await call({ method: 'GET', url: `/api/verification?email=${email}`, as: owner })).statusCode,
    ).toBe(200);

    // Even with a code in hand (issued before the owner bound it), another user cannot take it.
    const other = await t.createUser();
    await t.app.ctx.codes.issue('email_verify', email, '123456', 600);
    const bind = await call({
      method: 'GET',
      url: `/api/oauth/email/bind?email=${email}&code=123456`,
      as: other,
    });
    expectRefusal(bind);
    expect(bind.json().message).toBe(MSG.emailTaken);
    expect(await userRowEmail(other.id)).toBe('');
  });

  it('checks the address: required, well-formed, on the domain whitelist, without aliases', async () => {
    expect((await call({ method: 'GET', url: '/api/verification' })).json().message).toBe(MSG.enterEmail);
    const bad = await askCode('not-an-email');
    expectRefusal(bad);
    expect(bad.json().message).toBe(MSG.emailInvalid);

    await setOptions(t, { EmailDomainRestrictionEnabled: 'true', EmailDomainWhitelist: 'example.com' });
    await setOptions(t, { EmailAliasRestrictionEnabled: 'true' });
    try {
      const domain = await askCode('someone@elsewhere.org');
      expectRefusal(domain);
      expect(domain.json().message).toBe(MSG.emailDomainNotAllowed);
      const alias = await askCode('some+tag@example.com');
      expectRefusal(alias);
      expect(alias.json().message).toBe(MSG.emailAliasNotAllowed);
      expect((await askCode(freshEmail())).statusCode).toBe(200);
    } finally {
      await setOptions(t, { EmailDomainRestrictionEnabled: 'false', EmailAliasRestrictionEnabled: 'false' });
    }
  });

  it('says SMTP is not configured instead of pretending to send', async () => {
    await setOptions(t, { SMTPServer: '' });
    try {
      const res = await askCode(freshEmail());
      expectRefusal(res);
      expect(res.json().message).toBe(MSG.smtpNotConfigured);
      const reset = await call({ method: 'GET', url: `/api/reset_password?email=${freshEmail()}` });
      expectRefusal(reset);
    } finally {
      await setOptions(t, smtpOptions());
    }
  });

  it('reports a mail the SMTP server refused and does not hold the resend cooldown against the user', async () => {
    const email = freshEmail();
    await setOptions(t, { SMTPToken: 'a-wrong-smtp-password' });
    try {
      const res = await askCode(email);
      expectRefusal(res);
      expect(res.json().message).toBe(MSG.mailSendFailed);
    } finally {
      await setOptions(t, smtpOptions());
    }
    expect((await askCode(email)).statusCode).toBe(200);
  });

  it('asks Turnstile when the check is on and passes only a token it accepts', async () => {
    await setOptions(t, {
      TurnstileSiteKey: 'site-key',
      TurnstileSecretKey: TURNSTILE_SECRET,
      TurnstileCheckEnabled: 'true',
    });
    try {
      const email = freshEmail();
      const missing = await askCode(email);
      expectRefusal(missing);
      expect(missing.json().message).toBe(MSG.turnstileChecking);
      const refused = await askCode(email, '&turnstile=robot');
      expectRefusal(refused);
      expect(refused.json().message).toBe(MSG.turnstileFailed);
      expect(smtp.messages.some((m) => m.to.includes(email))).toBe(false);

      expect((await askCode(email, `&turnstile=${TURNSTILE_PASS}`)).statusCode).toBe(200);
      expect(turnstile.requests.at(-1)?.fields).toMatchObject({
        secret: TURNSTILE_SECRET,
        response: TURNSTILE_PASS,
      });

      const reset = await call({
        method: 'GET',
        url: `/api/reset_password?email=${freshEmail()}&turnstile=robot`,
      });
      expectRefusal(reset);
    } finally {
      await setOptions(t, { TurnstileCheckEnabled: 'false' });
    }
  });

  describe('password reset', () => {
    beforeAll(async () => setOptions(t, { ServerAddress: 'https://gateway.example/' }));

    it('mails a link whose token gives a new password that signs in, once, and ends old sessions', async () => {
      const user = await t.createUser({ password: 'old-password-1' });
      const email = freshEmail();
      await setEmail(user.id, email);

      const res = await call({
        method: 'GET',
        url: `/api/reset_password?email=${encodeURIComponent(email)}`,
      });
      expect(res.statusCode).toBe(200);
      const mail = smtp.lastTo(email);
      expect(mail.subject).toContain('Acme Gateway');
      const href = /href="([^"]+)"/.exec(mail.html)?.[1]?.replace(/&#38;/g, '&') ?? '';
      const link = new URL(href);
      expect(`${link.origin}${link.pathname}`).toBe('https://gateway.example/user/reset');
      expect(link.searchParams.get('email')).toBe(email);
      const token = link.searchParams.get('token') ?? '';
      expect(token.length).toBeGreaterThanOrEqual(16);

      const confirm = await call({ method: 'POST', url: '/api/user/reset', payload: { email, token } });
      expect(confirm.statusCode).toBe(200);
      const password = confirm.json().data as string;
      expect(password).toMatch(/^[A-Za-z0-9]{12}$/);

      // The session from before the reset no longer works; the new password does, the old one not.
      expect((await call({ method: 'GET', url: '/api/user/self', as: user })).statusCode).toBe(401);
      const signedIn = await t.login(user.username, password);
      expect(signedIn.id).toBe(user.id);
      await expect(t.login(user.username, 'old-password-1')).rejects.toThrow();

      const reuse = await call({ method: 'POST', url: '/api/user/reset', payload: { email, token } });
      expectRefusal(reuse);
      expect(reuse.json().message).toBe(MSG.resetLinkInvalid);
    });

    it('never builds the link from Host or X-Forwarded-Host', async () => {
      const user = await t.createUser();
      const email = freshEmail();
      await setEmail(user.id, email);
      const poisoned = {
        host: 'evil.example',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'https',
      };
      const res = await call({ method: 'GET', url: `/api/reset_password?email=${email}`, headers: poisoned });
      expect(res.json()).toMatchObject({ success: true });
      expect(smtp.lastTo(email).html).toContain('https://gateway.example/user/reset?email=');
      expect(smtp.lastTo(email).html).not.toContain('evil.example');
    });

    it("refuses to mail a reset link while the site's address is not configured", async () => {
      await setOptions(t, { ServerAddress: '' });
      try {
        const user = await t.createUser();
        const email = freshEmail();
        await setEmail(user.id, email);
        const sent = smtp.messages.length;
        const res = await call({
          method: 'GET',
          url: `/api/reset_password?email=${email}`,
          headers: { host: 'console.example:8080' },
        });
        expectRefusal(res, MSG.serverAddressNotConfigured);
        expect(smtp.messages.length).toBe(sent);
      } finally {
        await setOptions(t, { ServerAddress: 'https://gateway.example/' });
      }
    });

    it('answers 404 for an address nobody registered, and sends nothing', async () => {
      const sent = smtp.messages.length;
      const res = await call({ method: 'GET', url: `/api/reset_password?email=${freshEmail()}` });
      expectRefusal(res);
      expect(res.json().message).toBe(MSG.emailNotRegistered);
      expect(smtp.messages.length).toBe(sent);
    });

    it('refuses a wrong token, a token for another address and an expired token', async () => {
      const user = await t.createUser();
      const email = freshEmail();
      await setEmail(user.id, email);
      expect((await call({ method: 'GET', url: `/api/reset_password?email=${email}` })).statusCode).toBe(200);
      const href = /href="([^"]+)"/.exec(smtp.lastTo(email).html)?.[1]?.replace(/&#38;/g, '&') ?? '';
      const token = new URL(href).searchParams.get('token') ?? '';

      const wrong = await call({
        method: 'POST',
        url: '/api/user/reset',
        payload: { email, token: 'x'.repeat(32) },
      });
      expectRefusal(wrong);
      expect(wrong.json().message).toBe(MSG.resetLinkInvalid);
      const other = await call({
        method: 'POST',
        url: '/api/user/reset',
        payload: { email: freshEmail(), token },
      });
      expectRefusal(other);

      clock.advance(16 * 60);
      const late = await call({ method: 'POST', url: '/api/user/reset', payload: { email, token } });
      expectRefusal(late);
      expect(late.json().message).toBe(MSG.resetLinkInvalid);
      // None of the refused attempts changed the password.
      await expect(t.login(user.username, user.password)).resolves.toMatchObject({ id: user.id });
    });
  });
});
