import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, ROLE } from '@sluice/shared';
import { SESSION_COOKIE } from '../../http/auth-guard.js';
import { testDialects } from '../../test-support/databases.js';
import { createTestApp, expectRefusal } from '../../test-support/test-app.js';
import type { TestApp } from '../../test-support/test-app.js';

const failure = (res: { statusCode: number; json: () => { success: boolean; message: string } }) => ({
  status: res.statusCode,
  success: res.json().success,
  message: res.json().message,
});

describe.each(testDialects())('password sign-in and registration on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => t?.close());

  /** Sets options for the duration of one test. */
  async function withOptions(values: Record<string, string>, body: () => Promise<void>) {
    const before = Object.fromEntries(
      Object.keys(values).map((k) => [k, t.app.ctx.options.raw(k as 'RegisterEnabled')]),
    );
    for (const [k, v] of Object.entries(values)) await t.app.ctx.options.set(k, v);
    try {
      await body();
    } finally {
      for (const [k, v] of Object.entries(before)) await t.app.ctx.options.set(k, v);
    }
  }

  const login = (payload: unknown, query = '') =>
    t.call({ method: 'POST', url: `/api/user/login${query}`, payload: payload as object });
  const register = (payload: object) => t.call({ method: 'POST', url: '/api/user/register', payload });
  const userRow = (username: string) =>
    t.db.db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();

  describe('login', () => {
    it('signs root in with a strict, signed, HttpOnly cookie and flags the default password', async () => {
      const res = await login({ username: 'root', password: '123456' });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.success).toBe(true);
      expect(body.data).toEqual({
        id: expect.any(Number),
        username: 'root',
        display_name: 'Root User',
        role: ROLE.root,
        status: 1,
        group: 'default',
        default_password: true,
        // Root of a first start without INITIAL_ROOT_PASSWORD must choose a new one first.
        password_change_required: true,
      });
      expect(res.body).not.toContain('"password"');
      expect(res.body).not.toContain('$2');
      const cookie = res.cookies.find((c) => c.name === SESSION_COOKIE);
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/', maxAge: 3600 });
      expect(cookie?.secure).toBeFalsy();
      // The cookie is signed: the raw session id alone is not accepted.
      expect(t.app.unsignCookie(cookie?.value ?? '').valid).toBe(true);

      const self = await t.call({
        method: 'GET',
        url: '/api/user/self',
        headers: {
          cookie: `${SESSION_COOKIE}=${encodeURIComponent(cookie?.value ?? '')}`,
          'new-api-user': String(body.data.id),
        },
      });
      expect(self.statusCode).toBe(200);
      expect(self.json().data.username).toBe('root');
    });

    it('does not believe X-Forwarded-Proto from a peer that is not a trusted proxy', async () => {
      // A trusted proxy's https marks the cookie Secure: http/trusted-proxies.test.ts.
      const res = await t.call({
        method: 'POST',
        url: '/api/user/login',
        headers: { 'x-forwarded-proto': 'https' },
        payload: { username: 'root', password: '123456' },
      });
      expect(res.json()).toMatchObject({ success: true });
      expect(res.cookies.find((c) => c.name === SESSION_COOKIE)?.secure).toBeFalsy();
    });

    it('does not flag the default password for other accounts or other passwords', async () => {
      const boss = await t.createUser({ role: ROLE.root, password: '123456' });
      const res = await login({ username: boss.username, password: '123456' });
      expect(res.json().data.default_password).toBe(false);
      const user = await t.createUser();
      const res2 = await login({ username: user.username, password: user.password });
      expect(res2.json().data).toMatchObject({ id: user.id, default_password: false, role: ROLE.user });
    });

    it('asks for username and password when either is empty or missing', async () => {
      for (const payload of [
        {},
        { username: 'root' },
        { password: 'x' },
        { username: '  ', password: 'x' },
      ]) {
        expect(failure(await login(payload))).toEqual({
          status: 200,
          success: false,
          message: MSG.enterUsernamePassword,
        });
      }
    });

    it('answers a wrong password or an unknown user with 400, never 401', async () => {
      const user = await t.createUser();
      for (const payload of [
        { username: user.username, password: 'not-the-password' },
        { username: 'nobody-like-this', password: 'whatever1' },
      ]) {
        expect(failure(await login(payload))).toEqual({
          status: 200,
          success: false,
          message: MSG.usernamePasswordWrong,
        });
      }
    });

    it('refuses banned users with 403 and deregistered users as unknown', async () => {
      const banned = await t.createUser();
      await t.db.db.updateTable('users').set({ status: 2 }).where('id', '=', banned.id).execute();
      expect(failure(await login({ username: banned.username, password: banned.password }))).toMatchObject({
        status: 200,
        message: MSG.userBanned,
      });
      const gone = await t.createUser();
      await t.db.db.updateTable('users').set({ deleted_at: 1 }).where('id', '=', gone.id).execute();
      expect(failure(await login({ username: gone.username, password: gone.password }))).toMatchObject({
        status: 200,
        message: MSG.usernamePasswordWrong,
      });
    });

    it('is refused with 403 when password login is turned off', async () => {
      await withOptions({ PasswordLoginEnabled: 'false' }, async () => {
        const res = await login({ username: 'root', password: '123456' });
        expect(failure(res)).toMatchObject({ status: 200, message: MSG.passwordLoginDisabled });
        expect(res.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
      });
    });
  });

  describe('logout', () => {
    it('ends the session and clears the cookie', async () => {
      const caller = await t.login('root', '123456');
      const res = await t.call({ method: 'GET', url: '/api/user/logout', as: caller });
      expect(res.statusCode).toBe(200);
      expect(res.json().success).toBe(true);
      const cleared = res.cookies.find((c) => c.name === SESSION_COOKIE);
      expect(cleared?.value).toBe('');
      const after = await t.call({ method: 'GET', url: '/api/user/self', as: caller });
      expect(after.statusCode).toBe(401);
    });

    it('ends the session even without the New-Api-User header, and succeeds with no session', async () => {
      const caller = await t.login('root', '123456');
      const res = await t.call({
        method: 'GET',
        url: '/api/user/logout',
        headers: { cookie: caller.headers.cookie ?? '' },
      });
      expect(res.statusCode).toBe(200);
      expect((await t.call({ method: 'GET', url: '/api/user/self', as: caller })).statusCode).toBe(401);
      expect((await t.call({ method: 'GET', url: '/api/user/logout' })).json().success).toBe(true);
    });
  });

  describe('register', () => {
    const name = () => `r${Math.random().toString(36).slice(2, 10)}`;

    it('creates an account with the new-user quota, without signing in', async () => {
      await withOptions({ QuotaForNewUser: '1234' }, async () => {
        const username = name();
        const res = await register({ username, password: 'password123', password2: 'password123' });
        expect(res.statusCode).toBe(200);
        expect(res.json().success).toBe(true);
        expect(res.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
        expect(await userRow(username)).toMatchObject({ quota: 1234, role: ROLE.user, status: 1 });
        await t.login(username, 'password123');
      });
    });

    it('accepts a missing confirmation and ignores an email when verification is off', async () => {
      const username = name();
      const res = await register({ username, password: 'password123', email: 'x@example.com' });
      expect(res.statusCode).toBe(200);
      expect((await userRow(username))?.email).toBe('');
    });

    it('checks the form fields with the spec messages', async () => {
      const cases: Array<[object, string]> = [
        [{ password: 'password123' }, MSG.enterUsernamePassword],
        [{ username: name() }, MSG.enterUsernamePassword],
        [{ username: 'a'.repeat(21), password: 'password123' }, MSG.usernameTooLong],
        [{ username: name(), password: 'short7!' }, MSG.passwordTooShort],
        [{ username: name(), password: 'p'.repeat(21) }, MSG.passwordTooLong],
        [{ username: name(), password: 'password123', password2: 'password124' }, MSG.passwordsDiffer],
      ];
      for (const [payload, message] of cases) {
        expect(failure(await register(payload))).toEqual({ status: 200, success: false, message });
      }
    });

    it('is refused when registration or password registration is off', async () => {
      await withOptions({ RegisterEnabled: 'false' }, async () => {
        expect(failure(await register({ username: name(), password: 'password123' }))).toMatchObject({
          status: 200,
          message: MSG.registerDisabled,
        });
      });
      await withOptions({ PasswordRegisterEnabled: 'false' }, async () => {
        expect(failure(await register({ username: name(), password: 'password123' }))).toMatchObject({
          status: 200,
          message: MSG.passwordRegisterDisabled,
        });
      });
    });

    it('answers 409 for a taken username, deregistered accounts included', async () => {
      const existing = await t.createUser();
      expect(failure(await register({ username: existing.username, password: 'password123' }))).toEqual({
        status: 200,
        success: false,
        message: MSG.usernameTaken,
      });
      await t.db.db.updateTable('users').set({ deleted_at: 1 }).where('id', '=', existing.id).execute();
      expectRefusal(await register({ username: existing.username, password: 'password123' }));
    });

    it('credits the inviter and the invitee through the invite code', async () => {
      await withOptions(
        { QuotaForInviter: '100', QuotaForInvitee: '50', QuotaForNewUser: '10' },
        async () => {
          const inviter = await t.createUser();
          const before = await userRow(inviter.username);
          const username = name();
          const res = await register({ username, password: 'password123', aff_code: before?.aff_code });
          expect(res.statusCode).toBe(200);
          expect(await userRow(username)).toMatchObject({ quota: 60, inviter_id: inviter.id });
          expect(await userRow(inviter.username)).toMatchObject({
            aff_count: 1,
            aff_quota: 100,
            aff_history_quota: 100,
          });
        },
      );
    });

    it('creates exactly one account when 50 registrations race for one username', async () => {
      const username = name();
      const results = await Promise.all(
        Array.from({ length: 50 }, () => register({ username, password: 'password123' })),
      );
      const bodies = results.map((r) => r.json<{ success: boolean; message: string }>());
      expect(results.every((r) => r.statusCode === 200)).toBe(true);
      expect(bodies.filter((b) => b.success)).toHaveLength(1);
      const refused = bodies.filter((b) => !b.success);
      expect(refused).toHaveLength(49);
      for (const b of refused) expect(b.message).toBe(MSG.usernameTaken);
      const rows = await t.db.db.selectFrom('users').select('id').where('username', '=', username).execute();
      expect(rows).toHaveLength(1);
    });

    describe('with email verification on', () => {
      const verified = { EmailVerificationEnabled: 'true' };
      const issue = (email: string, code: string) => t.app.ctx.codes.issue('email_verify', email, code, 600);

      it('needs the email and the code mailed to it, and spends the code', async () => {
        await withOptions(verified, async () => {
          const email = `${name()}@example.com`;
          await issue(email, '424242');
          const base = { username: name(), password: 'password123' };
          expect(failure(await register(base))).toMatchObject({ status: 200, message: MSG.enterEmail });
          expect(failure(await register({ ...base, email }))).toMatchObject({
            status: 200,
            message: MSG.enterEmailCode,
          });
          expect(
            failure(await register({ ...base, email: 'not-an-email', verification_code: '1' })),
          ).toMatchObject({
            status: 200,
            message: MSG.emailInvalid,
          });
          expect(failure(await register({ ...base, email, verification_code: '000000' }))).toMatchObject({
            status: 200,
            message: MSG.emailCodeWrong,
          });
          const ok = await register({ ...base, email: email.toUpperCase(), verification_code: '424242' });
          expect(ok.statusCode).toBe(200);
          expect((await userRow(base.username))?.email).toBe(email);
          // The code is spent, and the address is now taken.
          const again = await register({
            username: name(),
            password: 'password123',
            email,
            verification_code: '424242',
          });
          expect(failure(again)).toMatchObject({ status: 200, message: MSG.emailTaken });
        });
      });

      it('keeps the code when the username turns out to be taken', async () => {
        await withOptions(verified, async () => {
          const email = `${name()}@example.com`;
          await issue(email, '111111');
          const taken = await t.createUser();
          const res = await register({
            username: taken.username,
            password: 'password123',
            email,
            verification_code: '111111',
          });
          expectRefusal(res);
          expect(await t.app.ctx.codes.check('email_verify', email, '111111')).toBe(true);
        });
      });

      it('applies the domain whitelist and the alias restriction', async () => {
        await withOptions(
          {
            ...verified,
            EmailDomainRestrictionEnabled: 'true',
            EmailDomainWhitelist: 'example.com, corp.test',
            EmailAliasRestrictionEnabled: 'true',
          },
          async () => {
            const attempt = (email: string) =>
              register({ username: name(), password: 'password123', email, verification_code: '9' });
            expect(failure(await attempt('someone@elsewhere.org'))).toMatchObject({
              status: 200,
              message: MSG.emailDomainNotAllowed,
            });
            expect(failure(await attempt('some+tag@example.com'))).toMatchObject({
              status: 200,
              message: MSG.emailAliasNotAllowed,
            });
            expect(failure(await attempt('some.one@corp.test'))).toMatchObject({
              status: 200,
              message: MSG.emailAliasNotAllowed,
            });
            const email = `${name()}@corp.test`;
            await issue(email, '777777');
            const res = await register({
              username: name(),
              password: 'password123',
              email,
              verification_code: '777777',
            });
            expect(res.statusCode).toBe(200);
          },
        );
      });
    });
  });
});

describe('sign-in limits and the human check', () => {
  it('limits sign-in attempts per address with 429', async () => {
    const t = await createTestApp({ config: { criticalRateLimit: { max: 3, windowMs: 60_000 } } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await t.call({
          method: 'POST',
          url: '/api/user/login',
          payload: { username: 'root', password: 'wrong-password' },
        });
        statuses.push(res.statusCode);
        if (i < 3) expect(res.json()).toMatchObject({ success: false });
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      const limited = await t.call({ method: 'POST', url: '/api/user/register', payload: {} });
      expectRefusal(limited); // register has its own counter
    } finally {
      await t.close();
    }
  });

  it('asks for the Turnstile token on login and register when the check is on', async () => {
    const fake = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const token = new URLSearchParams(body).get('response');
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ success: token === 'good-token' }));
      });
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const { port } = fake.address() as AddressInfo;
    const t = await createTestApp({ endpoints: { turnstile: `http://127.0.0.1:${port}` } });
    try {
      await t.app.ctx.options.set('TurnstileCheckEnabled', 'true');
      const creds = { username: 'root', password: '123456' };
      const missing = await t.call({ method: 'POST', url: '/api/user/login', payload: creds });
      expect(failure(missing)).toMatchObject({ status: 200, message: MSG.turnstileChecking });
      const bad = await t.call({ method: 'POST', url: '/api/user/login?turnstile=bad', payload: creds });
      expect(failure(bad)).toMatchObject({ status: 200, message: MSG.turnstileFailed });
      const good = await t.call({
        method: 'POST',
        url: '/api/user/login?turnstile=good-token',
        payload: creds,
      });
      expect(good.statusCode).toBe(200);
      const reg = await t.call({
        method: 'POST',
        url: '/api/user/register',
        payload: { username: 'turnstiled', password: 'password123' },
      });
      expect(failure(reg)).toMatchObject({ status: 200, message: MSG.turnstileChecking });
    } finally {
      await t.close();
      await new Promise((resolve) => fake.close(resolve));
    }
  });
});
