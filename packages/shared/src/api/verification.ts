// Payloads of the email-code, password-reset and email-binding calls.
import { z } from 'zod';
import { MSG } from '../messages.js';

/** Email codes are 6 digits, valid 10 minutes; a new one may be asked for after 30 seconds. */
export const EMAIL_CODE_LENGTH = 6;
export const EMAIL_CODE_TTL_SECONDS = 10 * 60;
export const EMAIL_CODE_RESEND_SECONDS = 30;
/** A reset link works once, for 15 minutes. */
export const RESET_TOKEN_TTL_SECONDS = 15 * 60;
/** Length of the password the reset gives out; the user changes it in personal settings. */
export const RESET_PASSWORD_LENGTH = 12;

/** The users table keeps at most 255 characters of an email address. */
export const EMAIL_MAX_LENGTH = 255;
export const emailTooLong = `the email address must be at most ${EMAIL_MAX_LENGTH} characters`;

/** Presence and size only: the server's email rules judge the address itself (shape, whitelist, aliases). */
export const emailAddressSchema = z
  .string({ error: MSG.enterEmail })
  .trim()
  .min(1, { error: MSG.enterEmail })
  .max(EMAIL_MAX_LENGTH, { error: emailTooLong });

/** GET /api/verification and GET /api/reset_password. */
export const emailCodeRequestSchema = z.object({
  email: emailAddressSchema,
  turnstile: z.string().optional(),
});

/** POST /api/user/reset: the email and token from the mailed link. */
export const passwordResetConfirmSchema = z.object({
  email: emailAddressSchema,
  token: z.string({ error: MSG.resetLinkInvalid }).trim().min(1, { error: MSG.resetLinkInvalid }),
});
export type PasswordResetConfirmInput = z.infer<typeof passwordResetConfirmSchema>;

/** GET /api/oauth/email/bind. */
export const emailBindSchema = z.object({
  email: emailAddressSchema,
  code: z.string({ error: MSG.enterEmailCode }).trim().min(1, { error: MSG.enterEmailCode }),
});
export type EmailBindInput = z.infer<typeof emailBindSchema>;
