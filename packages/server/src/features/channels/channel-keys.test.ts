import { describe, expect, it } from 'vitest';
import { MSG } from '@sluice/shared';
import { normalizeUpdateKey, splitChannelKeys, splitJsonObjects } from './channel-keys.js';

describe('splitChannelKeys', () => {
  it('gives one key per non-blank line, trimmed and without repeats', () => {
    expect(splitChannelKeys(1, ' sk-a \n\nsk-b\r\nsk-a\n')).toEqual(['sk-a', 'sk-b']);
    expect(splitChannelKeys(33, 'ak|sk|us-east-1')).toEqual(['ak|sk|us-east-1']);
    expect(splitChannelKeys(1, '  \n ')).toEqual([]);
  });

  it('splits Vertex service-account JSON given as an array or as objects in a row', () => {
    const a = { type: 'service_account', private_key: '-----BEGIN-----\n}{ "x"\\"', client_email: 'a@x' };
    const b = { type: 'service_account', client_email: 'b@x', nested: { deep: [1, { x: '}' }] } };
    const expected = [JSON.stringify(a), JSON.stringify(b)];
    expect(splitChannelKeys(41, JSON.stringify([a, b], null, 2))).toEqual(expected);
    expect(splitChannelKeys(41, `${JSON.stringify(a, null, 2)}\n\n${JSON.stringify(b)}`)).toEqual(expected);
    expect(splitChannelKeys(41, `${JSON.stringify(a)},${JSON.stringify(b)}`)).toEqual(expected);
    expect(splitChannelKeys(41, JSON.stringify(a))).toEqual([JSON.stringify(a)]);
  });

  it('refuses Vertex keys that are not JSON objects', () => {
    for (const bad of ['sk-plain', '{"a":1', '[1,2]', '[]', '{"a":1} x', '{"a":}']) {
      expect(() => splitChannelKeys(41, bad), bad).toThrow(MSG.vertexKeyInvalid);
    }
  });
});

describe('splitJsonObjects', () => {
  it('ignores braces inside strings', () => {
    expect(splitJsonObjects('{"a":"}"} {"b":"{"}')).toEqual(['{"a":"}"}', '{"b":"{"}']);
    expect(splitJsonObjects('{"a":"\\"}"}')).toEqual(['{"a":"\\"}"}']);
    expect(splitJsonObjects('{"a":1}}')).toBeNull();
  });
});

describe('normalizeUpdateKey', () => {
  it('keeps a non-Vertex key as typed and requires one object for Vertex', () => {
    expect(normalizeUpdateKey(1, ' sk-x ')).toBe('sk-x');
    expect(normalizeUpdateKey(41, '{\n "a": 1\n}')).toBe('{"a":1}');
    expect(() => normalizeUpdateKey(41, '{"a":1}{"b":2}')).toThrow(/one JSON object/);
  });
});
