// Reading the playground stream: events split anywhere across chunks, the done marker, error events.
import { describe, expect, it } from 'vitest';
import { SseParser, readChatEvent } from './sse';

const chunk = (content: string) => JSON.stringify({ choices: [{ index: 0, delta: { content } }] });

/** Feeds `text` cut at every position in `cuts` and returns every event's data. */
function parseInPieces(text: string, cuts: number[]): string[] {
  const parser = new SseParser();
  const events: string[] = [];
  let start = 0;
  for (const cut of [...cuts, text.length]) {
    events.push(...parser.push(text.slice(start, cut)));
    start = cut;
  }
  return [...events, ...parser.end()];
}

describe('SSE parser', () => {
  const stream = `data: ${chunk('Hello')}\n\ndata: ${chunk(' world')}\n\ndata: [DONE]\n\n`;
  const expected = [chunk('Hello'), chunk(' world'), '[DONE]'];

  it('gives the data of each event', () => {
    expect(parseInPieces(stream, [])).toEqual(expected);
  });

  it('gives the same events however the bytes are cut, including mid-line and mid-field', () => {
    for (let cut = 1; cut < stream.length; cut += 1) {
      expect(parseInPieces(stream, [cut])).toEqual(expected);
    }
    // One character at a time.
    expect(parseInPieces(stream, [...stream].map((_, i) => i + 1).slice(0, -1))).toEqual(expected);
  });

  it('returns an event only once its blank line has arrived', () => {
    const parser = new SseParser();
    expect(parser.push(`data: ${chunk('a')}\n`)).toEqual([]);
    expect(parser.push('\n')).toEqual([chunk('a')]);
  });

  it('accepts CRLF and CR line ends, even with the CRLF split between chunks', () => {
    const crlf = `data: ${chunk('x')}\r\n\r\ndata: [DONE]\r\n\r\n`;
    const split = crlf.indexOf('\r\n') + 1;
    expect(parseInPieces(crlf, [split])).toEqual([chunk('x'), '[DONE]']);
    expect(parseInPieces('data: a\r\rdata: b\r\r', [])).toEqual(['a', 'b']);
  });

  it('joins multi-line data, skips comments and other fields', () => {
    const text = ': keep-alive\n\nevent: message\nid: 3\ndata: first\ndata:second\n\n';
    expect(parseInPieces(text, [5, 20])).toEqual(['first\nsecond']);
  });

  it('keeps a last event that lacks its closing blank line', () => {
    expect(parseInPieces('data: [DONE]', [])).toEqual(['[DONE]']);
  });
});

describe('chat events', () => {
  it('reads the text of a chunk from choices[0].delta.content', () => {
    expect(readChatEvent(chunk('Hi'))).toEqual({ kind: 'delta', text: 'Hi' });
  });

  it('recognises the done marker', () => {
    expect(readChatEvent('[DONE]')).toEqual({ kind: 'done' });
  });

  it('reads an error event with its message', () => {
    const error = JSON.stringify({ error: { message: 'upstream went away', type: 'upstream_error' } });
    expect(readChatEvent(error)).toEqual({ kind: 'error', message: 'upstream went away' });
  });

  it('passes over chunks without text and unreadable ones', () => {
    expect(readChatEvent(JSON.stringify({ choices: [{ delta: { role: 'assistant' } }] }))).toEqual({
      kind: 'other',
    });
    expect(readChatEvent(JSON.stringify({ choices: [], usage: { total_tokens: 3 } }))).toEqual({
      kind: 'other',
    });
    expect(readChatEvent('{"choices": [')).toEqual({ kind: 'other' });
  });
});
