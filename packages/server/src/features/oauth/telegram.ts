// Telegram Login Widget: the widget hands the browser the user's data signed with the bot token,
// checked as Telegram documents it (https://core.telegram.org/widgets/login#checking-authorization).
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { MSG, TELEGRAM_AUTH_MAX_AGE_SECONDS, telegramAuthQuerySchema } from '@sluice/shared';
import { badRequest, parseInput } from '../../http/envelope.js';
import type { ExternalIdentity } from './external-account.js';

/** Fields the console adds to the widget's data; Telegram did not sign them. */
const UNSIGNED_FIELDS = new Set(['hash', 'lang']);

/** "key=value" lines of every signed field, sorted by key. */
export function telegramCheckString(fields: Record<string, string>): string {
  return Object.keys(fields)
    .filter((key) => !UNSIGNED_FIELDS.has(key))
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join('\n');
}

export function telegramSignature(fields: Record<string, string>, botToken: string): string {
  const secret = createHash('sha256').update(botToken).digest();
  return createHmac('sha256', secret).update(telegramCheckString(fields)).digest('hex');
}

/** How far ahead of our clock a fresh signature may be dated (the two clocks drift a little). */
const TELEGRAM_CLOCK_SKEW_SECONDS = 60;

/**
 * True when the hash is Telegram's signature of the other fields and auth_date is recent: not older
 * than the allowed age, and not in the future beyond clock drift (a date far ahead would keep a
 * captured assertion usable for as long as it likes).
 */
export function isValidTelegramAuth(fields: Record<string, string>, botToken: string, now: number): boolean {
  const expected = Buffer.from(telegramSignature(fields, botToken), 'utf8');
  const given = Buffer.from((fields.hash ?? '').toLowerCase(), 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
  const authDate = Number(fields.auth_date);
  return (
    Number.isInteger(authDate) &&
    now - authDate <= TELEGRAM_AUTH_MAX_AGE_SECONDS &&
    authDate - now <= TELEGRAM_CLOCK_SKEW_SECONDS
  );
}

/** Checks the widget data from the query string and names the Telegram account. */
export function telegramIdentity(query: unknown, botToken: string, now: number): ExternalIdentity {
  const data = parseInput(telegramAuthQuerySchema, query);
  // The signature covers every received field, so the raw strings are checked, not the parsed copy.
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(query as Record<string, unknown>)) {
    if (typeof value !== 'string') throw badRequest(MSG.telegramAuthInvalid);
    fields[key] = value;
  }
  if (!isValidTelegramAuth(fields, botToken, now)) throw badRequest(MSG.telegramAuthInvalid);
  const fullName = [data.first_name, data.last_name].filter(Boolean).join(' ');
  return {
    provider: 'Telegram',
    column: 'telegram_id',
    externalId: data.id,
    usernamePrefix: 'telegram',
    ...(data.username ? { preferredUsername: data.username } : {}),
    displayName: fullName || data.username || '',
  };
}
