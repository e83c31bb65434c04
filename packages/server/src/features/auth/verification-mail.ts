// Texts of the mails the gateway sends: the email verification code and the password reset link.
import type { MailMessage } from '../../platform/mailer.js';
import { escapeHtml } from '../../platform/html.js';

export function verificationCodeMail(opts: {
  to: string;
  systemName: string;
  code: string;
  validMinutes: number;
}): MailMessage {
  const name = escapeHtml(opts.systemName);
  return {
    to: opts.to,
    subject: `${opts.systemName} email verification`,
    html:
      `<p>Hello,</p><p>You are verifying your email address for ${name}.</p>` +
      `<p>Your verification code is: <strong>${escapeHtml(opts.code)}</strong></p>` +
      `<p>The code is valid for ${opts.validMinutes} minutes. If you did not ask for it, ignore this mail.</p>`,
  };
}

export function passwordResetMail(opts: {
  to: string;
  systemName: string;
  link: string;
  validMinutes: number;
}): MailMessage {
  const name = escapeHtml(opts.systemName);
  const link = escapeHtml(opts.link);
  return {
    to: opts.to,
    subject: `${opts.systemName} password reset`,
    html:
      `<p>Hello,</p><p>Someone asked to reset the password of your ${name} account.</p>` +
      `<p>Open <a href="${link}">this link</a> to get a new password: ${link}</p>` +
      `<p>The link works once and is valid for ${opts.validMinutes} minutes. ` +
      `If you did not ask for it, ignore this mail; your password stays as it is.</p>`,
  };
}
