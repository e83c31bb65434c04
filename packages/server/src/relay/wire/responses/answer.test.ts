import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatAnswer } from '../../ir/chat.js';
import { responsesCodec, responsesUsage } from './index.js';

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;

const identity = { id: 'resp_0a1b2c', model: 'claude-sonnet-4-5', created: 1_760_000_000 };

describe('a Responses API answer from an upstream', () => {
  it('reads reasoning, text and function calls in order, with usage', () => {
    expect(responsesCodec.decodeAnswer(fixture('response.json'))).toEqual<ChatAnswer>({
      id: 'resp_67ccd3a9da748190baa7f1570fe91ac604becb25c45c1d41',
      model: 'o3-2025-04-16',
      parts: [
        {
          type: 'reasoning',
          text: '**Checking the weather**\n\nThe user wants the weather in Paris.\n\nI should call get_weather for Paris, France.',
          signature: 'gAAAAABoSluiceFixtureEncryptedReasoning==',
        },
        { type: 'text', text: 'Let me check the weather in Paris.' },
        {
          type: 'tool_call',
          id: 'call_12345xyz',
          name: 'get_weather',
          arguments: '{"location":"Paris, France"}',
        },
      ],
      finishReason: 'tool_calls',
      usage: { promptTokens: 328, completionTokens: 152, cachedTokens: 128, reasoningTokens: 64 },
    });
  });

  it('tells why an incomplete answer stopped', () => {
    const answer = (details: unknown) =>
      responsesCodec.decodeAnswer({
        ...fixture('response.json'),
        status: 'incomplete',
        incomplete_details: details,
      });
    expect(answer({ reason: 'max_output_tokens' }).finishReason).toBe('length');
    expect(answer({ reason: 'content_filter' }).finishReason).toBe('content_filter');
  });

  it('reads a refusal as text and a plain message as a stop', () => {
    const answer = responsesCodec.decodeAnswer({
      id: 'resp_1',
      object: 'response',
      status: 'completed',
      model: 'gpt-4o',
      output: [
        {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'refusal', refusal: "I'm sorry, I can't help with that." }],
        },
      ],
    });
    expect(answer.parts).toEqual([{ type: 'text', text: "I'm sorry, I can't help with that." }]);
    expect(answer.finishReason).toBe('stop');
    expect(answer.usage).toBeUndefined();
  });

  it('throws on a failed response or a body that is not a response', () => {
    expect(() =>
      responsesCodec.decodeAnswer({
        id: 'resp_1',
        status: 'failed',
        output: [],
        error: { code: 'server_error', message: 'The model crashed.' },
      }),
    ).toThrow('the upstream response failed: The model crashed.');
    expect(() => responsesCodec.decodeAnswer({ choices: [] })).toThrow('not a Responses API response');
  });
});

describe('usage an upstream reports', () => {
  const usage = (input: unknown, output: unknown, cached: unknown = 0, reasoning: unknown = 0) =>
    responsesUsage({
      input_tokens: input,
      input_tokens_details: { cached_tokens: cached },
      output_tokens: output,
      output_tokens_details: { reasoning_tokens: reasoning },
      total_tokens: 1,
    });

  it('keeps cached tokens inside the input and reasoning tokens inside the output', () => {
    expect(usage(100, 40, 60, 30)).toEqual({
      promptTokens: 100,
      completionTokens: 40,
      cachedTokens: 60,
      reasoningTokens: 30,
    });
  });

  it.each([
    ['a negative count', usage(-1, 10)],
    ['a fractional count', usage(10, 1.5)],
    ['a string count', usage('10', 10)],
    ['an absurd cached count', usage(10, 10, 1e300)],
    ['an absurd reasoning count', usage(10, 10, 0, -5)],
    ['no output count', responsesUsage({ input_tokens: 10 })],
    ['no usage at all', responsesUsage(null)],
  ])('is not believed with %s (Sluice counts instead)', (_, result) => {
    expect(result).toBeUndefined();
  });
});

describe('an answer for a Responses client', () => {
  const answer: ChatAnswer = {
    id: 'msg_upstream',
    model: 'claude-sonnet-4-5',
    parts: [
      { type: 'reasoning', text: 'The user wants Paris weather.', signature: 'EqQBCkYIBxgCKkA=' },
      { type: 'text', text: 'Let me check ' },
      { type: 'text', text: 'the weather.' },
      {
        type: 'tool_call',
        id: 'toolu_01A09q90qw90lq917835lq9',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
      },
    ],
    finishReason: 'tool_calls',
    usage: { promptTokens: 500, completionTokens: 80, cachedTokens: 200, reasoningTokens: 20 },
  };

  it('is a Response with one item per reasoning block, message and function call', () => {
    expect(responsesCodec.encodeAnswer(answer, identity)).toEqual({
      id: 'resp_0a1b2c',
      object: 'response',
      created_at: 1_760_000_000,
      status: 'completed',
      error: null,
      incomplete_details: null,
      instructions: null,
      max_output_tokens: null,
      model: 'claude-sonnet-4-5',
      output: [
        {
          id: 'rs_0a1b2c_0',
          type: 'reasoning',
          summary: [{ type: 'summary_text', text: 'The user wants Paris weather.' }],
          encrypted_content: 'EqQBCkYIBxgCKkA=',
        },
        {
          id: 'msg_0a1b2c_1',
          type: 'message',
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'Let me check the weather.', annotations: [] }],
        },
        {
          id: 'fc_0a1b2c_2',
          type: 'function_call',
          status: 'completed',
          arguments: '{"city":"Paris"}',
          call_id: 'toolu_01A09q90qw90lq917835lq9',
          name: 'get_weather',
        },
      ],
      parallel_tool_calls: true,
      previous_response_id: null,
      temperature: null,
      tool_choice: 'auto',
      tools: [],
      top_p: null,
      metadata: {},
      usage: {
        input_tokens: 500,
        input_tokens_details: { cached_tokens: 200, cache_write_tokens: 0 },
        output_tokens: 80,
        output_tokens_details: { reasoning_tokens: 20 },
        total_tokens: 580,
      },
    });
  });

  it('is incomplete, and says why, when the answer was cut at the output limit or filtered', () => {
    const cut = responsesCodec.encodeAnswer(
      { ...answer, parts: [{ type: 'text', text: 'Once upon a' }], finishReason: 'length' },
      identity,
    );
    expect(cut).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
      output: [{ type: 'message', status: 'incomplete' }],
    });
    const filtered = responsesCodec.encodeAnswer({ ...answer, finishReason: 'content_filter' }, identity);
    expect(filtered).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'content_filter' },
    });
  });

  it('reads back as the same answer', () => {
    const back = responsesCodec.decodeAnswer(responsesCodec.encodeAnswer(answer, identity));
    expect(back).toEqual({
      ...answer,
      id: identity.id,
      parts: [answer.parts[0], { type: 'text', text: 'Let me check the weather.' }, answer.parts[3]],
      usage: { ...answer.usage, cacheWriteTokens: 0 },
    });
  });
});
