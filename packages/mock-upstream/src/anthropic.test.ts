import { describe, expect, it } from 'vitest';
import type { MockUpstream } from './server.js';
import {
  ANTHROPIC_HEADERS as HEADERS,
  anthropicEvents as events,
  json,
  messagesBody as body,
  useMockUpstream,
  type AnthropicEvent,
} from './test-support/test-kit.js';
import { expectedAnthropicReply, expectedAnthropicUsage } from './usage-anthropic.js';

let mock: MockUpstream;
const { post } = useMockUpstream((started) => (mock = started), HEADERS);

const deltas = (list: AnthropicEvent[], type: string): Record<string, unknown>[] =>
  list
    .filter((e) => e.event === 'content_block_delta')
    .map((e) => e.data.delta as Record<string, unknown>)
    .filter((delta) => delta.type === type);

describe('POST /v1/messages', () => {
  it('answers a Message echoing the last user message, usage by the documented rule', async () => {
    const res = await post('/v1/messages', body());
    expect(res.status).toBe(200);
    expect(res.headers.get('request-id')).toMatch(/^req_mock_/);
    const message = json(res.text);
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text: 'You said: What is the capital of France?' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
    });
    // system: 2 words; the user message: 1 + 6 words; the reply: 8 words.
    expect(message.usage).toMatchObject({ input_tokens: 9, output_tokens: 8, service_tier: 'standard' });
    expect(message.usage).toMatchObject(expectedAnthropicUsage(body()));
  });

  it("streams Anthropic's exact event sequence with cumulative usage at the end", async () => {
    const request = body(undefined, { stream: true });
    const res = await post('/v1/messages', request);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const list = events(res.text);
    expect(list.map((e) => e.event)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      ...Array(8).fill('content_block_delta'),
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const usage = expectedAnthropicUsage(request);
    expect(list[0]?.data.message).toMatchObject({
      content: [],
      stop_reason: null,
      usage: { input_tokens: usage.input_tokens, output_tokens: 1 },
    });
    expect(list[2]?.data).toEqual({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'text', text: '' },
    });
    expect(
      deltas(list, 'text_delta')
        .map((d) => d.text)
        .join(''),
    ).toBe(expectedAnthropicReply(request));
    expect(list[12]?.data).toMatchObject({
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: usage.output_tokens, input_tokens: usage.input_tokens },
    });
  });

  it('sends a signed thinking block before the text and counts it in output_tokens', async () => {
    const request = body({ reasoning_tokens: 5 }, { stream: true });
    const list = events((await post('/v1/messages', request)).text);
    const starts = list.filter((e) => e.event === 'content_block_start').map((e) => e.data);
    expect(starts).toEqual([
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
    ]);
    expect(
      deltas(list, 'thinking_delta')
        .map((d) => d.thinking)
        .join(''),
    ).toBe('let me think this through');
    // The signature arrives just before the thinking block closes.
    const signatureAt = list.findIndex(
      (e) => (e.data.delta as { type?: string } | undefined)?.type === 'signature_delta',
    );
    expect(list[signatureAt + 1]?.data).toEqual({ type: 'content_block_stop', index: 0 });
    expect(expectedAnthropicUsage(request).output_tokens).toBe(8 + 5);

    const whole = json((await post('/v1/messages', body({ reasoning_tokens: 5 }))).text);
    expect(whole.content).toEqual([
      { type: 'thinking', thinking: 'let me think this through', signature: expect.any(String) },
      { type: 'text', text: 'You said: What is the capital of France?' },
    ]);
    expect(whole.usage).toMatchObject({ output_tokens: 13 });
  });

  it('takes cache reads and writes out of input_tokens, as Anthropic counts them', async () => {
    const request = body({ cached_tokens: 4, cache_write_tokens: 3 });
    const usage = json((await post('/v1/messages', request)).text).usage;
    expect(usage).toMatchObject({
      input_tokens: 9 - 4 - 3,
      cache_read_input_tokens: 4,
      cache_creation_input_tokens: 3,
      cache_creation: { ephemeral_5m_input_tokens: 3, ephemeral_1h_input_tokens: 0 },
    });
    expect(usage).toMatchObject(expectedAnthropicUsage(request));
  });

  it('answers a tool_use block, streaming its input as 8-character JSON pieces', async () => {
    const args = '{"city":"Paris","unit":"celsius"}';
    const whole = json(
      (await post('/v1/messages', body({ tool_call: { name: 'get_weather', arguments: args } }))).text,
    );
    expect(whole).toMatchObject({
      content: [
        {
          type: 'tool_use',
          id: expect.stringMatching(/^toolu_/),
          name: 'get_weather',
          input: { city: 'Paris', unit: 'celsius' },
        },
      ],
      stop_reason: 'tool_use',
      usage: { output_tokens: 1 + 5 },
    });
    const list = events(
      (
        await post(
          '/v1/messages',
          body({ tool_call: { name: 'get_weather', arguments: args } }, { stream: true }),
        )
      ).text,
    );
    expect(list[2]?.data.content_block).toMatchObject({ type: 'tool_use', name: 'get_weather', input: {} });
    const pieces = deltas(list, 'input_json_delta').map((d) => d.partial_json as string);
    expect(pieces.every((piece) => piece.length <= 8)).toBe(true);
    expect(pieces.join('')).toBe(args);
    expect(list.at(-2)?.data.delta).toMatchObject({ stop_reason: 'tool_use' });
  });

  it('cuts the reply at max_tokens with stop_reason max_tokens, unless told to ignore the limit', async () => {
    const cut = json((await post('/v1/messages', body(undefined, { max_tokens: 3 }))).text);
    expect(cut).toMatchObject({
      content: [{ text: 'You said: What' }],
      stop_reason: 'max_tokens',
      usage: { output_tokens: 3 },
    });
    const ignored = json((await post('/v1/messages', body({ ignore_limit: true }, { max_tokens: 3 }))).text);
    expect(ignored).toMatchObject({ stop_reason: 'end_turn', usage: { output_tokens: 8 } });
  });

  it('keeps usage even under no_usage: Anthropic always reports it', async () => {
    const message = json((await post('/v1/messages', body({ no_usage: true }))).text);
    expect(message.usage).toMatchObject({ output_tokens: 8 });
  });

  it('records the headers (anthropic-beta included), the body and the outcome', async () => {
    await post('/v1/messages', body(), { ...HEADERS, 'anthropic-beta': 'context-management-2025-06-27' });
    expect(mock.lastRequest('/v1/messages')).toMatchObject({
      method: 'POST',
      headers: { 'anthropic-beta': 'context-management-2025-06-27', 'x-api-key': 'sk-ant-test' },
      body: body(),
      status: 200,
      outcome: 'completed',
    });
  });
});

describe('POST /v1/messages/count_tokens', () => {
  it('answers input_tokens: the whole prompt, system included', async () => {
    const { messages, system, model } = body();
    const res = await post('/v1/messages/count_tokens', { model, system, messages });
    expect(json(res.text)).toEqual({ input_tokens: 9 });
  });

  it('refuses generation fields such as max_tokens', async () => {
    const res = await post('/v1/messages/count_tokens', body());
    expect(res.status).toBe(400);
    expect(json(res.text).error).toEqual({
      type: 'invalid_request_error',
      message: 'max_tokens: Extra inputs are not permitted',
    });
  });
});
