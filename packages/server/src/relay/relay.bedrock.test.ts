// Claude on AWS Bedrock (channel type 33) driven by the Anthropic and OpenAI SDKs over real HTTP, against
// the mock's Bedrock routes, which verify each SigV4 signature with AWS's signer: a Claude client's
// call forwarded in Bedrock's body, an OpenAI client's converted, streams decoded from AWS event-stream
// framing, both key forms, Anthropic model names mapped to Bedrock ids, usage with cache tokens billed.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  MOCK_AWS_CREDENTIALS,
  expectedAnthropicReply,
  expectedAnthropicUsage,
  withMock,
} from '@sluice/mock-upstream';
import type { MockUpstream, RecordedRequest } from '@sluice/mock-upstream';
import { CHANNEL_STATUS } from '@sluice/shared';
import { testDialects } from '../test-support/databases.js';
import type { Caller, TestApp } from '../test-support/test-app.js';
import { MOCK_AWS_KEY, channelRow, consumeLogs, lastConsumeLog } from '../test-support/relay-kit.js';
import type { TestToken } from '../test-support/relay-kit.js';
import { anthropicBill, pricingOptions } from '../test-support/relay-bills.js';
import {
  anthropicSdk,
  openAiSdk,
  readChatStream,
  startRelaySuite,
  stopAppAndMock,
} from '../test-support/relay-suite.js';
import { probeChannel } from './channel-probe.js';

/** Served by a channel with AWS access keys (SigV4). */
const SIGNED_MODEL = 'claude-3-5-haiku-20241022';
/** Served by a channel with a Bedrock API key (bearer). */
const API_KEY_MODEL = 'claude-3-haiku-20240307';
/** Served by a channel whose secret is wrong. */
const BROKEN_MODEL = 'claude-sonnet-4-20250514';
const BEDROCK_API_KEY = 'ABSKbWVkcm9jay1hcGkta2V5LWZvci10ZXN0cw==';

const pricing = {
  billing: 'tokens' as const,
  modelRatio: 1.5,
  completionRatio: 5,
  groupRatio: 1,
  cacheRatio: 0.1,
  cacheWriteRatio: 1.25,
};

type Json = Record<string, unknown>;

/** The model id a recorded Bedrock call named in its path, and whether it streamed. */
function invoked(request: RecordedRequest | undefined) {
  const match = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream)$/.exec(request?.path ?? '');
  return {
    modelId: decodeURIComponent(match?.[1] ?? ''),
    stream: match?.[2] === 'invoke-with-response-stream',
  };
}

describe.each(testDialects())('Claude on AWS Bedrock through the relay on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let user: Caller;
  let token: TestToken;
  let claude: Anthropic;
  let openai: OpenAI;
  let signedChannel: number;
  let brokenChannel: number;

  beforeAll(async () => {
    let base: string;
    ({ t, mock, base, user, token } = await startRelaySuite(dialect, {
      options: {
        ...pricingOptions([SIGNED_MODEL, API_KEY_MODEL, BROKEN_MODEL], pricing),
        AutomaticDisableChannelEnabled: true,
        RetryTimes: 0,
      },
      channels: async (add) => {
        signedChannel = await add({ type: 33, models: SIGNED_MODEL, key: MOCK_AWS_KEY });
        await add({ type: 33, models: API_KEY_MODEL, key: `${BEDROCK_API_KEY}|us-west-2` });
        brokenChannel = await add({
          type: 33,
          models: BROKEN_MODEL,
          key: `${MOCK_AWS_CREDENTIALS.accessKeyId}|not-the-secret|us-east-1`,
        });
      },
    }));
    claude = anthropicSdk(base, token.key);
    openai = openAiSdk(base, token.key);
  });
  afterAll(() => stopAppAndMock(t, mock));
  beforeEach(() => mock.reset());

  describe('a Claude client (the Anthropic SDK)', () => {
    it("sends its body in Bedrock's shape, signed with SigV4, and bills cache reads and writes", async () => {
      const content = withMock('hello bedrock', { cached_tokens: 2, cache_write_tokens: 1 });
      const message = await claude.messages.create({
        model: SIGNED_MODEL,
        max_tokens: 200,
        system: 'answer briefly',
        messages: [{ role: 'user', content }],
      });
      const sent = mock.lastRequest();
      expect(sent?.status).toBe(200);
      expect(invoked(sent)).toEqual({ modelId: 'anthropic.claude-3-5-haiku-20241022-v1:0', stream: false });
      expect(sent?.headers.authorization).toMatch(
        new RegExp(
          `^AWS4-HMAC-SHA256 Credential=${MOCK_AWS_CREDENTIALS.accessKeyId}/\\d{8}/us-east-1/bedrock/aws4_request, `,
        ),
      );
      expect(sent?.body).toEqual({
        anthropic_version: 'bedrock-2023-05-31',
        max_tokens: 200,
        system: 'answer briefly',
        messages: [{ role: 'user', content }],
      });
      expect(message.content[0]).toMatchObject({ type: 'text', text: expectedAnthropicReply(sent?.body) });
      const expected = expectedAnthropicUsage(sent?.body);
      expect(message.usage).toMatchObject(expected);
      const log = await lastConsumeLog(t, user.id);
      expect(Number(log.quota)).toBe(anthropicBill(expected, pricing));
      expect(Number(log.prompt_tokens)).toBe(
        expected.input_tokens + expected.cache_read_input_tokens + expected.cache_creation_input_tokens,
      );
    });

    it('streams Anthropic events decoded from event-stream framing, with its betas in the body', async () => {
      const stream = claude.messages.stream(
        {
          model: SIGNED_MODEL,
          max_tokens: 200,
          messages: [{ role: 'user', content: withMock('stream to me please', { cached_tokens: 1 }) }],
        },
        { headers: { 'anthropic-beta': 'interleaved-thinking-2025-05-14' } },
      );
      const kinds: string[] = [];
      stream.on('streamEvent', (event) => kinds.push(event.type));
      const message = await stream.finalMessage();
      const sent = mock.lastRequest();
      expect(invoked(sent).stream).toBe(true);
      expect(sent?.body).toMatchObject({ anthropic_beta: ['interleaved-thinking-2025-05-14'] });
      expect(message.content[0]).toMatchObject({ type: 'text', text: expectedAnthropicReply(sent?.body) });
      expect(kinds[0]).toBe('message_start');
      expect(kinds.at(-1)).toBe('message_stop');
      const expected = expectedAnthropicUsage(sent?.body);
      expect(message.usage).toMatchObject({
        output_tokens: expected.output_tokens,
        cache_read_input_tokens: expected.cache_read_input_tokens,
      });
      expect(Number((await lastConsumeLog(t, user.id)).quota)).toBe(anthropicBill(expected, pricing));
    });

    it('tells a failure inside the stream as an Anthropic error event, and bills what came before it', async () => {
      const billedBefore = (await consumeLogs(t, user.id)).length;
      const stream = claude.messages.stream({
        model: API_KEY_MODEL,
        max_tokens: 200,
        messages: [{ role: 'user', content: withMock('this will break midway', { stream_error: true }) }],
      });
      const failure = await stream.finalMessage().catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(Anthropic.APIError);
      expect(String((failure as Error).message)).toMatch(/modelStreamErrorException/);
      // The server settles the call after the client has read the error event: wait for its log row,
      // so the tests after this one find their own call's row as the newest.
      await expect.poll(async () => (await consumeLogs(t, user.id)).length).toBe(billedBefore + 1);
    });
  });

  describe('an OpenAI client (converted)', () => {
    it('is answered from a Bedrock API-key channel, in OpenAI shape with the usage billed', async () => {
      const completion = await openai.chat.completions.create({
        model: API_KEY_MODEL,
        messages: [
          { role: 'system', content: 'be short' },
          { role: 'user', content: withMock('hello from openai', { cache_write_tokens: 2 }) },
        ],
      });
      const sent = mock.lastRequest();
      expect(sent?.headers.authorization).toBe(`Bearer ${BEDROCK_API_KEY}`);
      expect(invoked(sent)).toEqual({ modelId: 'anthropic.claude-3-haiku-20240307-v1:0', stream: false });
      const body = sent?.body as Json;
      expect(body).toMatchObject({
        anthropic_version: 'bedrock-2023-05-31',
        system: [{ type: 'text', text: 'be short' }],
      });
      expect(body.model).toBeUndefined();
      // The client set no limit: the default hold's is sent, as the Messages API requires one.
      expect(body.max_tokens).toBe(4096);
      expect(completion.choices[0]?.message.content).toBe(expectedAnthropicReply(body));
      const expected = expectedAnthropicUsage(body);
      expect(completion.usage).toMatchObject({
        prompt_tokens: expected.input_tokens + expected.cache_creation_input_tokens,
        completion_tokens: expected.output_tokens,
      });
      expect(Number((await lastConsumeLog(t, user.id)).quota)).toBe(anthropicBill(expected, pricing));
    });

    it('streams chunks with the usage chunk it asked for, from a signed channel', async () => {
      const stream = await openai.chat.completions.create({
        model: SIGNED_MODEL,
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: withMock('count these words', { cached_tokens: 1 }) }],
      });
      const { text, finish, usage } = await readChatStream(stream);
      const sent = mock.lastRequest();
      expect(invoked(sent).stream).toBe(true);
      expect(text).toBe(expectedAnthropicReply(sent?.body));
      expect(finish).toBe('stop');
      const expected = expectedAnthropicUsage(sent?.body);
      expect(usage).toMatchObject({
        prompt_tokens: expected.input_tokens + expected.cache_read_input_tokens,
        completion_tokens: expected.output_tokens,
        prompt_tokens_details: { cached_tokens: expected.cache_read_input_tokens },
      });
      expect(Number((await lastConsumeLog(t, user.id)).quota)).toBe(anthropicBill(expected, pricing));
    });

    it('round-trips a tool call and its result', async () => {
      const tools: OpenAI.ChatCompletionFunctionTool[] = [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'The weather of a city',
            parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
        },
      ];
      const question = { role: 'user' as const, content: 'weather in Paris?' };
      const first = await openai.chat.completions.create({
        model: SIGNED_MODEL,
        tools,
        messages: [
          {
            role: 'user',
            content: withMock(question.content, {
              tool_call: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            }),
          },
        ],
      });
      const call = first.choices[0]?.message.tool_calls?.[0];
      expect(first.choices[0]?.finish_reason).toBe('tool_calls');
      expect(call).toMatchObject({
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
      });
      expect((mock.lastRequest()?.body as Json).tools).toEqual([
        {
          name: 'get_weather',
          description: 'The weather of a city',
          input_schema: tools[0]?.function.parameters,
        },
      ]);

      const second = await openai.chat.completions.create({
        model: SIGNED_MODEL,
        tools,
        messages: [
          question,
          first.choices[0]?.message as OpenAI.ChatCompletionMessageParam,
          { role: 'tool', tool_call_id: call?.id ?? '', content: 'sunny, 21 C' },
        ],
      });
      expect(second.choices[0]?.message.content).toBeTruthy();
      const messages = (mock.lastRequest()?.body as Json).messages as Json[];
      expect(messages[1]).toMatchObject({
        role: 'assistant',
        content: [{ type: 'tool_use', id: call?.id, name: 'get_weather', input: { city: 'Paris' } }],
      });
      expect(messages[2]).toMatchObject({
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: call?.id, content: [{ type: 'text', text: 'sunny, 21 C' }] },
        ],
      });
    });
  });

  describe('the channel', () => {
    it('answers 503 upstream_unavailable when Bedrock refuses the signature, and is disabled', async () => {
      const error = await openai.chat.completions
        .create({ model: BROKEN_MODEL, messages: [{ role: 'user', content: 'anyone?' }] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(503);
      expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe('upstream_unavailable');
      const sent = mock.lastRequest();
      expect(sent?.status).toBe(403);
      expect(invoked(sent).modelId).toBe('anthropic.claude-sonnet-4-20250514-v1:0');
      const row = await channelRow(t, brokenChannel);
      expect(row.status).toBe(CHANNEL_STATUS.autoDisabled);
      expect(row.other_info).toContain('signature we calculated does not match');
    });

    it("is tested with a converted chat call, and a key of neither format is named in the test's message", async () => {
      const row = await channelRow(t, signedChannel);
      const ok = await probeChannel(t.app.ctx, row);
      expect(ok).toMatchObject({ ok: true, message: '' });
      const sent = mock.lastRequest();
      expect(invoked(sent).modelId).toBe('anthropic.claude-3-5-haiku-20241022-v1:0');
      expect(sent?.body).toMatchObject({
        anthropic_version: 'bedrock-2023-05-31',
        messages: [{ role: 'user' }],
      });

      mock.reset();
      const broken = await probeChannel(t.app.ctx, { ...row, key: 'a-lone-secret' });
      expect(broken.ok).toBe(false);
      expect(broken.message).toContain('AccessKeyId|SecretAccessKey|Region');
      expect(mock.requests).toHaveLength(0);
    });
  });
});
