// SMTP over STARTTLS checks the server's certificate: a self-signed one is refused unless the operator
// says it is expected (SMTPAllowSelfSigned).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSmtp } from '../test-support/fakes/smtp.js';
import type { FakeSmtp } from '../test-support/fakes/smtp.js';
import { setOptions } from '../test-support/relay-kit.js';
import { createTestApp } from '../test-support/test-app.js';
import type { TestApp } from '../test-support/test-app.js';

const LOGIN = { user: 'mailer@sluice.test', pass: 'smtp-password' };

describe('SMTP certificates', () => {
  let smtp: FakeSmtp;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startFakeSmtp(LOGIN, { starttls: true });
    t = await createTestApp();
    await setOptions(t, {
      SMTPServer: smtp.host,
      SMTPPort: smtp.port,
      SMTPAccount: LOGIN.user,
      SMTPToken: LOGIN.pass,
      SMTPFrom: LOGIN.user,
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const send = (to: string) => t.app.ctx.mailer.send({ to, subject: 'hello', html: '<p>hi</p>' });

  it('refuses a self-signed certificate on STARTTLS by default, sending nothing', async () => {
    await expect(send('refused@example.com')).rejects.toThrow(/certificate/i);
    expect(smtp.messages.filter((m) => m.to.includes('refused@example.com'))).toEqual([]);
  });

  it('sends through it when the operator allows a self-signed server', async () => {
    await setOptions(t, { SMTPAllowSelfSigned: true });
    await send('allowed@example.com');
    expect(smtp.lastTo('allowed@example.com').subject).toBe('hello');
  });
});
