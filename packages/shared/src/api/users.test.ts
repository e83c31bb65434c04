import { describe, expect, it } from 'vitest';
import { MSG } from '../messages.js';
import {
  makeAffTransferSchema,
  parseUserSetting,
  recordsIpLog,
  registerSchema,
  userListQuerySchema,
  userSearchQuerySchema,
  userUpdateSchema,
} from './users.js';

const firstMessage = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  result.success ? null : result.error?.issues[0]?.message;

describe('user payload schemas', () => {
  it('pages from 0, never refuses a page number, and keeps page_size only when it was sent', () => {
    expect(userListQuerySchema.parse({})).toEqual({ p: 0 });
    expect(userListQuerySchema.parse({ p: '3', page_size: '50' })).toEqual({ p: 3, page_size: 50 });
    expect(userListQuerySchema.parse({ p: '-1', page_size: '5000' })).toEqual({ p: 0, page_size: 100 });
    expect(userListQuerySchema.parse({ p: 'x', page_size: '0' })).toEqual({ p: 0, page_size: 10 });
    expect(userSearchQuerySchema.parse({ keyword: '  ann ' })).toEqual({ p: 0, keyword: 'ann', group: '' });
  });

  it('trims the username and compares the confirmation with the password', () => {
    expect(registerSchema.parse({ username: ' ann ', password: 'password1' }).username).toBe('ann');
    const differ = registerSchema.safeParse({
      username: 'ann',
      password: 'password1',
      password2: 'password2',
    });
    expect(firstMessage(differ)).toBe(MSG.passwordsDiffer);
  });

  it('treats an empty password on edit as "keep", and checks a given one', () => {
    expect(userUpdateSchema.parse({ id: 5, password: '' }).password).toBe('');
    expect(firstMessage(userUpdateSchema.safeParse({ id: 5, password: 'short' }))).toBe(MSG.passwordTooShort);
    expect(firstMessage(userUpdateSchema.safeParse({ id: 'x' }))).toBe(MSG.userIdInvalid);
  });

  it('sets the transfer minimum to one unit of QuotaPerUnit', () => {
    const schema = makeAffTransferSchema(1000);
    expect(schema.parse({ quota: 1000 })).toEqual({ quota: 1000 });
    expect(firstMessage(schema.safeParse({ quota: 999 }))).toBe(MSG.transferMinimum(1000));
    expect(firstMessage(schema.safeParse({ quota: 1000.5 }))).toBe(MSG.transferMinimum(1000));
  });

  it('reads stored quota warning settings, and nothing from text that is not ours', () => {
    const stored = { notify_type: 'webhook', quota_warning_threshold: 5, webhook_url: 'https://h.example/x' };
    expect(parseUserSetting(JSON.stringify(stored))).toEqual({
      ...stored,
      webhook_secret: '',
      notification_email: '',
    });
    expect(parseUserSetting(null)).toBeNull();
    expect(parseUserSetting('')).toBeNull();
    expect(parseUserSetting('{not json')).toBeNull();
    expect(parseUserSetting(JSON.stringify({ notify_type: 'bark', quota_warning_threshold: 5 }))).toBeNull();
  });

  it('records the IP in logs unless the settings say record_ip_log false', () => {
    expect(recordsIpLog(null)).toBe(true);
    expect(recordsIpLog('')).toBe(true);
    expect(recordsIpLog('{not json')).toBe(true);
    expect(recordsIpLog(JSON.stringify({ notify_type: 'email', quota_warning_threshold: 5 }))).toBe(true);
    expect(recordsIpLog(JSON.stringify({ record_ip_log: true }))).toBe(true);
    // Settings this console does not otherwise read (another notify type) still switch it off.
    expect(recordsIpLog(JSON.stringify({ notify_type: 'bark', record_ip_log: false }))).toBe(false);
  });
});
