import { describe, expect, it } from 'vitest';
import { isValidTelegramAuth, telegramCheckString } from './telegram.js';

// Signed by an independent implementation of Telegram's rule (Python hashlib/hmac).
const BOT_TOKEN = '123456:TEST-bot-token';
const SIGNED = {
  id: '424242',
  first_name: 'Ada',
  last_name: 'Lovelace',
  username: 'ada_l',
  photo_url: 'https://t.me/i/ada.jpg',
  auth_date: '1700000000',
  hash: '43ea663cb35aa21b2cb411e4eb06f6e3832d6adeb53c87ef13785af1308be182',
};
const NOW = 1700000000 + 60;

describe('Telegram widget check', () => {
  it('accepts data signed with the bot token, whatever language the console adds', () => {
    expect(isValidTelegramAuth(SIGNED, BOT_TOKEN, NOW)).toBe(true);
    expect(isValidTelegramAuth({ ...SIGNED, lang: 'zh-CN' }, BOT_TOKEN, NOW)).toBe(true);
    expect(isValidTelegramAuth({ ...SIGNED, hash: SIGNED.hash.toUpperCase() }, BOT_TOKEN, NOW)).toBe(true);
  });

  it('sorts the signed fields by key, one key=value per line, without hash and lang', () => {
    expect(telegramCheckString({ b: '2', hash: 'x', a: '1', lang: 'en' })).toBe('a=1\nb=2');
  });

  it('refuses a changed field, an added field, another bot token and a cut hash', () => {
    expect(isValidTelegramAuth({ ...SIGNED, id: '424243' }, BOT_TOKEN, NOW)).toBe(false);
    expect(isValidTelegramAuth({ ...SIGNED, role: 'admin' }, BOT_TOKEN, NOW)).toBe(false);
    expect(isValidTelegramAuth(SIGNED, '654321:other-token', NOW)).toBe(false);
    expect(isValidTelegramAuth({ ...SIGNED, hash: SIGNED.hash.slice(0, 32) }, BOT_TOKEN, NOW)).toBe(false);
  });

  it('refuses data dated in the future beyond a minute of clock drift', () => {
    expect(isValidTelegramAuth(SIGNED, BOT_TOKEN, 1700000000 - 60)).toBe(true);
    expect(isValidTelegramAuth(SIGNED, BOT_TOKEN, 1700000000 - 61)).toBe(false);
    expect(isValidTelegramAuth(SIGNED, BOT_TOKEN, 1700000000 - 24 * 3600)).toBe(false);
  });

  it('refuses data signed more than a day ago', () => {
    expect(isValidTelegramAuth(SIGNED, BOT_TOKEN, 1700000000 + 24 * 3600)).toBe(true);
    expect(isValidTelegramAuth(SIGNED, BOT_TOKEN, 1700000000 + 24 * 3600 + 1)).toBe(false);
  });
});
