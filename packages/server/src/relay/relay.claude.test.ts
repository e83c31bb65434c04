// The Anthropic Messages format both ways, driven by the vendors' own SDKs over real HTTP: a Claude
// client on a Claude channel (bytes forwarded), a Claude client on an OpenAI channel and an OpenAI
// client on a Claude channel (converted), each billed from the upstream's usage.
import Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectedAnthropicUsage, expectedChatUsage, withMock } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { tokenQuota } from '@sluice/shared';
import { testDialects } from '../test-support/databases.js';
import type { Caller, TestApp } from '../test-support/test-app.js';
import { billingWritten, lastConsumeLog } from '../test-support/relay-kit.js';
import type { TestToken } from '../test-support/relay-kit.js';
import { anthropicBill } from '../test-support/relay-bills.js';
import {
  anthropicSdk,
  openAiSdk,
  readChatStream,
  startRelaySuite,
  stopAppAndMock,
} from '../test-support/relay-suite.js';

const CLAUDE = 'claude-test';
const GPT = 'gpt-test';
const CLAUDE_KEY = 'sk-ant-channel-key-0001';

const pricing = (model: string) =>
  model === CLAUDE
    ? {
        billing: 'tokens' as const,
        modelRatio: 1.5,
        completionRatio: 5,
        groupRatio: 1,
        cacheRatio: 0.1,
        cacheWriteRatio: 1.25,
      }
    : {
        billing: 'tokens' as const,
        modelRatio: 2,
        completionRatio: 4,
        groupRatio: 1,
        cacheRatio: 1,
        cacheWriteRatio: 1.25,
      };

type Json = Record<string, unknown>;

describe.each(testDialects())('Claude Messages through the relay on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let base: string;
  let user: Caller;
  let token: TestToken;
  let claude: Anthropic;
  let openai: OpenAI;

  beforeAll(async () => {
    ({ t, mock, base, user, token } = await startRelaySuite(dialect, {
      options: {
        ModelRatio: { [CLAUDE]: 1.5, [GPT]: 2, 'served-nowhere': 1 },
        CompletionRatio: { [CLAUDE]: 5, [GPT]: 4 },
        CacheRatio: { [CLAUDE]: 0.1 },
        CreateCacheRatio: { [CLAUDE]: 1.25 },
      },
      channels: async (add) => {
        await add({ type: 14, models: CLAUDE, key: CLAUDE_KEY });
        await add({ type: 1, models: GPT });
      },
    }));
    claude = anthropicSdk(base, token.key);
    openai = openAiSdk(base, token.key);
  });
  afterAll(() => stopAppAndMock(t, mock));
  beforeEach(() => mock.reset());

  describe('a Claude client on a Claude channel', () => {
    it('forwards the request as it came and bills cache reads and writes at their ratios', async () => {
      const message = await claude.messages.create({
        model: CLAUDE,
        max_tokens: 200,
        system: 'answer briefly',
        messages: [
          { role: 'user', content: withMock('hello claude', { cached_tokens: 2, cache_write_tokens: 1 }) },
        ],
      });
      expect(message.content).toEqual(
        [{ type: 'text', text: 'You said: hello claude', citations: null }].map((block) =>
          expect.objectContaining({ type: block.type, text: block.text }),
        ),
      );
      const sent = mock.lastRequest('/v1/messages');
      expect(sent?.headers['x-api-key']).toBe(CLAUDE_KEY);
      // The SDK's own version date goes along (SDKs send newer dates than the relay knows).
      expect(sent?.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(sent?.headers.authorization).toBeUndefined();
      expect((sent?.body as Json).system).toBe('answer briefly');
      const expected = expectedAnthropicUsage(sent?.body);
      expect(message.usage).toMatchObject(expected);
      const log = await lastConsumeLog(t, user.id);
      expect(Number(log.quota)).toBe(anthropicBill(expected, pricing(CLAUDE)));
      expect(Number(log.prompt_tokens)).toBe(
        expected.input_tokens + expected.cache_read_input_tokens + expected.cache_creation_input_tokens,
      );
    });

    it('streams in Anthropic events, passes beta flags on and bills the stream', async () => {
      const stream = claude.messages.stream(
        { model: CLAUDE, max_tokens: 200, messages: [{ role: 'user', content: 'stream to me please' }] },
        { headers: { 'anthropic-beta': 'interleaved-thinking-2025-05-14' } },
      );
      const kinds: string[] = [];
      stream.on('streamEvent', (event) => kinds.push(event.type));
      const message = await stream.finalMessage();
      expect(message.content[0]).toMatchObject({ type: 'text', text: 'You said: stream to me please' });
      expect(kinds[0]).toBe('message_start');
      expect(kinds.at(-1)).toBe('message_stop');
      const sent = mock.lastRequest('/v1/messages');
      expect(sent?.headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14');
      const expected = expectedAnthropicUsage(sent?.body);
      expect(message.usage.output_tokens).toBe(expected.output_tokens);
      expect(Number((await lastConsumeLog(t, user.id)).quota)).toBe(anthropicBill(expected, pricing(CLAUDE)));
    });

    it('answers errors in Anthropic shape: a bad key, an unknown model', async () => {
      const stranger = anthropicSdk(base, `sk-${'n'.repeat(48)}`);
      const denied = await stranger.messages
        .create({ model: CLAUDE, max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })
        .catch((error: unknown) => error);
      expect(denied).toBeInstanceOf(Anthropic.AuthenticationError);
      const missing = await claude.messages
        .create({ model: 'served-nowhere', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })
        .catch((error: unknown) => error);
      expect(missing).toBeInstanceOf(Anthropic.NotFoundError);
      expect((missing as InstanceType<typeof Anthropic.NotFoundError>).error).toMatchObject({
        type: 'error',
        error: { type: 'not_found_error' },
      });
    });

    it("sends Anthropic's first API version when the client names none, and takes the key from a bearer", async () => {
      const res = await fetch(`${base}/v1/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          model: CLAUDE,
          max_tokens: 20,
          messages: [{ role: 'user', content: 'plain call' }],
        }),
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as Json).type).toBe('message');
      expect(mock.lastRequest('/v1/messages')?.headers['anthropic-version']).toBe('2023-06-01');
    });

    it('counts tokens without charging', async () => {
      await billingWritten(t);
      const before = await t.db.db.selectFrom('logs').select('id').where('user_id', '=', user.id).execute();
      const counted = await claude.messages.countTokens({
        model: CLAUDE,
        messages: [{ role: 'user', content: 'how many tokens is this sentence' }],
      });
      expect(counted.input_tokens).toBeGreaterThan(5);
      await billingWritten(t);
      const after = await t.db.db.selectFrom('logs').select('id').where('user_id', '=', user.id).execute();
      expect(after.length).toBe(before.length);
    });
  });

  describe('a Claude client on an OpenAI channel', () => {
    it('converts the call and the answer, with usage from the upstream', async () => {
      const message = await claude.messages.create({
        model: GPT,
        max_tokens: 64,
        system: 'be kind',
        messages: [{ role: 'user', content: 'convert me' }],
      });
      expect(message.content[0]).toMatchObject({ type: 'text', text: 'You said: convert me' });
      expect(message.stop_reason).toBe('end_turn');
      const sent = mock.lastRequest('/v1/chat/completions')?.body as Json;
      expect(sent.messages).toEqual([
        { role: 'system', content: 'be kind' },
        { role: 'user', content: 'convert me' },
      ]);
      expect(sent.max_tokens ?? sent.max_completion_tokens).toBe(64);
      const usage = expectedChatUsage(sent);
      expect(message.usage).toMatchObject({
        input_tokens: usage.prompt_tokens,
        output_tokens: usage.completion_tokens,
      });
      const log = await lastConsumeLog(t, user.id);
      expect(Number(log.quota)).toBe(
        tokenQuota(
          { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens },
          pricing(GPT),
        ),
      );
    });

    it('streams the converted answer as Anthropic events', async () => {
      const stream = claude.messages.stream({
        model: GPT,
        max_tokens: 64,
        messages: [{ role: 'user', content: 'stream converted words' }],
      });
      const kinds: string[] = [];
      stream.on('streamEvent', (event) => kinds.push(event.type));
      const message = await stream.finalMessage();
      expect(message.content[0]).toMatchObject({ type: 'text', text: 'You said: stream converted words' });
      expect(kinds[0]).toBe('message_start');
      expect(kinds).toContain('content_block_delta');
      expect(kinds.slice(-2)).toEqual(['message_delta', 'message_stop']);
      const usage = expectedChatUsage(mock.lastRequest('/v1/chat/completions')?.body);
      expect(message.usage.output_tokens).toBe(usage.completion_tokens);
    });

    it('round-trips a tool call and its result', async () => {
      const tools: Anthropic.Tool[] = [
        {
          name: 'get_weather',
          description: 'The weather of a city',
          input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      ];
      const first = await claude.messages.create({
        model: GPT,
        max_tokens: 64,
        tools,
        messages: [
          {
            role: 'user',
            content: withMock('weather in Paris?', {
              tool_call: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            }),
          },
        ],
      });
      expect(first.stop_reason).toBe('tool_use');
      const use = first.content.find((block) => block.type === 'tool_use');
      expect(use).toMatchObject({ name: 'get_weather', input: { city: 'Paris' } });
      const sentTools = (mock.lastRequest('/v1/chat/completions')?.body as Json).tools;
      expect(sentTools).toEqual([
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'The weather of a city',
            parameters: tools[0]?.input_schema,
          },
        },
      ]);

      const second = await claude.messages.create({
        model: GPT,
        max_tokens: 64,
        tools,
        messages: [
          { role: 'user', content: 'weather in Paris?' },
          { role: 'assistant', content: first.content },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: (use as Anthropic.ToolUseBlock).id,
                content: 'sunny, 21 C',
              },
            ],
          },
        ],
      });
      expect(second.content[0]).toMatchObject({ type: 'text' });
      const messages = (mock.lastRequest('/v1/chat/completions')?.body as Json).messages as Json[];
      expect(messages[1]).toMatchObject({
        role: 'assistant',
        tool_calls: [{ id: (use as Anthropic.ToolUseBlock).id, function: { name: 'get_weather' } }],
      });
      expect(messages[2]).toEqual({
        role: 'tool',
        tool_call_id: (use as Anthropic.ToolUseBlock).id,
        content: 'sunny, 21 C',
      });
    });
  });

  describe('an OpenAI client on a Claude channel', () => {
    it('converts the call to the Messages API with a max_tokens of its own', async () => {
      const completion = await openai.chat.completions.create({
        model: CLAUDE,
        messages: [
          { role: 'system', content: 'be short' },
          { role: 'user', content: 'hello from openai' },
        ],
      });
      expect(completion.choices[0]?.message.content).toBe('You said: hello from openai');
      expect(completion.choices[0]?.finish_reason).toBe('stop');
      const sent = mock.lastRequest('/v1/messages');
      expect(sent?.headers['x-api-key']).toBe(CLAUDE_KEY);
      const body = sent?.body as Json;
      expect(body.system).toEqual([{ type: 'text', text: 'be short' }]);
      // The client set no limit: the default hold's (DefaultMaxTokens "*": 4096) is sent, as Anthropic requires one.
      expect(body.max_tokens).toBe(4096);
      const expected = expectedAnthropicUsage(body);
      expect(completion.usage).toMatchObject({
        prompt_tokens: expected.input_tokens,
        completion_tokens: expected.output_tokens,
      });
      expect(Number((await lastConsumeLog(t, user.id)).quota)).toBe(anthropicBill(expected, pricing(CLAUDE)));
    });

    it('streams chunks with the usage chunk the client asked for', async () => {
      const stream = await openai.chat.completions.create({
        model: CLAUDE,
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: withMock('count these words', { cached_tokens: 1 }) }],
      });
      const { text, finish, usage } = await readChatStream(stream);
      expect(text).toBe('You said: count these words');
      expect(finish).toBe('stop');
      const expected = expectedAnthropicUsage(mock.lastRequest('/v1/messages')?.body);
      expect(usage).toMatchObject({
        prompt_tokens: expected.input_tokens + expected.cache_read_input_tokens,
        completion_tokens: expected.output_tokens,
        prompt_tokens_details: { cached_tokens: expected.cache_read_input_tokens },
      });
      expect(Number((await lastConsumeLog(t, user.id)).quota)).toBe(anthropicBill(expected, pricing(CLAUDE)));
    });

    it('maps tools, a tool call and reasoning effort both ways', async () => {
      const completion = await openai.chat.completions.create({
        model: CLAUDE,
        reasoning_effort: 'low',
        max_completion_tokens: 5000,
        tools: [
          {
            type: 'function',
            function: {
              name: 'lookup',
              parameters: { type: 'object', properties: { q: { type: 'string' } } },
            },
          },
        ],
        messages: [
          {
            role: 'user',
            content: withMock('find it', {
              reasoning_tokens: 3,
              tool_call: { name: 'lookup', arguments: '{"q":"it"}' },
            }),
          },
        ],
      });
      const body = mock.lastRequest('/v1/messages')?.body as Json;
      expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
      expect(body.max_tokens).toBe(5000);
      expect(body.tools).toEqual([
        { name: 'lookup', input_schema: { type: 'object', properties: { q: { type: 'string' } } } },
      ]);
      const choice = completion.choices[0];
      expect(choice?.finish_reason).toBe('tool_calls');
      expect(choice?.message.tool_calls?.[0]).toMatchObject({
        type: 'function',
        function: { name: 'lookup', arguments: '{"q":"it"}' },
      });
      expect((choice?.message as unknown as Json).reasoning_content).toEqual(expect.any(String));
    });
  });
});
