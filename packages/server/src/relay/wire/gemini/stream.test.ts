import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatDelta } from '../../ir/chat.js';
import { RelayError } from '../../ir/errors.js';
import { SseDecoder, sseEvent } from '../../sse.js';
import type { DecodedStreamEvent } from '../types.js';
import { geminiCodec } from './index.js';

const fixture = (name: string): Buffer => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

const IDENTITY = { id: 'resp-1', model: 'gemini-2.5-flash', created: 1_700_000_000 };

/** Feeds bytes to a stream decoder in pieces of `size`, as a slow upstream would send them. */
function decodeInPieces(bytes: Buffer, size: number): DecodedStreamEvent[] {
  const sse = new SseDecoder();
  const decoder = geminiCodec.createStreamDecoder();
  const events: DecodedStreamEvent[] = [];
  for (let at = 0; at < bytes.length; at += size) {
    for (const event of sse.push(bytes.subarray(at, at + size))) events.push(decoder.decode(event));
  }
  for (const event of sse.end()) events.push(decoder.decode(event));
  return events;
}

const dataEvents = (text: string): Record<string, unknown>[] =>
  text
    .split('\r\n\r\n')
    .filter((e) => e !== '')
    .map((e) => {
      expect(e.startsWith('data: ')).toBe(true);
      return JSON.parse(e.slice('data: '.length)) as Record<string, unknown>;
    });

const partsOf = (event: Record<string, unknown> | undefined) =>
  (event?.candidates as { content: { parts: unknown[] } }[] | undefined)?.[0]?.content.parts;

describe('a Gemini stream from upstream', () => {
  const expected: ChatDelta[] = [
    {
      type: 'reasoning',
      text: '**Weighing the question**\nBoston in spring is mild; I should check live data.',
      signature: undefined,
    },
    { type: 'text', text: 'Checking the ' },
    { type: 'text', text: 'weather now.' },
    { type: 'reasoning', text: '', signature: 'CiwBVKhc7vQ2c2lnbmF0dXJlLWZvci1jYWxs' },
    {
      type: 'tool_call',
      index: 0,
      id: 'call_Xc0FaNvJB_m1nvgPtdXw0Ao_0',
      name: 'get_weather',
      arguments: '{"location":"Boston, MA"}',
    },
    { type: 'finish', reason: 'tool_calls' },
  ];

  it.each([1, 7, 4096])('decodes the same steps whatever the byte boundaries (pieces of %i)', (size) => {
    const events = decodeInPieces(fixture('stream-tools.sse'), size);
    expect(events).toHaveLength(4);
    expect(events.flatMap((e) => e.deltas)).toEqual(expected);
    expect(events.map((e) => e.finished)).toEqual([false, false, false, true]);
    expect(events.every((e) => !e.done && e.error === undefined && !e.usageOnly)).toBe(true);
  });

  it('keeps the last usage, thoughts counted as completion', () => {
    const events = decodeInPieces(fixture('stream-tools.sse'), 4096);
    expect(events[0]?.usage).toEqual({
      promptTokens: 96,
      completionTokens: 54,
      cachedTokens: 0,
      reasoningTokens: 54,
    });
    expect(events[3]?.usage).toEqual({
      promptTokens: 96,
      completionTokens: 75,
      cachedTokens: 0,
      reasoningTokens: 54,
    });
  });

  it('reports the generated text of each event for counting', () => {
    const events = decodeInPieces(fixture('stream-tools.sse'), 4096);
    expect(events[1]?.text).toBe('Checking the ');
    expect(events[2]?.text).toBe('weather now.get_weather{"location":"Boston, MA"}');
  });

  it('counts tool calls across events from 0', () => {
    const decoder = geminiCodec.createStreamDecoder();
    const chunk = (name: string) =>
      JSON.stringify({ candidates: [{ content: { parts: [{ functionCall: { name, args: {} } }] } }] });
    const first = decoder.decode(sseEvent(chunk('a')));
    const second = decoder.decode(sseEvent(chunk('b')));
    expect(first.deltas[0]).toMatchObject({ index: 0, name: 'a', id: 'call_0' });
    expect(second.deltas[0]).toMatchObject({ index: 1, name: 'b', id: 'call_1' });
  });

  it('tells an error event and a broken event apart from data', () => {
    const decoder = geminiCodec.createStreamDecoder();
    const error = decoder.decode(sseEvent(fixture('error-429.json').toString('utf8')));
    expect(error.error).toBe(
      'RESOURCE_EXHAUSTED: You exceeded your current quota, please check your plan and billing details.',
    );
    expect(decoder.decode(sseEvent('{"candidates": [')).error).toMatch(/not valid JSON/);
    expect(decoder.decode(sseEvent('[1]')).error).toMatch(/not a JSON object/);
  });

  it('ends a stream whose prompt was blocked with the content filter', () => {
    const decoder = geminiCodec.createStreamDecoder();
    const data = JSON.stringify({ promptFeedback: { blockReason: 'PROHIBITED_CONTENT' } });
    const event = decoder.decode(sseEvent(data));
    expect(event.finished).toBe(true);
    expect(event.deltas).toEqual([{ type: 'finish', reason: 'content_filter' }]);
  });

  it('finishes with a plain stop when the model called no function', () => {
    const decoder = geminiCodec.createStreamDecoder();
    const data = JSON.stringify({
      candidates: [{ content: { parts: [{ text: 'Hi' }] }, finishReason: 'STOP' }],
    });
    expect(decoder.decode(sseEvent(data)).deltas).toEqual([
      { type: 'text', text: 'Hi' },
      { type: 'finish', reason: 'stop' },
    ]);
  });
});

describe('a Gemini stream for a client', () => {
  it('sends each step as one CRLF-framed partial response and the usage last', () => {
    const encoder = geminiCodec.createStreamEncoder(IDENTITY, { includeUsage: false });
    const first = encoder.push([
      { type: 'reasoning', text: 'Hmm.' },
      { type: 'text', text: 'Hello' },
    ]);
    expect(first.endsWith('\r\n\r\n')).toBe(true);
    const [event] = dataEvents(first);
    expect(event).toEqual({
      candidates: [
        { content: { role: 'model', parts: [{ text: 'Hmm.', thought: true }, { text: 'Hello' }] }, index: 0 },
      ],
      modelVersion: 'gemini-2.5-flash',
      responseId: 'resp-1',
    });
    expect(encoder.push([{ type: 'finish', reason: 'stop' }])).toBe('');
    const [last] = dataEvents(
      encoder.end({ promptTokens: 12, completionTokens: 9, cachedTokens: 0, reasoningTokens: 2 }),
    );
    expect(last).toMatchObject({
      candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: {
        promptTokenCount: 12,
        candidatesTokenCount: 7,
        totalTokenCount: 21,
        thoughtsTokenCount: 2,
      },
    });
  });

  it('holds a tool call until it is complete and sends it whole', () => {
    const encoder = geminiCodec.createStreamEncoder(IDENTITY, { includeUsage: true });
    expect(
      encoder.push([{ type: 'tool_call', index: 0, id: 'call_1', name: 'get_weather', arguments: '' }]),
    ).toBe('');
    expect(encoder.push([{ type: 'tool_call', index: 0, arguments: '{"city":' }])).toBe('');
    expect(encoder.push([{ type: 'tool_call', index: 0, arguments: '"Oslo"}' }])).toBe('');
    const [event] = dataEvents(encoder.push([{ type: 'finish', reason: 'tool_calls' }]));
    expect(partsOf(event)).toEqual([
      { functionCall: { id: 'call_1', name: 'get_weather', args: { city: 'Oslo' } } },
    ]);
    const [last] = dataEvents(encoder.end({ promptTokens: 5, completionTokens: 5, cachedTokens: 0 }));
    expect((last?.candidates as { finishReason: string }[])[0]?.finishReason).toBe('STOP');
  });

  it('sends tool calls the upstream never finished at the end', () => {
    const encoder = geminiCodec.createStreamEncoder(IDENTITY, { includeUsage: true });
    encoder.push([{ type: 'tool_call', index: 0, id: 'c', name: 'f', arguments: '{}' }]);
    const [last] = dataEvents(encoder.end({ promptTokens: 1, completionTokens: 1, cachedTokens: 0 }));
    expect(partsOf(last)).toEqual([{ functionCall: { id: 'c', name: 'f', args: {} } }]);
  });

  it('tells an error inside the stream in Google’s error shape', () => {
    const encoder = geminiCodec.createStreamEncoder(IDENTITY, { includeUsage: true });
    const [event] = dataEvents(encoder.error(new RelayError(503, 'the upstream is unavailable').toIr()));
    expect(event).toEqual({
      error: { code: 503, message: 'the upstream is unavailable', status: 'UNAVAILABLE' },
    });
  });

  it('is read back by the decoder as the steps it was given', () => {
    const encoder = geminiCodec.createStreamEncoder(IDENTITY, { includeUsage: true });
    const steps: ChatDelta[] = [
      { type: 'reasoning', text: 'Plan.', signature: 'c2ln' },
      { type: 'text', text: 'Sure.' },
      { type: 'reasoning', text: '', signature: 'Y2FsbA==' },
      { type: 'tool_call', index: 0, id: 'call_1', name: 'f', arguments: '{"a":1}' },
      { type: 'finish', reason: 'tool_calls' },
    ];
    const bytes = Buffer.from(
      encoder.push(steps) + encoder.end({ promptTokens: 7, completionTokens: 4, cachedTokens: 0 }),
    );
    const events = decodeInPieces(bytes, 5);
    expect(events.flatMap((e) => e.deltas)).toEqual(steps);
    expect(events.at(-1)?.usage).toEqual({ promptTokens: 7, completionTokens: 4, cachedTokens: 0 });
  });
});
