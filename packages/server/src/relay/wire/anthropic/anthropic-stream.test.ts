import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatDelta } from '../../ir/chat.js';
import type { IrUsage } from '../../ir/usage.js';
import { SseDecoder, sseEvent } from '../../sse.js';
import type { DecodedStreamEvent } from '../types.js';
import { anthropicCodec } from './index.js';

const fixture = (name: string): Buffer => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

const identity = { id: 'msg_01', model: 'claude-sonnet-4-5', created: 1_700_000_000 };

/** Decodes a whole stream given in chunks, as the pipeline does. */
function decodeStream(chunks: Buffer[]): DecodedStreamEvent[] {
  const sse = new SseDecoder();
  const decoder = anthropicCodec.createStreamDecoder();
  const events = [...chunks.flatMap((chunk) => sse.push(chunk)), ...sse.end()];
  return events.map((event) => decoder.decode(event));
}

const deltasOf = (events: DecodedStreamEvent[]): ChatDelta[] => events.flatMap((e) => e.deltas);
const lastUsage = (events: DecodedStreamEvent[]): IrUsage | undefined =>
  events.reduce<IrUsage | undefined>((usage, e) => e.usage ?? usage, undefined);

const eventNames = (sse: string): string[] => [...sse.matchAll(/^event: (.+)$/gm)].map((m) => m[1] ?? '');
const payloads = (sse: string): Record<string, unknown>[] =>
  [...sse.matchAll(/^data: (.+)$/gm)].map((m) => JSON.parse(m[1] ?? '') as Record<string, unknown>);

const FIXTURE_DELTAS: ChatDelta[] = [
  { type: 'reasoning', text: 'The user wants the weather in San Francisco.' },
  { type: 'reasoning', text: ' I should call get_weather.' },
  { type: 'reasoning', text: '', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds' },
  { type: 'text', text: 'Let me check San Francisco — ' },
  { type: 'text', text: 'one moment ☀️' },
  { type: 'tool_call', index: 0, id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', arguments: '' },
  { type: 'tool_call', index: 0, arguments: '' },
  { type: 'tool_call', index: 0, arguments: '{"location":' },
  { type: 'tool_call', index: 0, arguments: ' "San Fra' },
  { type: 'tool_call', index: 0, arguments: 'ncisco, CA"}' },
  { type: 'finish', reason: 'tool_calls' },
];

describe('anthropic stream decoding', () => {
  it('decodes thinking, text and a streamed tool call, with usage from message_start and message_delta', () => {
    const events = decodeStream([fixture('stream.sse')]);
    expect(deltasOf(events)).toEqual(FIXTURE_DELTAS);
    expect(lastUsage(events)).toEqual({
      promptTokens: 2520,
      completionTokens: 89,
      cachedTokens: 2048,
      cacheWriteTokens: 0,
    });
    expect(events.map((e) => e.text).join('')).toBe(
      'The user wants the weather in San Francisco. I should call get_weather.' +
        'Let me check San Francisco — one moment ☀️{"location": "San Francisco, CA"}',
    );
    expect(events.filter((e) => e.finished)).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ done: true, finished: false });
    expect(events.some((e) => e.usageOnly || e.error !== undefined)).toBe(false);
  });

  it('decodes the same whatever byte the stream is split at', () => {
    const bytes = fixture('stream.sse');
    const whole = decodeStream([bytes]);
    for (let at = 1; at < bytes.length; at++) {
      const split = decodeStream([bytes.subarray(0, at), bytes.subarray(at)]);
      expect(deltasOf(split)).toEqual(deltasOf(whole));
      expect(lastUsage(split)).toEqual(lastUsage(whole));
    }
  });

  it('reports an error event', () => {
    const events = decodeStream([fixture('error.sse')]);
    expect(events.at(-1)?.error).toBe('Overloaded (overloaded_error)');
    expect(events.filter((e) => e.error !== undefined)).toHaveLength(1);
  });

  it('takes the newer message_delta input and cache counts over message_start', () => {
    const decoder = anthropicCodec.createStreamDecoder();
    const event = (data: unknown) => decoder.decode(sseEvent(JSON.stringify(data)));
    event({
      type: 'message_start',
      message: { usage: { input_tokens: 10, cache_read_input_tokens: 5, output_tokens: 1 } },
    });
    const end = event({
      type: 'message_delta',
      delta: { stop_reason: 'max_tokens', stop_sequence: null },
      usage: {
        input_tokens: 12,
        cache_creation_input_tokens: 3,
        cache_read_input_tokens: null,
        output_tokens: 40,
      },
    });
    expect(end.usage).toEqual({
      promptTokens: 20,
      completionTokens: 40,
      cachedTokens: 5,
      cacheWriteTokens: 3,
    });
    expect(end.deltas).toEqual([{ type: 'finish', reason: 'length' }]);
    expect(end.finished).toBe(true);
    expect(event({ type: 'message_delta', delta: {}, usage: { output_tokens: -4 } }).usage).toBeUndefined();
  });

  it('passes on only client tool calls, counted from 0', () => {
    const decoder = anthropicCodec.createStreamDecoder();
    const event = (data: unknown) => decoder.decode(sseEvent(JSON.stringify(data)));
    const server = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} };
    expect(event({ type: 'content_block_start', index: 0, content_block: server }).deltas).toEqual([]);
    const query = { type: 'input_json_delta', partial_json: '{"query":"x"}' };
    expect(event({ type: 'content_block_delta', index: 0, delta: query }).deltas).toEqual([]);
    const tool = { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} };
    expect(event({ type: 'content_block_start', index: 1, content_block: tool }).deltas).toEqual([
      { type: 'tool_call', index: 0, id: 'toolu_1', name: 'f', arguments: '' },
    ]);
    expect(event({ type: 'ping' }).deltas).toEqual([]);
    expect(decoder.decode(sseEvent('{oops')).error).toMatch(/not valid JSON/);
  });
});

describe('anthropic stream encoding', () => {
  it("writes Anthropic's event sequence, one block per kind of delta and per tool call", () => {
    const encoder = anthropicCodec.createStreamEncoder(identity, { includeUsage: false });
    const out =
      encoder.push([{ type: 'reasoning', text: 'Hmm.' }]) +
      encoder.push([
        { type: 'reasoning', text: '', signature: 'sig' },
        { type: 'text', text: 'Calling.' },
        { type: 'tool_call', index: 0, id: 'toolu_a', name: 'f', arguments: '{"a":' },
        { type: 'tool_call', index: 0, arguments: '1}' },
        { type: 'tool_call', index: 1, id: 'toolu_b', name: 'g', arguments: '' },
        { type: 'finish', reason: 'tool_calls' },
      ]) +
      encoder.end({ promptTokens: 100, completionTokens: 30, cachedTokens: 60, cacheWriteTokens: 10 });
    expect(eventNames(out)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const data = payloads(out);
    expect(data.map((d) => d.type)).toEqual(eventNames(out));
    expect(data[0]).toEqual({
      type: 'message_start',
      message: {
        id: 'msg_01',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: 0,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          output_tokens: 0,
        },
      },
    });
    expect(
      data.filter((d) => d.type === 'content_block_start').map((d) => [d.index, d.content_block]),
    ).toEqual([
      [0, { type: 'thinking', thinking: '', signature: '' }],
      [1, { type: 'text', text: '' }],
      [2, { type: 'tool_use', id: 'toolu_a', name: 'f', input: {} }],
      [3, { type: 'tool_use', id: 'toolu_b', name: 'g', input: {} }],
    ]);
    expect(data.at(-2)).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: {
        input_tokens: 30,
        cache_creation_input_tokens: 10,
        cache_read_input_tokens: 60,
        output_tokens: 30,
      },
    });
  });

  it('writes every event in the bytes JSON.stringify gives its payload, text events included', () => {
    const encoder = anthropicCodec.createStreamEncoder(identity, { includeUsage: false });
    const texts = ['Hi "there"', ' naïve ☀️\n', 'back\\slash \u0001'];
    let out = encoder.push(texts.map((text) => ({ type: 'text' as const, text })));
    // Blocks past the tenth, so an index of two digits is written too.
    for (let call = 0; call < 10; call++) {
      out += encoder.push([
        { type: 'tool_call', index: call, id: `toolu_${call}`, name: 'f', arguments: '{}' },
        { type: 'text', text: `after ${call}` },
      ]);
    }
    out += encoder.end({ promptTokens: 1, completionTokens: 2, cachedTokens: 0, cacheWriteTokens: 0 });
    const events = out.split('\n\n').slice(0, -1);
    expect(events.length).toBeGreaterThan(40);
    for (const event of events) {
      const [, name, data] = /^event: (.+)\ndata: (.+)$/.exec(event) ?? [];
      expect(`event: ${name}\ndata: ${JSON.stringify(JSON.parse(data ?? ''))}`).toBe(event);
    }
    const deltas = payloads(out).filter((d) => d.type === 'content_block_delta');
    expect(deltas.slice(0, 3).map((d) => d.delta)).toEqual(
      texts.map((text) => ({ type: 'text_delta', text })),
    );
    expect(deltas.at(-1)).toEqual({
      type: 'content_block_delta',
      index: 20,
      delta: { type: 'text_delta', text: 'after 9' },
    });
  });

  it('round-trips: decoding its own output gives back the deltas and usage that went in', () => {
    const decoded = decodeStream([fixture('stream.sse')]);
    const usage = lastUsage(decoded);
    if (!usage) throw new Error('the fixture has usage');
    const encoder = anthropicCodec.createStreamEncoder(identity, { includeUsage: true });
    // One push per upstream event, as the pipeline relays them.
    const out = decoded.map((e) => encoder.push(e.deltas)).join('') + encoder.end(usage);
    const again = decodeStream([Buffer.from(out)]);
    // The upstream's empty first argument piece carries nothing, so the encoder writes no event for it.
    expect(deltasOf(again)).toEqual(
      FIXTURE_DELTAS.filter((d) => !(d.type === 'tool_call' && d.arguments === '' && !d.id)),
    );
    expect(lastUsage(again)).toEqual(usage);
    expect(again.at(-1)?.done).toBe(true);
  });

  it('starts a new thinking block after a signed one, and sends redacted thinking whole', () => {
    const encoder = anthropicCodec.createStreamEncoder(identity, { includeUsage: false });
    const deltas: ChatDelta[] = [
      { type: 'reasoning', text: 'one', signature: 's1' },
      { type: 'reasoning', text: 'two', signature: 's2' },
      { type: 'reasoning', text: '', redacted: 'opaque' },
      { type: 'text', text: 'ok' },
    ];
    const out = encoder.push(deltas) + encoder.end({ promptTokens: 1, completionTokens: 1, cachedTokens: 0 });
    expect(deltasOf(decodeStream([Buffer.from(out)]))).toEqual([
      { type: 'reasoning', text: 'one' },
      { type: 'reasoning', text: '', signature: 's1' },
      { type: 'reasoning', text: 'two' },
      { type: 'reasoning', text: '', signature: 's2' },
      { type: 'reasoning', text: '', redacted: 'opaque' },
      { type: 'text', text: 'ok' },
      { type: 'finish', reason: 'stop' },
    ]);
    expect(payloads(out).filter((d) => d.type === 'content_block_start')).toHaveLength(4);
  });

  it('ends an empty answer properly and reports errors as Anthropic error events', () => {
    const encoder = anthropicCodec.createStreamEncoder(identity, { includeUsage: false });
    const out = encoder.end({ promptTokens: 5, completionTokens: 0, cachedTokens: 0 });
    expect(eventNames(out)).toEqual(['message_start', 'ping', 'message_delta', 'message_stop']);
    expect(payloads(out)[2]).toMatchObject({ delta: { stop_reason: 'end_turn', stop_sequence: null } });
    const error = encoder.error({ status: 529, message: 'Overloaded', type: 'server_error', code: null });
    expect(error).toBe(
      'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
    );
    expect(decodeStream([Buffer.from(error)])[0]?.error).toBe('Overloaded (overloaded_error)');
  });
});
