import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatAnswer } from '../../ir/chat.js';
import { anthropicCodec, anthropicErrorBody, anthropicUsage, readAnthropicError } from './index.js';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as unknown;

const identity = { id: 'msg_01Aq9w938a90dw8q', model: 'claude-sonnet-4-5-20250929', created: 1_700_000_000 };

const answer = (over: Partial<ChatAnswer>): ChatAnswer =>
  Object.assign({ id: 'x', model: 'm', parts: [], finishReason: 'stop' }, over);

describe('anthropic answers', () => {
  it('decodes text, a tool call and cache usage (prompt tokens include cache reads and writes)', () => {
    expect(anthropicCodec.decodeAnswer(fixture('message.json'))).toEqual({
      id: 'msg_01Aq9w938a90dw8q',
      model: 'claude-sonnet-4-5-20250929',
      parts: [
        { type: 'text', text: "I'll check the current weather in San Francisco for you." },
        {
          type: 'tool_call',
          id: 'toolu_01A09q90qw90lq917835lq9',
          name: 'get_weather',
          arguments: '{"location":"San Francisco, CA","unit":"celsius"}',
        },
      ],
      finishReason: 'tool_calls',
      usage: { promptTokens: 1233, completionTokens: 76, cachedTokens: 1024, cacheWriteTokens: 188 },
    });
  });

  it('encodes the decoded answer back to the same Message', () => {
    const body = fixture('message.json') as { usage: Record<string, unknown> };
    const expected = structuredClone(body);
    delete expected.usage.service_tier;
    const decoded = anthropicCodec.decodeAnswer(body);
    expect(JSON.parse(JSON.stringify(anthropicCodec.encodeAnswer(decoded, identity)))).toEqual(expected);
  });

  it('keeps thinking with its signature and redacted thinking, in order', () => {
    const decoded = anthropicCodec.decodeAnswer({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-opus-4-1',
      content: [
        { type: 'thinking', thinking: 'Let me think.', signature: 'EqQB' },
        { type: 'redacted_thinking', data: 'EmwK' },
        { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } },
        { type: 'text', text: 'Done.' },
      ],
      stop_reason: 'end_turn',
      usage: { input_tokens: 10, output_tokens: 20, output_tokens_details: { thinking_tokens: 12 } },
    });
    expect(decoded.parts).toEqual([
      { type: 'reasoning', text: 'Let me think.', signature: 'EqQB' },
      { type: 'reasoning', text: '', redacted: 'EmwK' },
      { type: 'text', text: 'Done.' },
    ]);
    expect(decoded.usage).toEqual({
      promptTokens: 10,
      completionTokens: 20,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 12,
    });
    expect(anthropicCodec.encodeAnswer(decoded, identity).content).toEqual([
      { type: 'thinking', thinking: 'Let me think.', signature: 'EqQB' },
      { type: 'redacted_thinking', data: 'EmwK' },
      { type: 'text', text: 'Done.' },
    ]);
  });

  it('maps stop reasons both ways', () => {
    const stopOf = (stop_reason: string) =>
      anthropicCodec.decodeAnswer({ type: 'message', content: [], stop_reason }).finishReason;
    expect(stopOf('end_turn')).toBe('stop');
    expect(stopOf('stop_sequence')).toBe('stop');
    expect(stopOf('pause_turn')).toBe('stop');
    expect(stopOf('max_tokens')).toBe('length');
    expect(stopOf('tool_use')).toBe('tool_calls');
    expect(stopOf('refusal')).toBe('content_filter');
    const reasonOf = (finishReason: ChatAnswer['finishReason']) =>
      anthropicCodec.encodeAnswer(answer({ finishReason }), identity).stop_reason;
    expect(reasonOf('stop')).toBe('end_turn');
    expect(reasonOf('length')).toBe('max_tokens');
    expect(reasonOf('tool_calls')).toBe('tool_use');
    expect(reasonOf('content_filter')).toBe('refusal');
  });

  it('gives clients an object input, an msg_ id and input tokens without cached ones', () => {
    const body = anthropicCodec.encodeAnswer(
      answer({
        parts: [
          { type: 'reasoning', text: 'unsigned thought' },
          { type: 'tool_call', id: 'call_1', name: 'f', arguments: '{"broken"' },
        ],
        finishReason: 'tool_calls',
        usage: { promptTokens: 1000, completionTokens: 50, cachedTokens: 600, cacheWriteTokens: 100 },
      }),
      { id: 'chatcmpl-42', model: 'gpt-4o', created: 1 },
    );
    expect(body).toEqual({
      id: 'msg_chatcmpl-42',
      type: 'message',
      role: 'assistant',
      model: 'gpt-4o',
      content: [
        { type: 'thinking', thinking: 'unsigned thought', signature: '' },
        { type: 'tool_use', id: 'call_1', name: 'f', input: {} },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: {
        input_tokens: 300,
        cache_creation_input_tokens: 100,
        cache_read_input_tokens: 600,
        output_tokens: 50,
      },
    });
  });

  it('refuses a body that is not a message', () => {
    expect(() => anthropicCodec.decodeAnswer(fixture('error-429.json'))).toThrow(/not an Anthropic message/);
    expect(() => anthropicCodec.decodeAnswer({ type: 'message', content: 'text' })).toThrow();
  });

  it('does not trust unbelievable usage counts', () => {
    expect(anthropicUsage({ input_tokens: 5, output_tokens: 2 })).toMatchObject({
      promptTokens: 5,
      completionTokens: 2,
    });
    expect(anthropicUsage({ input_tokens: -1, output_tokens: 2 })).toBeUndefined();
    expect(anthropicUsage({ input_tokens: 5, output_tokens: '2' })).toBeUndefined();
    expect(
      anthropicUsage({ input_tokens: 5, output_tokens: 2, cache_read_input_tokens: 1e300 }),
    ).toBeUndefined();
    expect(
      anthropicUsage({ input_tokens: 5, output_tokens: 2, cache_creation_input_tokens: 0.5 }),
    ).toBeUndefined();
    expect(anthropicUsage(undefined)).toBeUndefined();
  });
});

describe('anthropic errors', () => {
  it("renders errors in Anthropic's shape with its type for the status", () => {
    const body = (status: number) => anthropicErrorBody({ status, message: 'm', type: 'x', code: null });
    expect(body(400)).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'm' } });
    const types = [401, 403, 404, 413, 429, 500, 529].map((status) => body(status).error.type);
    expect(types).toEqual([
      'authentication_error',
      'permission_error',
      'not_found_error',
      'request_too_large',
      'rate_limit_error',
      'api_error',
      'overloaded_error',
    ]);
  });

  it('reads an upstream error body', () => {
    expect(readAnthropicError(fixture('error-429.json'))).toEqual({
      type: 'rate_limit_error',
      message: 'Number of request tokens has exceeded your per-minute rate limit',
    });
    expect(readAnthropicError({ type: 'message' })).toBeUndefined();
  });
});
