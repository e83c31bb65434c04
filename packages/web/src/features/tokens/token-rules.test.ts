// The token page's pure rules: expiry parsing and shortcuts, what the drawer sends, status labels
// and chat links.
import type { TokenView } from '@sluice/shared';
import { describe, expect, it } from 'vitest';
import { dayjs } from '../../lib/dates';
import {
  NEW_TOKEN_VALUES,
  expiryShortcutText,
  parseExpiry,
  toCreateInput,
  valuesFromToken,
} from './token-form';
import { chatLinks, tokenStatusLabel } from './token-labels';

describe('expiry', () => {
  it('reads empty and -1 as never, dates as unix seconds, anything else as an error', () => {
    expect(parseExpiry('')).toBe(-1);
    expect(parseExpiry(' -1 ')).toBe(-1);
    expect(parseExpiry('2030-01-02 03:04:05')).toBe(dayjs('2030-01-02T03:04:05').unix());
    expect(parseExpiry('2030-01-02 03:04')).toBe(dayjs('2030-01-02T03:04:00').unix());
    expect(parseExpiry('2030-01-02')).toBe(dayjs('2030-01-02T00:00:00').unix());
    expect(parseExpiry('next tuesday')).toBeNull();
    expect(parseExpiry('2030-13-45 10:00:00')).toBeNull();
  });

  it('shortcuts: never is empty, a month is 30 days', () => {
    const now = dayjs('2030-01-31T12:00:00');
    expect(expiryShortcutText('never', now)).toBe('');
    expect(expiryShortcutText('hour', now)).toBe('2030-01-31 13:00:00');
    expect(expiryShortcutText('day', now)).toBe('2030-02-01 12:00:00');
    expect(expiryShortcutText('month', now)).toBe('2030-03-02 12:00:00');
  });
});

describe('drawer values', () => {
  it('a new token defaults to 500000 quota, never expiring, one token, own group', () => {
    expect(toCreateInput({ ...NEW_TOKEN_VALUES, name: ' bot ' })).toEqual({
      name: 'bot',
      remain_quota: 500000,
      unlimited_quota: false,
      expired_time: -1,
      model_limits_enabled: false,
      model_limits: '',
      allow_ips: '',
      group: '',
      count: 1,
    });
  });

  it('an existing token round-trips through the form (model list, expiry text, group)', () => {
    const token = {
      id: 4,
      name: 'ci',
      key: 'abc',
      status: 1,
      remain_quota: 7,
      unlimited_quota: false,
      used_quota: 0,
      expired_time: dayjs('2031-05-06T07:08:09').unix(),
      model_limits_enabled: true,
      model_limits: 'gpt-4o,claude-3',
      allow_ips: '10.0.0.1',
      group: 'vip',
    } as TokenView;
    const values = valuesFromToken(token);
    expect(values.expiry).toBe('2031-05-06 07:08:09');
    expect(values.model_limits).toEqual(['gpt-4o', 'claude-3']);
    expect(values.group).toBe('vip');
    const { count, ...sent } = toCreateInput(values);
    expect(count).toBe(1);
    expect(sent).toMatchObject({ expired_time: token.expired_time, model_limits: 'gpt-4o,claude-3' });
  });
});

describe('status labels', () => {
  it('follows the spec, with model limits shown on enabled tokens', () => {
    const label = (status: number, limits = false) =>
      tokenStatusLabel({ status, model_limits_enabled: limits });
    expect(label(1)).toBe('enabled');
    expect(label(1, true)).toBe('enabledLimited');
    expect(label(2, true)).toBe('disabled');
    expect(label(3)).toBe('expired');
    expect(label(4)).toBe('exhausted');
    expect(label(9)).toBe('unknown');
  });
});

describe('chat links', () => {
  it('puts the full key and the encoded address into each configured template', () => {
    const links = chatLinks(
      [{ NextChat: 'https://chat.example/#/?settings={"key":"{key}","url":"{address}"}' }, { Broken: '' }],
      'abc123',
      'https://api.example.com',
    );
    expect(links).toEqual([
      {
        name: 'NextChat',
        url: 'https://chat.example/#/?settings={"key":"sk-abc123","url":"https%3A%2F%2Fapi.example.com"}',
      },
      { name: 'Broken', url: null },
    ]);
  });
});
