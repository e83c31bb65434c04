// Stands in for the Telegram Login Widget: produces the user data Telegram would hand the browser,
// signed with the bot token. Written separately from the server's check so a shared mistake cannot
// make both agree.
import { createHash, createHmac } from 'node:crypto';

export interface TelegramUser {
  id: number;
  first_name?: string;
  last_name?: string;
  username?: string;
  photo_url?: string;
}

export function signTelegramLogin(
  botToken: string,
  user: TelegramUser,
  authDate: number,
): Record<string, string> {
  const fields: Record<string, string> = { auth_date: String(authDate) };
  for (const [key, value] of Object.entries(user)) {
    if (value !== undefined) fields[key] = String(value);
  }
  const lines: string[] = [];
  for (const key of Object.keys(fields).sort()) lines.push(`${key}=${fields[key]}`);
  const secretKey = createHash('sha256').update(botToken, 'utf8').digest();
  const hash = createHmac('sha256', secretKey).update(lines.join('\n'), 'utf8').digest('hex');
  return { ...fields, hash };
}
