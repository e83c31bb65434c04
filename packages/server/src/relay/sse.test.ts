import { describe, expect, it } from 'vitest';
import { SseDecoder, rawOf } from './sse.js';

const decodeAll = (parts: string[]) => {
  const decoder = new SseDecoder();
  const events = parts.flatMap((p) => decoder.push(Buffer.from(p)));
  events.push(...decoder.end());
  return events.map((e) => ({ raw: rawOf(e).toString(), data: e.data?.toString(), event: e.event }));
};

describe('SSE decoder', () => {
  it('splits events at blank lines and keeps their exact bytes', () => {
    const events = decodeAll(['data: {"a":1}\n\ndata: {"b":2}\n\n', 'data: [DONE]\n\n']);
    expect(events).toEqual([
      { raw: 'data: {"a":1}\n\n', data: '{"a":1}', event: undefined },
      { raw: 'data: {"b":2}\n\n', data: '{"b":2}', event: undefined },
      { raw: 'data: [DONE]\n\n', data: '[DONE]', event: undefined },
    ]);
  });

  it('reassembles events split anywhere, including inside CRLF line ends', () => {
    const text = 'event: message\r\ndata: {"x":"é"}\r\n\r\ndata:{"y":2}\r\n\r\n';
    const bytes = Buffer.from(text);
    for (let cut = 1; cut < bytes.length; cut++) {
      const decoder = new SseDecoder();
      const events = [...decoder.push(bytes.subarray(0, cut)), ...decoder.push(bytes.subarray(cut))];
      expect(events.map((e) => e.data?.toString())).toEqual(['{"x":"é"}', '{"y":2}']);
      expect(events[0]?.event).toBe('message');
      expect(Buffer.concat(events.map(rawOf)).toString()).toBe(text);
    }
  });

  it('reads UTF-8 text wherever the reads split it, before and after ASCII-only reads', () => {
    const text = 'data: {"a":"plain"}\n\nevent: é\ndata: 日本\ndata: ☀️\n\ndata: {"b":"after"}\n\n';
    const bytes = Buffer.from(text);
    for (let cut = 1; cut < bytes.length; cut += 3) {
      const decoder = new SseDecoder();
      const events = [
        ...decoder.push(bytes.subarray(0, cut)),
        ...decoder.push(bytes.subarray(cut, cut + 5)),
        ...decoder.push(bytes.subarray(cut + 5)),
      ];
      expect(events.map((e) => [e.event, e.data])).toEqual([
        [undefined, '{"a":"plain"}'],
        ['é', '日本\n☀️'],
        [undefined, '{"b":"after"}'],
      ]);
      expect(Buffer.concat(events.map(rawOf)).toString()).toBe(text);
    }
  });

  it('joins multi-line data and passes comments through as events without data', () => {
    const events = decodeAll([': keep-alive\n\ndata: line1\ndata: line2\n\n']);
    expect(events).toEqual([
      { raw: ': keep-alive\n\n', data: undefined, event: undefined },
      { raw: 'data: line1\ndata: line2\n\n', data: 'line1\nline2', event: undefined },
    ]);
  });

  it('returns a final event that lacks its blank line when the stream ends', () => {
    expect(decodeAll(['data: {"a":1}\n\ndata: {"tail":true}'])).toEqual([
      { raw: 'data: {"a":1}\n\n', data: '{"a":1}', event: undefined },
      { raw: 'data: {"tail":true}', data: '{"tail":true}', event: undefined },
    ]);
  });

  it('hands out events one at a time as reads are appended, and the rest at the end', () => {
    const decoder = new SseDecoder();
    decoder.append(Buffer.from('data: 1\n\ndata: 2\n\ndata: 3'));
    expect(decoder.next()?.data).toBe('1');
    decoder.append(Buffer.from('\n\ndata: 4'));
    expect(decoder.next()?.data).toBe('2');
    expect(decoder.next()?.data).toBe('3');
    expect(decoder.next()).toBeUndefined();
    decoder.append(Buffer.from('\n\ndata: 5\n\n'));
    // Events not taken yet, and one without its blank line, come out at the end.
    decoder.append(Buffer.from('data: 6'));
    expect(decoder.end().map((e) => [rawOf(e).toString(), e.data])).toEqual([
      ['data: 4\n\n', '4'],
      ['data: 5\n\n', '5'],
      ['data: 6', '6'],
    ]);
  });
});
