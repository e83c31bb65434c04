// The Bedrock stream as relay events: AWS event-stream framing decoded wherever the bytes are split,
// the Anthropic events inside given to a Claude client as Anthropic's own server-sent events, and the
// ways a Bedrock stream fails.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadEventStreamCodec } from './event-stream.js';
import type { ChatRequest } from '../../ir/chat.js';
import type { IrRequest } from '../../ir/request.js';
import type { IrStreamEvent } from '../../ir/stream.js';
import { SseDecoder, rawOf } from '../../sse.js';
import { bedrockAdapter } from './index.js';
import {
  STREAM,
  STREAM_EVENTS,
  eventStream,
  exceptionMessage,
  prettyChunk,
} from './fixtures/event-stream.js';

// The adapter loads AWS's codec when a call is signed; these tests decode streams without one.
beforeAll(() => loadEventStreamCodec());

const ir: IrRequest = {
  mode: 'chat',
  model: 'claude-3-5-haiku-20241022',
  stream: true,
  clientWantsUsage: true,
  body: {},
  wire: 'anthropic',
};

describe('bedrock stream', () => {
  const all = (chunks: Buffer[], chat?: ChatRequest): IrStreamEvent[] => {
    const parser = bedrockAdapter.createStreamParser(ir, chat);
    return [...chunks.flatMap((chunk) => parser.push(chunk)), ...parser.end()];
  };

  it('gives a Claude client the standard Anthropic server-sent events', () => {
    const events = all([STREAM]);
    expect(events).toHaveLength(STREAM_EVENTS.length);
    expect((events[0] ? rawOf(events[0]) : undefined)?.toString()).toBe(
      `event: message_start\ndata: ${JSON.stringify(STREAM_EVENTS[0])}\n\n`,
    );
    expect(events.map((e) => /^event: (\w+)\n/.exec(rawOf(e).toString())?.[1])).toEqual(
      STREAM_EVENTS.map((e) => e.type),
    );
    expect(events.at(-1)?.done).toBe(true);
  });

  it('gives a multi-line event one data line per line, so it reads back as the same JSON', () => {
    const event = { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'hi' } };
    const parsed = all([Buffer.concat([eventStream([STREAM_EVENTS[0]]), prettyChunk(event)])]);
    expect(parsed[1]?.text).toBe('hi');
    const [sse] = new SseDecoder().push(parsed[1] ? rawOf(parsed[1]) : Buffer.alloc(0));
    expect(JSON.parse(sse?.data?.toString() ?? '')).toEqual(event);
    expect(sse?.event).toBe('content_block_delta');
  });

  it('decodes the same events wherever the bytes are split', () => {
    const expected = all([STREAM]).map((e) => rawOf(e).toString());
    for (let at = 1; at < STREAM.length; at++) {
      const events = all([STREAM.subarray(0, at), STREAM.subarray(at)]);
      expect(events.map((e) => rawOf(e).toString())).toEqual(expected);
    }
    const bytes = Array.from({ length: STREAM.length }, (_, i) => STREAM.subarray(i, i + 1));
    expect(all(bytes).map((e) => rawOf(e).toString())).toEqual(expected);
  });

  it('reports an exception message as an error that ends the stream', () => {
    const throttled = eventStream(STREAM_EVENTS.slice(0, 4), [
      exceptionMessage('throttlingException', {
        message: 'Too many requests, please wait before trying again.',
      }),
    ]);
    const events = all([throttled]);
    expect(events.at(-1)?.error).toBe(
      'Too many requests, please wait before trying again. (throttlingException)',
    );
    expect(events.slice(0, -1).every((e) => e.error === undefined)).toBe(true);
  });

  it('reports a broken frame or a stream cut inside a message', () => {
    const broken = Buffer.from(STREAM);
    broken.writeUInt8((broken.at(-1) ?? 0) ^ 0xff, broken.length - 1);
    expect(all([broken]).at(-1)?.error).toMatch(/malformed event-stream message \(.*checksum/);
    const cut = all([STREAM.subarray(0, STREAM.length - 5)]);
    expect(cut.at(-1)?.error).toMatch(/ended inside a message/);
    expect(cut.some((e) => e.done)).toBe(false);
  });

  it("gives a converted client's tool calls their own names back", () => {
    const chat: ChatRequest = {
      model: 'claude-3-haiku-20240307',
      stream: true,
      system: [],
      messages: [{ role: 'user', parts: [{ type: 'text', text: 'x' }] }],
      tools: [{ name: 'weather.lookup', description: undefined, parameters: { type: 'object' } }],
      stop: [],
    };
    const events = all(
      [
        eventStream([
          STREAM_EVENTS[0],
          {
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'tool_use', id: 'toolu_1', name: 'weather_lookup', input: {} },
          },
        ]),
      ],
      chat,
    );
    expect(events[1]?.deltas?.[0]).toMatchObject({ type: 'tool_call', name: 'weather.lookup' });
  });
});
