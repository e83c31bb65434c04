import { readFileSync } from 'node:fs';
import { accumulateResponse } from 'openai/lib/responses/ResponseAccumulator';
import type { Response, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import type { ChatDelta, FinishReason } from '../../ir/chat.js';
import type { IrUsage } from '../../ir/usage.js';
import { SseDecoder } from '../../sse.js';
import type { DecodedStreamEvent } from '../types.js';
import { responsesCodec } from './index.js';

const fixture = (name: string): string =>
  readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

/** Feeds `text` to a fresh SseDecoder and decoder in pieces of `size` bytes. */
function decodeStream(text: string, size = Number.MAX_SAFE_INTEGER): DecodedStreamEvent[] {
  const sse = new SseDecoder();
  const decoder = responsesCodec.createStreamDecoder();
  const bytes = Buffer.from(text);
  const events = [];
  for (let at = 0; at < bytes.length; at += size) events.push(...sse.push(bytes.subarray(at, at + size)));
  events.push(...sse.end());
  return events.map((e) => decoder.decode(e));
}

interface Collected {
  text: string;
  reasoning: string;
  signatures: string[];
  calls: { id?: string; name?: string; arguments: string }[];
  finish?: FinishReason;
  usage?: IrUsage;
  done: boolean;
  counted: string;
  errors: string[];
}

/** What a client of the decoded stream ends up with. */
function collect(events: DecodedStreamEvent[]): Collected {
  const out: Collected = {
    text: '',
    reasoning: '',
    signatures: [],
    calls: [],
    done: false,
    counted: '',
    errors: [],
  };
  for (const event of events) {
    for (const delta of event.deltas) {
      if (delta.type === 'text') out.text += delta.text;
      else if (delta.type === 'reasoning') {
        out.reasoning += delta.text;
        if (delta.signature) out.signatures.push(delta.signature);
      } else if (delta.type === 'tool_call') {
        const call = (out.calls[delta.index] ??= { arguments: '' });
        if (delta.id) call.id = delta.id;
        if (delta.name) call.name = delta.name;
        call.arguments += delta.arguments;
      } else out.finish = delta.reason;
    }
    if (event.usage) out.usage = event.usage;
    if (event.error) out.errors.push(event.error);
    out.done ||= event.done;
    out.counted += event.text;
  }
  return out;
}

/** The events an encoder wrote: each `event:` name with its parsed data. */
function frames(text: string): { name: string; data: Record<string, unknown> }[] {
  return text
    .split('\n\n')
    .filter((block) => block !== '')
    .map((block) => {
      const [event, data, ...rest] = block.split('\n');
      expect(rest).toEqual([]);
      expect(event).toMatch(/^event: /);
      expect(data).toMatch(/^data: /);
      return { name: event!.slice(7), data: JSON.parse(data!.slice(6)) as Record<string, unknown> };
    });
}

describe('a Responses API stream from an upstream', () => {
  it.each([1, 7, 64, Number.MAX_SAFE_INTEGER])(
    'gives text, a function call and usage (read %i bytes at a time)',
    (size) => {
      const result = collect(decodeStream(fixture('stream-text-and-call.sse'), size));
      expect(result).toEqual<Collected>({
        text: "I'll check the weather in Paris.",
        reasoning: '',
        signatures: [],
        calls: [
          {
            id: 'call_ZcXMiJ7b8h9VSYsFfuZ3NUBW',
            name: 'get_weather',
            arguments: '{"location":"Paris, France"}',
          },
        ],
        finish: 'tool_calls',
        usage: { promptTokens: 291, completionTokens: 23, cachedTokens: 0, reasoningTokens: 0 },
        done: true,
        counted: `I'll check the weather in Paris.get_weather{"location":"Paris, France"}`,
        errors: [],
      });
    },
  );

  it('gives reasoning summaries as one text, the encrypted reasoning as its signature, and a cut answer as length', () => {
    const events = decodeStream(fixture('stream-reasoning-incomplete.sse'), 13);
    const result = collect(events);
    expect(result.reasoning).toBe('**Counting primes**\n\nList primes below 20.\n\nThere are eight of them.');
    expect(result.signatures).toEqual(['gAAAAABoFixtureReasoningBlob==']);
    expect(result.text).toBe('The primes below 20 are 2, 3, 5,');
    expect(result.finish).toBe('length');
    expect(result.usage).toEqual({
      promptTokens: 18,
      completionTokens: 64,
      cachedTokens: 0,
      reasoningTokens: 48,
    });
    // Only the closing event ends the stream.
    expect(events.filter((e) => e.done)).toHaveLength(1);
    expect(events[events.length - 1]!.finished).toBe(true);
  });

  it.each([
    [
      'a failed response',
      'event: response.failed\ndata: {"type":"response.failed","sequence_number":3,"response":{"id":"resp_1","status":"failed","output":[],"error":{"code":"server_error","message":"The server had an error."}}}\n\n',
      'the upstream response failed: The server had an error.',
    ],
    [
      'an error event',
      'event: error\ndata: {"type":"error","sequence_number":2,"code":"rate_limit_exceeded","message":"Rate limit reached.","param":null}\n\n',
      'Rate limit reached.',
    ],
    [
      'an event that is not JSON',
      'event: response.output_text.delta\ndata: {"type":\n\n',
      'the upstream sent an event that is not valid JSON',
    ],
    [
      'arguments for a call never started',
      'data: {"type":"response.function_call_arguments.delta","item_id":"fc_9","output_index":4,"delta":"{}"}\n\n',
      'the upstream sent arguments for a function call it never started',
    ],
  ])('reports %s as an error', (_, stream, message) => {
    expect(collect(decodeStream(stream)).errors).toEqual([message]);
  });

  it('takes a function call whose arguments come only with its done event', () => {
    const stream = [
      '{"type":"response.output_item.added","output_index":0,"item":{"id":"fc_1","type":"function_call","call_id":"call_1","name":"f","arguments":""}}',
      '{"type":"response.output_item.done","output_index":0,"item":{"id":"fc_1","type":"function_call","call_id":"call_1","name":"f","arguments":"{\\"x\\":1}"}}',
    ]
      .map((d) => `data: ${d}\n\n`)
      .join('');
    expect(collect(decodeStream(stream)).calls).toEqual([{ id: 'call_1', name: 'f', arguments: '{"x":1}' }]);
  });
});

describe('a Responses stream for a client', () => {
  const identity = { id: 'resp_s1', model: 'claude-sonnet-4-5', created: 1_760_000_000 };
  const usage: IrUsage = { promptTokens: 120, completionTokens: 45, cachedTokens: 20, reasoningTokens: 10 };
  const deltas: ChatDelta[][] = [
    [{ type: 'reasoning', text: 'The user greets me.' }],
    [
      { type: 'reasoning', text: '', signature: 'EqQBCkYIBxgCKkA=' },
      { type: 'text', text: 'Hi' },
    ],
    [{ type: 'text', text: ' there' }],
    [{ type: 'tool_call', index: 0, id: 'toolu_1', name: 'get_weather', arguments: '' }],
    [{ type: 'tool_call', index: 0, arguments: '{"city":' }],
    [
      { type: 'tool_call', index: 0, arguments: '"Paris"}' },
      { type: 'finish', reason: 'tool_calls' },
    ],
  ];
  const encode = (steps: ChatDelta[][], end: IrUsage = usage): string => {
    const encoder = responsesCodec.createStreamEncoder(identity, { includeUsage: false });
    return steps.map((s) => encoder.push(s)).join('') + encoder.end(end);
  };

  it('sends the typed events in OpenAI’s order, numbered, without a [DONE] marker', () => {
    const text = encode(deltas);
    const events = frames(text);
    expect(events.map((e) => e.name)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((e) => e.data.type)).toEqual(events.map((e) => e.name));
    expect(events.map((e) => e.data.sequence_number)).toEqual(events.map((_, i) => i));
    expect(text).not.toContain('[DONE]');
    expect(events[0]!.data.response).toMatchObject({
      id: 'resp_s1',
      status: 'in_progress',
      output: [],
      usage: null,
    });
    expect(events[10]!.data).toEqual({
      type: 'response.output_text.delta',
      sequence_number: 10,
      item_id: 'msg_s1_1',
      output_index: 1,
      content_index: 0,
      delta: 'Hi',
      logprobs: [],
    });
    expect(events[18]!.data).toEqual({
      type: 'response.function_call_arguments.done',
      sequence_number: 18,
      item_id: 'fc_s1_2',
      output_index: 2,
      name: 'get_weather',
      arguments: '{"city":"Paris"}',
    });
  });

  it('closes with the same response a non-stream client would get', () => {
    const events = frames(encode(deltas));
    const completed = events[events.length - 1]!.data.response;
    const answer = responsesCodec.encodeAnswer(
      {
        id: 'x',
        model: identity.model,
        parts: [
          { type: 'reasoning', text: 'The user greets me.', signature: 'EqQBCkYIBxgCKkA=' },
          { type: 'text', text: 'Hi there' },
          { type: 'tool_call', id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        ],
        finishReason: 'tool_calls',
        usage,
      },
      identity,
    );
    expect(completed).toEqual(answer);
  });

  it('is rebuilt by the openai SDK into the response it closes with', () => {
    const events = frames(encode(deltas)).map((e) => e.data as unknown as ResponseStreamEvent);
    let snapshot: Response | undefined;
    for (const event of events.slice(0, -1)) snapshot = accumulateResponse(event, snapshot);
    const completed = events[events.length - 1] as Extract<
      ResponseStreamEvent,
      { type: 'response.completed' }
    >;
    expect(snapshot!.output).toEqual(completed.response.output);
    expect(snapshot!.output_text).toBe('Hi there');
  });

  it('reads back through the upstream decoder as the same answer', () => {
    const result = collect(decodeStream(encode(deltas), 3));
    expect(result).toMatchObject({
      text: 'Hi there',
      reasoning: 'The user greets me.',
      signatures: ['EqQBCkYIBxgCKkA='],
      calls: [{ id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
      finish: 'tool_calls',
      usage: { ...usage, cacheWriteTokens: 0 },
      done: true,
      errors: [],
    });
  });

  it('ends an answer cut at the output limit with response.incomplete', () => {
    const events = frames(
      encode([
        [
          { type: 'text', text: 'Once upon a' },
          { type: 'finish', reason: 'length' },
        ],
      ]),
    );
    const last = events[events.length - 1]!;
    expect(last.name).toBe('response.incomplete');
    expect(last.data.response).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
      output: [
        { type: 'message', status: 'incomplete', content: [{ type: 'output_text', text: 'Once upon a' }] },
      ],
    });
    expect(
      collect(decodeStream(events.map((e) => `data: ${JSON.stringify(e.data)}\n\n`).join(''))).finish,
    ).toBe('length');
  });

  it('keeps parallel tool calls apart when their pieces interleave', () => {
    const text = encode([
      [
        { type: 'tool_call', index: 0, id: 'call_a', name: 'a', arguments: '' },
        { type: 'tool_call', index: 1, id: 'call_b', name: 'b', arguments: '{"b"' },
        { type: 'tool_call', index: 0, arguments: '{"a":1}' },
        { type: 'tool_call', index: 1, arguments: ':2}' },
        { type: 'finish', reason: 'tool_calls' },
      ],
    ]);
    expect(collect(decodeStream(text)).calls).toEqual([
      { id: 'call_a', name: 'a', arguments: '{"a":1}' },
      { id: 'call_b', name: 'b', arguments: '{"b":2}' },
    ]);
    let snapshot: Response | undefined;
    for (const event of frames(text))
      snapshot = accumulateResponse(event.data as unknown as ResponseStreamEvent, snapshot);
    expect(snapshot!.output.map((o) => (o.type === 'function_call' ? o.arguments : ''))).toEqual([
      '{"a":1}',
      '{"b":2}',
    ]);
  });

  it('gives each signed thinking block its own reasoning item, and drops redacted thinking', () => {
    const text = encode([
      [
        { type: 'reasoning', text: 'First thought.' },
        { type: 'reasoning', text: '', signature: 'sig-1' },
        { type: 'reasoning', text: '', redacted: 'opaque' },
        { type: 'reasoning', text: 'Second thought.' },
        { type: 'reasoning', text: '', signature: 'sig-2' },
        { type: 'text', text: 'Done.' },
      ],
    ]);
    const done = frames(text).pop()!.data.response as { output: unknown[] };
    expect(done.output).toEqual([
      {
        id: 'rs_s1_0',
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: 'First thought.' }],
        encrypted_content: 'sig-1',
      },
      {
        id: 'rs_s1_1',
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: 'Second thought.' }],
        encrypted_content: 'sig-2',
      },
      expect.objectContaining({ id: 'msg_s1_2', type: 'message' }),
    ]);
  });

  it('opens and closes the response even when the answer is empty', () => {
    expect(
      frames(encode([], { promptTokens: 5, completionTokens: 0, cachedTokens: 0 })).map((e) => e.name),
    ).toEqual(['response.created', 'response.in_progress', 'response.completed']);
  });

  it('tells an error as the SDK’s error event and then writes nothing more', () => {
    const encoder = responsesCodec.createStreamEncoder(identity, { includeUsage: true });
    const opening = encoder.push([{ type: 'text', text: 'Hel' }]);
    const error = encoder.error({
      status: 502,
      message: 'the upstream stream broke',
      type: 'upstream_error',
      code: 'bad_gateway',
    });
    const sequence = frames(opening).length;
    expect(frames(error)).toEqual([
      {
        name: 'error',
        data: {
          type: 'error',
          sequence_number: sequence,
          code: 'bad_gateway',
          message: 'the upstream stream broke',
          param: null,
        },
      },
    ]);
    expect(encoder.end(usage)).toBe('');
  });
});
