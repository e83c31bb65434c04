// Email verification codes and password reset. Codes and reset tokens live in the database
// (ctx.codes), so every node can check what another node issued.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  EMAIL_CODE_LENGTH,
  EMAIL_CODE_RESEND_SECONDS,
  EMAIL_CODE_TTL_SECONDS,
  MSG,
  RESET_PASSWORD_LENGTH,
  RESET_TOKEN_TTL_SECONDS,
  emailCodeRequestSchema,
  passwordResetConfirmSchema,
} from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import { ApiError, badRequest, conflict, notFound, ok, parseInput } from '../../http/envelope.js';
import { criticalRateLimit } from '../../http/rate-limits.js';
import type { MailMessage } from '../../platform/mailer.js';
import { randomDigits, randomString } from '../../platform/random.js';
import { findUserByBinding, updateLiveUser } from '../users/users.repository.js';
import { assertEmailAllowed, normaliseEmail } from './email-rules.js';
import { hashPassword } from './password.js';
import { serverAddress } from './server-address.js';
import { requireTurnstile } from './turnstile.js';
import type { CodePurpose } from './verification-codes.js';
import { passwordResetMail, verificationCodeMail } from './verification-mail.js';

export async function registerVerificationRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const limited = { auth: 'public' as const, rateLimit: criticalRateLimit(ctx.config) };

  const requireSmtp = () => {
    if (!ctx.mailer.configured()) throw new ApiError(503, MSG.smtpNotConfigured);
  };

  // One mail per 30 seconds per address and purpose, so the routes cannot be used to flood a mailbox.
  const refuseEarlyResend = async (purpose: CodePurpose, email: string) => {
    const age = await ctx.codes.ageOfLatest(purpose, email);
    if (age !== null && age < EMAIL_CODE_RESEND_SECONDS) throw new ApiError(429, MSG.resendTooSoon);
  };

  // A code whose mail never left is withdrawn, so the user can ask again at once.
  const sendOrWithdraw = async (req: FastifyRequest, purpose: CodePurpose, mail: MailMessage) => {
    try {
      await ctx.mailer.send(mail);
    } catch (error) {
      await ctx.codes.take(purpose, mail.to);
      req.log.error({ err: error }, 'sending mail failed');
      throw new ApiError(502, MSG.mailSendFailed);
    }
  };

  app.get('/api/verification', { config: limited }, async (req) => {
    const email = normaliseEmail(parseInput(emailCodeRequestSchema, req.query).email);
    assertEmailAllowed(ctx.options, email);
    await requireTurnstile(ctx, req);
    requireSmtp();
    const owner = await findUserByBinding(ctx.db, 'email', email);
    if (owner && Number(owner.id) !== Number(req.user?.id)) throw conflict(MSG.emailTaken);
    await refuseEarlyResend('email_verify', email);
    const code = randomDigits(EMAIL_CODE_LENGTH);
    await ctx.codes.issue('email_verify', email, code, EMAIL_CODE_TTL_SECONDS);
    await sendOrWithdraw(
      req,
      'email_verify',
      verificationCodeMail({
        to: email,
        systemName: ctx.options.get('SystemName'),
        code,
        validMinutes: EMAIL_CODE_TTL_SECONDS / 60,
      }),
    );
    return ok(null);
  });

  app.get('/api/reset_password', { config: limited }, async (req) => {
    const email = normaliseEmail(parseInput(emailCodeRequestSchema, req.query).email);
    await requireTurnstile(ctx, req);
    requireSmtp();
    const site = serverAddress(ctx);
    const user = await findUserByBinding(ctx.db, 'email', email);
    if (!user) throw notFound(MSG.emailNotRegistered);
    await refuseEarlyResend('password_reset', email);
    const token = randomString(32);
    await ctx.codes.issue('password_reset', email, token, RESET_TOKEN_TTL_SECONDS);
    const query = new URLSearchParams({ email, token });
    await sendOrWithdraw(
      req,
      'password_reset',
      passwordResetMail({
        to: email,
        systemName: ctx.options.get('SystemName'),
        link: `${site}/user/reset?${query.toString()}`,
        validMinutes: RESET_TOKEN_TTL_SECONDS / 60,
      }),
    );
    return ok(null);
  });

  // The reset-confirm page trades the mailed token for a new random password, shown once.
  app.post('/api/user/reset', { config: limited }, async (req) => {
    const input = parseInput(passwordResetConfirmSchema, req.body);
    const email = normaliseEmail(input.email);
    if (!(await ctx.codes.check('password_reset', email, input.token, { consume: true }))) {
      throw badRequest(MSG.resetLinkInvalid);
    }
    const user = await findUserByBinding(ctx.db, 'email', email);
    if (!user) throw badRequest(MSG.resetLinkInvalid);
    const password = randomString(RESET_PASSWORD_LENGTH);
    const hash = await hashPassword(password, ctx.config.bcryptCost);
    if (!(await updateLiveUser(ctx.db, Number(user.id), { password: hash, password_change_required: 0 }))) {
      throw badRequest(MSG.resetLinkInvalid);
    }
    await ctx.sessions.revokeUser(Number(user.id));
    return ok(password);
  });
}
