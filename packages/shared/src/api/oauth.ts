// Payloads of the third-party sign-in and binding calls (/api/oauth/*).
import { z } from 'zod';
import { MSG } from '../messages.js';

/** An OAuth state is good for 10 minutes and one callback. */
export const OAUTH_STATE_TTL_SECONDS = 10 * 60;
/** Telegram widget data older than this is refused (replay protection). */
export const TELEGRAM_AUTH_MAX_AGE_SECONDS = 24 * 3600;

const optionalAff = z.string().trim().max(32).optional().catch(undefined);

/** GET /api/oauth/state. */
export const oauthStateQuerySchema = z.object({ aff: optionalAff });

/** GET /api/oauth/github and /api/oauth/linuxdo: what the provider sent back to /oauth/<provider>. */
export const oauthCallbackQuerySchema = z.object({
  code: z.string({ error: MSG.oauthCodeMissing }).trim().min(1, { error: MSG.oauthCodeMissing }),
  state: z.string({ error: MSG.oauthStateInvalid }).trim().min(1, { error: MSG.oauthStateInvalid }),
});

/** GET /api/oauth/wechat and /api/oauth/wechat/bind; aff only matters when the login creates an account. */
export const wechatCodeQuerySchema = z.object({
  code: z.string({ error: MSG.wechatCodeInvalid }).trim().min(1, { error: MSG.wechatCodeInvalid }),
  aff: optionalAff,
});

const digits = z
  .string({ error: MSG.telegramAuthInvalid })
  .regex(/^\d{1,20}$/, { error: MSG.telegramAuthInvalid });

/** GET /api/oauth/telegram/login and /bind: the widget's user data, signed by Telegram. */
export const telegramAuthQuerySchema = z.object({
  id: digits,
  auth_date: digits,
  hash: z
    .string({ error: MSG.telegramAuthInvalid })
    .regex(/^[0-9a-f]{64}$/i, { error: MSG.telegramAuthInvalid }),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  username: z.string().optional(),
  photo_url: z.string().optional(),
  /** Added by the console, not signed by Telegram. */
  lang: z.string().optional(),
});
export type TelegramAuthQuery = z.infer<typeof telegramAuthQuerySchema>;
