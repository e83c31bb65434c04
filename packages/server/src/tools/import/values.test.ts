// Reading columns as the source drivers hand them back: Go's datetime text, 64-bit integers as strings,
// booleans in every spelling, JSON already parsed.
import { describe, expect, it } from 'vitest';
import { flagOf, intOf, jsonTextOf, textOf, unixSecondsOf } from './values.js';
import { normaliseSourceDsn, sourceDialect } from './sources.js';

describe('reading source values', () => {
  it('reads soft-delete times in each driver’s form as unix seconds, and the unset ones as null', () => {
    const at = Date.parse('2025-01-02T03:04:05Z') / 1000;
    expect(unixSecondsOf('2025-01-02 11:04:05.123456789+08:00')).toBe(at);
    expect(unixSecondsOf('2025-01-02 03:04:05Z')).toBe(at);
    expect(unixSecondsOf('2025-01-02T03:04:05.5+0000')).toBe(at);
    expect(unixSecondsOf(new Date(at * 1000))).toBe(at);
    expect(unixSecondsOf(at)).toBe(at);
    expect(unixSecondsOf(at * 1000)).toBe(at);
    expect(unixSecondsOf(String(at))).toBe(at);
    for (const unset of [null, undefined, '', 0, '0001-01-01 00:00:00+00:00', 'yesterday']) {
      expect(unixSecondsOf(unset)).toBeNull();
    }
  });

  it('reads numbers, flags and text whatever type the driver chose', () => {
    expect(intOf('9007199254740', 0)).toBe(9_007_199_254_740);
    expect(intOf(12n, 0)).toBe(12);
    expect(intOf(null, -1)).toBe(-1);
    expect(intOf('abc', 7)).toBe(7);
    expect(intOf(true, 0)).toBe(1);
    expect([true, 1, '1', 't', 'true', Buffer.from([1])].map((v) => flagOf(v, 0))).toEqual([
      1, 1, 1, 1, 1, 1,
    ]);
    expect([false, 0, '0', 'f', 'false', Buffer.from([0])].map((v) => flagOf(v, 1))).toEqual([
      0, 0, 0, 0, 0, 0,
    ]);
    expect(flagOf(null, 1)).toBe(1);
    expect(textOf({ input: 'x' })).toBe('{"input":"x"}');
    expect(textOf(Buffer.from('hé'))).toBe('hé');
    expect(jsonTextOf(' {"a":1} ', '')).toBe('{"a":1}');
    expect(jsonTextOf(null, '{}')).toBe('{}');
    expect(jsonTextOf('a => b', '')).toBeUndefined();
  });

  it('takes a source as a file, a URL, or Go’s MySQL DSN', () => {
    expect(sourceDialect('./one-api.db')).toBe('sqlite');
    expect(sourceDialect('postgresql://u:p@h/db')).toBe('postgres');
    expect(normaliseSourceDsn('oneapi:p@ss@tcp(db.local:3306)/oneapi?charset=utf8mb4&parseTime=True')).toBe(
      'mysql://oneapi:p%40ss@db.local:3306/oneapi',
    );
    expect(normaliseSourceDsn('root@tcp(127.0.0.1:3306)/new-api')).toBe(
      'mysql://root@127.0.0.1:3306/new-api',
    );
  });
});
