import { describe, expect, it } from 'vitest';
import { parseAllowIps } from './allow-ips.js';
import { extractRelayKey, parseRelayKey } from './relay-key.js';

describe('relay key', () => {
  it('reads the key from Authorization, x-api-key, x-goog-api-key, mj-api-secret or ?key=', () => {
    expect(extractRelayKey({ authorization: 'Bearer sk-abc' }, {})).toBe('sk-abc');
    expect(extractRelayKey({ 'x-api-key': 'sk-claude' }, {})).toBe('sk-claude');
    expect(extractRelayKey({ 'x-goog-api-key': 'sk-gem' }, {})).toBe('sk-gem');
    expect(extractRelayKey({ 'mj-api-secret': 'sk-mj' }, {})).toBe('sk-mj');
    expect(extractRelayKey({}, { key: 'sk-query' })).toBe('sk-query');
    expect(extractRelayKey({ authorization: 'Bearer ' }, {})).toBeUndefined();
  });

  it('strips sk- and splits a pinned channel id', () => {
    expect(parseRelayKey('sk-abcdef')).toEqual({ key: 'abcdef' });
    expect(parseRelayKey('sk-abcdef-12')).toEqual({ key: 'abcdef', channelId: 12 });
    expect(parseRelayKey('abcdef')).toEqual({ key: 'abcdef' });
    expect(parseRelayKey('sk-abc-def')).toEqual({ key: 'abc-def' });
  });
});

describe('allow_ips', () => {
  it('allows listed addresses and CIDR ranges, one per line, IPv4 and IPv6', () => {
    const list = parseAllowIps('10.0.0.0/8\n192.168.1.7\n2001:db8::/32\n\nnot-an-ip');
    expect(list?.allows('10.1.2.3')).toBe(true);
    expect(list?.allows('::ffff:10.1.2.3')).toBe(true);
    expect(list?.allows('192.168.1.7')).toBe(true);
    expect(list?.allows('192.168.1.8')).toBe(false);
    expect(list?.allows('2001:db8::1')).toBe(true);
    expect(list?.allows('2001:db9::1')).toBe(false);
  });

  it('treats an empty list as no restriction', () => {
    expect(parseAllowIps('  \n ')).toBeUndefined();
  });
});
