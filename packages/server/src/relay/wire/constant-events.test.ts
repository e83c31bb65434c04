import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { watchingParses } from '../../test-support/json-parses.js';
import type { IrStreamEvent } from '../ir/stream.js';
import { decoderStreamParser, streamEventOf } from '../providers/codec-stream.js';
import { SseDecoder } from '../sse.js';
import type { SseEvent } from '../sse.js';
import { anthropicCodec } from './anthropic/index.js';
import { ConstantEvents } from './constant-events.js';

const PING = 'event: ping\ndata: {"type": "ping"}\n\n';
const STOP = 'event: message_stop\ndata: {"type":"message_stop"}\n\n';

/** The one event of `sse`, framed (what a decoder records). */
const framed = (sse: string): SseEvent => new SseDecoder().push(Buffer.from(sse))[0] as SseEvent;

/** What a fresh SSE decoder makes of the first event of `sse` with `book`. */
const known = (book: ConstantEvents, sse: string) => {
  const decoder = new SseDecoder();
  decoder.append(Buffer.from(sse));
  return decoder.nextConstant(book);
};

/** What a stream's events mean, without where their bytes lie (reads cut elsewhere lie elsewhere). */
const meaning = (events: IrStreamEvent[]) =>
  events.map(({ bytes, start, end, ...rest }) => ({ raw: bytes.toString('utf8', start, end), ...rest }));

describe('constant events', () => {
  it('are known by their exact bytes only, whole, and say whether they end the stream', () => {
    const book = new ConstantEvents();
    expect(known(book, PING)).toBeUndefined();
    book.record(framed(PING), false);
    book.record(framed(STOP), true);
    expect(known(book, PING + STOP)).toMatchObject({ start: 0, end: PING.length, done: false });
    expect(known(book, STOP)).toMatchObject({ start: 0, end: STOP.length, done: true });
    for (const other of [
      PING.replace('{"type": "ping"}', '{"type":"ping"}'),
      PING.replace('ping\n', 'pong\n'),
      `: keep-alive\n${PING}`,
      // Not ended yet: the blank line may still turn out to be another line of the event.
      PING.slice(0, -1),
    ]) {
      expect(known(book, other), other).toBeUndefined();
    }
  });

  it('records only events it can find again, of bounded size and number', () => {
    const book = new ConstantEvents();
    book.record(framed(PING.replaceAll('\n', '\r\n')), false);
    book.record(framed(`event: ping\ndata: {"type":"ping","pad":"${'x'.repeat(300)}"}\n\n`), false);
    expect(book.size).toBe(0);
    const stop = (index: number) =>
      `event: content_block_stop\ndata: {"type":"content_block_stop","index":${index}}\n\n`;
    for (let index = 0; index < 70; index++) book.record(framed(stop(index)), false);
    expect(book.size).toBe(64);
    // The oldest went first.
    expect(known(book, stop(0))).toBeUndefined();
    expect(known(book, stop(69))).toBeDefined();
  });

  it("reads a later Anthropic stream's ping, block stops and message_stop without parsing them", () => {
    const sse = readFileSync(new URL('./anthropic/fixtures/stream.sse', import.meta.url));
    const read = () => {
      const parser = decoderStreamParser(anthropicCodec.createStreamDecoder());
      return [...parser.push(sse), ...parser.end()];
    };
    read();
    const { result: events, parsed } = watchingParses(read);
    for (const kind of ['"ping"', '"content_block_stop"', '"message_stop"']) {
      expect(parsed.filter((text) => text.includes(kind))).toEqual([]);
    }
    // The same reading as every event framed and parsed.
    const decoder = anthropicCodec.createStreamDecoder();
    const parsedAll = new SseDecoder().push(sse).map((e) => streamEventOf(e, decoder.decode(e)));
    expect(meaning(events)).toEqual(meaning(parsedAll));
    expect(events.at(-1)).toMatchObject({ done: true });
  });

  it('gives the same reading however the reads are cut', () => {
    const sse = readFileSync(new URL('./anthropic/fixtures/stream.sse', import.meta.url));
    const read = (parts: Buffer[]) => {
      const parser = decoderStreamParser(anthropicCodec.createStreamDecoder());
      return meaning([...parts.flatMap((part) => parser.push(part)), ...parser.end()]);
    };
    const whole = read([sse]);
    for (let cut = 1; cut < sse.length; cut++) {
      expect(read([sse.subarray(0, cut), sse.subarray(cut)]), `cut at ${cut}`).toEqual(whole);
    }
  });
});
