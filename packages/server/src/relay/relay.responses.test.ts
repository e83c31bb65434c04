// The OpenAI Responses API (POST /v1/responses), driven by the official openai SDK over real HTTP: on an
// OpenAI channel the client's bytes go to /v1/responses; on a Claude channel and on an OpenAI-compatible
// channel without the Responses API the call is converted (Messages, chat completions). Each is billed
// from the usage the upstream reported.
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  expectedAnthropicReply,
  expectedAnthropicUsage,
  expectedChatUsage,
  expectedResponsesUsage,
  withMock,
} from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { tokenQuota } from '@sluice/shared';
import { testDialects } from '../test-support/databases.js';
import type { Caller, TestApp } from '../test-support/test-app.js';
import { lastConsumeLog } from '../test-support/relay-kit.js';
import type { TestToken } from '../test-support/relay-kit.js';
import { anthropicBill, pricingOptions, responsesBill } from '../test-support/relay-bills.js';
import { openAiSdk, startRelaySuite, stopAppAndMock } from '../test-support/relay-suite.js';

const GPT = 'gpt-resp';
const CLAUDE = 'claude-resp';
const COMPAT = 'compat-resp';
const CLAUDE_KEY = 'sk-ant-responses-0001';

const pricing = {
  billing: 'tokens' as const,
  modelRatio: 2,
  completionRatio: 3,
  groupRatio: 1,
  cacheRatio: 0.25,
  cacheWriteRatio: 1.25,
};

type Json = Record<string, unknown>;

const weatherTool: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'get_weather',
  description: 'The weather of a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  strict: false,
};

describe.each(testDialects())('OpenAI Responses through the relay on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let user: Caller;
  let token: TestToken;
  let openai: OpenAI;

  beforeAll(async () => {
    let base: string;
    ({ t, mock, base, user, token } = await startRelaySuite(dialect, {
      options: pricingOptions([GPT, CLAUDE, COMPAT], pricing),
      channels: async (add) => {
        await add({ type: 1, models: GPT });
        await add({ type: 14, models: CLAUDE, key: CLAUDE_KEY });
        await add({ type: 8, models: COMPAT });
      },
    }));
    openai = openAiSdk(base, token.key);
  });
  afterAll(() => stopAppAndMock(t, mock));
  beforeEach(() => mock.reset());

  describe('on an OpenAI channel', () => {
    it('forwards the client’s bytes to /v1/responses, store and previous_response_id included', async () => {
      const request = {
        model: GPT,
        instructions: 'be brief',
        input: withMock('hello responses', { cached_tokens: 2 }),
        // With a limit of its own the request needs no rewriting (else the hold's limit is written in).
        max_output_tokens: 300,
        store: true,
        previous_response_id: 'resp_earlier_turn',
      };
      const response = await openai.responses.create(request);
      expect(response.output_text).toBe('You said: hello responses');
      const sent = mock.lastRequest('/v1/responses');
      expect(sent?.body).toEqual(request);
      expect(sent?.headers.authorization).toMatch(/^Bearer /);
      const usage = expectedResponsesUsage(sent?.body);
      expect(response.usage).toEqual(usage);
      const log = await lastConsumeLog(t, user.id);
      expect(Number(log.quota)).toBe(responsesBill(usage, pricing));
      expect(Number(log.prompt_tokens)).toBe(usage.input_tokens);
    });

    it('streams the upstream’s typed events through .stream() and bills response.completed’s usage', async () => {
      const stream = openai.responses.stream({ model: GPT, input: 'stream me some words' });
      const types: string[] = [];
      stream.on('event', (event) => types.push(event.type));
      const final = await stream.finalResponse();
      expect(final.output_text).toBe('You said: stream me some words');
      expect(types[0]).toBe('response.created');
      expect(types.at(-1)).toBe('response.completed');
      const usage = expectedResponsesUsage(mock.lastRequest('/v1/responses')?.body);
      expect(final.usage).toEqual(usage);
      expect(Number((await lastConsumeLog(t, user.id)).quota)).toBe(responsesBill(usage, pricing));
    });

    it('streams with create({ stream: true }) and bills reasoning tokens as output', async () => {
      const stream = await openai.responses.create({
        model: GPT,
        input: withMock('think then answer', { reasoning_tokens: 5 }),
        reasoning: { effort: 'low', summary: 'auto' },
        stream: true,
      });
      let text = '';
      let completed: OpenAI.Responses.Response | undefined;
      for await (const event of stream) {
        if (event.type === 'response.output_text.delta') text += event.delta;
        if (event.type === 'response.completed') completed = event.response;
      }
      expect(text).toBe('You said: think then answer');
      expect(completed?.usage?.output_tokens_details.reasoning_tokens).toBe(5);
      const log = await lastConsumeLog(t, user.id);
      expect(Number(log.completion_tokens)).toBe(completed?.usage?.output_tokens);
      expect(Number(log.quota)).toBe(
        responsesBill(expectedResponsesUsage(mock.lastRequest()?.body), pricing),
      );
    });
  });

  describe('a stream the upstream breaks off', () => {
    const cutStream = async (model: string, cutAfter: number) => {
      const stream = await openai.responses.create({
        model,
        input: withMock('a reply that never ends', { cut_after: cutAfter }),
        stream: true,
      });
      const events: OpenAI.Responses.ResponseStreamEvent[] = [];
      for await (const event of stream) events.push(event);
      return events;
    };

    it.each([
      ['forwarded from an OpenAI channel', GPT, 6],
      ['converted from a Claude channel', CLAUDE, 5],
    ])('%s ends with an error event and is billed for what was produced', async (_, model, cutAfter) => {
      const events = await cutStream(model, cutAfter);
      expect(events[0]?.type).toBe('response.created');
      const text = events.flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : [])).join('');
      expect(text).toBe('You said:');
      expect(events.at(-1)?.type).toBe('error');
      expect(events.some((e) => e.type === 'response.completed')).toBe(false);
      const log = await lastConsumeLog(t, user.id);
      // At least the two words the client was sent ("You said:"), however the upstream counted so far.
      expect(Number(log.completion_tokens)).toBeGreaterThanOrEqual(2);
      expect(JSON.parse(log.other ?? '{}')).toMatchObject({ stream_interrupted: 'upstream' });
    });
  });

  describe('on a Claude channel (converted to Messages)', () => {
    it('converts instructions and input to a Messages call and the Message back to a Response', async () => {
      const response = await openai.responses.create({
        model: CLAUDE,
        instructions: 'answer briefly',
        input: withMock('hello claude', { cached_tokens: 1, cache_write_tokens: 1 }),
        max_output_tokens: 200,
      });
      expect(response.object).toBe('response');
      expect(response.status).toBe('completed');
      expect(response.output_text).toBe('You said: hello claude');
      const sent = mock.lastRequest('/v1/messages');
      expect(sent?.headers['x-api-key']).toBe(CLAUDE_KEY);
      const body = sent?.body as Json;
      expect(body.system).toEqual([{ type: 'text', text: 'answer briefly' }]);
      expect(body.max_tokens).toBe(200);
      const usage = expectedAnthropicUsage(body);
      expect(response.usage).toMatchObject({
        input_tokens: usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens,
        input_tokens_details: { cached_tokens: usage.cache_read_input_tokens },
        output_tokens: usage.output_tokens,
      });
      expect(Number((await lastConsumeLog(t, user.id)).quota)).toBe(anthropicBill(usage, pricing));
    });

    it('round-trips a function call and its function_call_output', async () => {
      const first = await openai.responses.create({
        model: CLAUDE,
        tools: [weatherTool],
        input: withMock('weather in Paris?', {
          tool_call: { name: 'get_weather', arguments: '{"city":"Paris"}' },
        }),
      });
      const call = first.output.find(
        (item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === 'function_call',
      );
      expect(call).toMatchObject({ name: 'get_weather', arguments: '{"city":"Paris"}' });
      const firstBody = mock.lastRequest('/v1/messages')?.body as Json;
      expect(firstBody.tools).toEqual([
        { name: 'get_weather', description: 'The weather of a city', input_schema: weatherTool.parameters },
      ]);

      const second = await openai.responses.create({
        model: CLAUDE,
        tools: [weatherTool],
        input: [
          { role: 'user', content: 'weather in Paris?' },
          {
            type: 'function_call',
            call_id: call?.call_id ?? '',
            name: 'get_weather',
            arguments: call?.arguments ?? '',
          },
          { type: 'function_call_output', call_id: call?.call_id ?? '', output: 'sunny, 21 C' },
        ],
      });
      const secondBody = mock.lastRequest('/v1/messages')?.body as Json;
      expect(second.output_text).toBe(expectedAnthropicReply(secondBody));
      const messages = secondBody.messages as Json[];
      expect(messages[1]).toMatchObject({
        role: 'assistant',
        content: [{ type: 'tool_use', id: call?.call_id, name: 'get_weather', input: { city: 'Paris' } }],
      });
      expect(messages[2]).toMatchObject({
        role: 'user',
        content: [expect.objectContaining({ type: 'tool_result', tool_use_id: call?.call_id })],
      });
      expect(JSON.stringify(messages[2])).toContain('sunny, 21 C');
    });

    it('maps reasoning effort to a thinking budget and streams the answer as typed events', async () => {
      const stream = openai.responses.stream({
        model: CLAUDE,
        reasoning: { effort: 'low', summary: 'auto' },
        max_output_tokens: 5000,
        input: withMock('think about it', { reasoning_tokens: 3 }),
      });
      const types: string[] = [];
      stream.on('event', (event) => types.push(event.type));
      const final = await stream.finalResponse();
      const body = mock.lastRequest('/v1/messages')?.body as Json;
      expect(body.thinking).toMatchObject({ type: 'enabled', budget_tokens: expect.any(Number) });
      expect((body.thinking as { budget_tokens: number }).budget_tokens).toBeLessThan(5000);
      expect(body.max_tokens).toBe(5000);
      expect(final.output_text).toBe('You said: think about it');
      expect(final.output.map((item) => item.type)).toEqual(['reasoning', 'message']);
      expect(types[0]).toBe('response.created');
      expect(types).toContain('response.output_text.delta');
      expect(types.at(-1)).toBe('response.completed');
      const usage = expectedAnthropicUsage(body);
      expect(final.usage?.output_tokens).toBe(usage.output_tokens);
      expect(Number((await lastConsumeLog(t, user.id)).quota)).toBe(anthropicBill(usage, pricing));
    });

    it('refuses a conversation stored at OpenAI (previous_response_id) with a clear 400', async () => {
      const refusal = (request: OpenAI.Responses.ResponseCreateParamsNonStreaming) =>
        openai.responses.create(request).then(
          () => undefined,
          (e: unknown) => e as InstanceType<typeof OpenAI.APIError>,
        );
      const stored = await refusal({
        model: CLAUDE,
        input: 'and then?',
        previous_response_id: 'resp_stored_at_openai',
      });
      expect(stored).toBeInstanceOf(OpenAI.BadRequestError);
      expect(stored?.code).toBe('previous_response_id_unsupported');
      expect(stored?.message).toMatch(/send the whole conversation in input/);
      expect(mock.requests).toHaveLength(0);
    });

    it('leaves hosted tools out and serves the call with the rest (Codex offers web_search by default)', async () => {
      const response = await openai.responses.create({
        model: CLAUDE,
        input: 'search the web',
        tools: [{ type: 'web_search' }, { type: 'file_search', vector_store_ids: ['vs_1'] }, weatherTool],
      });
      expect(response.output_text).toBe('You said: search the web');
      const body = mock.lastRequest('/v1/messages')?.body as Json;
      expect((body.tools as Json[]).map((tool) => tool.name)).toEqual(['get_weather']);
    });
  });

  describe('on an OpenAI-compatible channel without the Responses API (converted to chat)', () => {
    it('converts the call to chat completions and the completion back to a Response', async () => {
      const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] };
      const response = await openai.responses.create({
        model: COMPAT,
        instructions: 'be kind',
        input: [{ role: 'user', content: [{ type: 'input_text', text: 'convert me please' }] }],
        text: { format: { type: 'json_schema', name: 'reply', schema, strict: true } },
      });
      expect(response.output_text).toBe('You said: convert me please');
      expect(mock.lastRequest('/v1/responses')).toBeUndefined();
      const body = mock.lastRequest('/v1/chat/completions')?.body as Json;
      expect(body.messages).toEqual([
        { role: 'system', content: 'be kind' },
        { role: 'user', content: 'convert me please' },
      ]);
      expect(body.response_format).toEqual({
        type: 'json_schema',
        json_schema: { name: 'reply', schema, strict: true },
      });
      const usage = expectedChatUsage(body);
      expect(response.usage).toMatchObject({
        input_tokens: usage.prompt_tokens,
        output_tokens: usage.completion_tokens,
      });
      expect(Number((await lastConsumeLog(t, user.id)).quota)).toBe(
        tokenQuota({ promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens }, pricing),
      );
    });

    it('streams a converted function call, its arguments as deltas, and bills the stream', async () => {
      const stream = openai.responses.stream({
        model: COMPAT,
        tools: [weatherTool],
        input: withMock('weather in Rome?', {
          tool_call: { name: 'get_weather', arguments: '{"city":"Rome"}' },
        }),
      });
      const pieces: string[] = [];
      stream.on('response.function_call_arguments.delta', (event) => pieces.push(event.delta));
      const final = await stream.finalResponse();
      expect(pieces.join('')).toBe('{"city":"Rome"}');
      expect(final.output).toEqual([
        expect.objectContaining({ type: 'function_call', name: 'get_weather', arguments: '{"city":"Rome"}' }),
      ]);
      const body = mock.lastRequest('/v1/chat/completions')?.body as Json;
      expect(body.stream_options).toEqual({ include_usage: true });
      expect(body.tools).toEqual([
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'The weather of a city',
            parameters: weatherTool.parameters,
          },
        },
      ]);
      const usage = expectedChatUsage(body);
      expect(final.usage).toMatchObject({
        input_tokens: usage.prompt_tokens,
        output_tokens: usage.completion_tokens,
      });
      expect(Number((await lastConsumeLog(t, user.id)).quota)).toBe(
        tokenQuota({ promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens }, pricing),
      );
    });
  });
});
