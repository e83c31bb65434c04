// The list's inline priority and weight rules, for one channel and for a tag, and how the list
// colours response times and reads the auto-disable reason.
import { describe, expect, it } from 'vitest';
import { autoDisableInfo, channelStatusKind, formatBalance, responseTimeColor } from './channel-display';
import { parseChannelInline, parseTagInline } from './inline-edit';

describe('channel inline edits', () => {
  it('ignores a blank value', () => {
    expect(parseChannelInline('priority', '  ')).toEqual({ kind: 'skip' });
    expect(parseChannelInline('weight', '')).toEqual({ kind: 'skip' });
  });

  it('takes an integer priority from -999', () => {
    expect(parseChannelInline('priority', ' 5 ')).toEqual({ kind: 'set', value: 5 });
    expect(parseChannelInline('priority', '-999')).toEqual({ kind: 'set', value: -999 });
    expect(parseChannelInline('priority', '-1000')).toEqual({ kind: 'error', key: 'msg.priorityTooLow' });
    expect(parseChannelInline('priority', '1.5')).toEqual({ kind: 'error', key: 'msg.priorityNotInteger' });
    expect(parseChannelInline('priority', 'high')).toEqual({ kind: 'error', key: 'msg.priorityNotInteger' });
  });

  it('sets a weight below 0 to 0', () => {
    expect(parseChannelInline('weight', '-4')).toEqual({ kind: 'set', value: 0 });
    expect(parseChannelInline('weight', '7')).toEqual({ kind: 'set', value: 7 });
    expect(parseChannelInline('weight', '2.5')).toEqual({ kind: 'error', key: 'channels.weightNotInteger' });
  });
});

describe('tag inline edits', () => {
  it('needs an integer priority', () => {
    expect(parseTagInline('priority', '3')).toEqual({ kind: 'set', value: 3 });
    expect(parseTagInline('priority', '-2')).toEqual({ kind: 'set', value: -2 });
    expect(parseTagInline('priority', 'x')).toEqual({ kind: 'error', key: 'msg.priorityNotInteger' });
    expect(parseTagInline('priority', '')).toEqual({ kind: 'skip' });
  });

  it('needs a non-negative integer weight (no silent raise to 0)', () => {
    expect(parseTagInline('weight', '0')).toEqual({ kind: 'set', value: 0 });
    expect(parseTagInline('weight', '-1')).toEqual({ kind: 'error', key: 'msg.weightNotNonNegative' });
    expect(parseTagInline('weight', '1.2')).toEqual({ kind: 'error', key: 'msg.weightNotNonNegative' });
  });
});

describe('list display', () => {
  it('colours response times: untested, up to 1 s, 3 s, 5 s, slower', () => {
    expect(responseTimeColor(0)).toBe('default');
    expect(responseTimeColor(1)).toBe('green');
    expect(responseTimeColor(1000)).toBe('green');
    expect(responseTimeColor(1001)).toBe('lime');
    expect(responseTimeColor(3000)).toBe('lime');
    expect(responseTimeColor(5000)).toBe('yellow');
    expect(responseTimeColor(5001)).toBe('red');
  });

  it('names statuses 1, 2, 3 and anything else unknown', () => {
    expect([1, 2, 3, 0, 9].map(channelStatusKind)).toEqual([
      'enabled',
      'disabled',
      'autoDisabled',
      'unknown',
      'unknown',
    ]);
  });

  it('reads the auto-disable reason and time from other_info', () => {
    expect(autoDisableInfo('{"status_reason":"quota exceeded","status_time":1700000000}')).toEqual({
      reason: 'quota exceeded',
      time: 1700000000,
    });
    expect(autoDisableInfo('{}')).toEqual({ reason: null, time: null });
    expect(autoDisableInfo('not json')).toEqual({ reason: null, time: null });
  });

  it('shows a balance in the currency its type reports, none for types without one', () => {
    expect(formatBalance(1, 87.66)).toBe('$87.66');
    expect(formatBalance(40, 12)).toBe('¥12.00');
    expect(formatBalance(14, 5)).toBeNull();
  });
});
