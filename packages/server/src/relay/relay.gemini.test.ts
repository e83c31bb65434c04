// The Gemini format both ways, driven by the vendors' own SDKs over real HTTP: a Gemini client on a
// Gemini channel (bytes forwarded), a Gemini client on an OpenAI channel and an OpenAI client on a
// Gemini channel (converted), embeddings, token counts and model lists, each billed from the usage.
import Anthropic from '@anthropic-ai/sdk';
import {
  ApiError,
  FunctionCallingConfigMode,
  GoogleGenAI,
  HarmBlockThreshold,
  HarmCategory,
} from '@google/genai';
import type { Content, GenerateContentResponse, SafetySetting } from '@google/genai';
import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectedChatUsage, expectedGeminiUsage, mockEmbedding, withMock } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { tokenQuota } from '@sluice/shared';
import { testDialects } from '../test-support/databases.js';
import type { Caller, TestApp } from '../test-support/test-app.js';
import { consumeLogs, lastConsumeLog } from '../test-support/relay-kit.js';
import type { TestToken } from '../test-support/relay-kit.js';
import { geminiBill } from '../test-support/relay-bills.js';
import {
  anthropicSdk,
  geminiSdk,
  openAiSdk,
  readChatStream,
  readGeminiStream,
  startRelaySuite,
  stopAppAndMock,
} from '../test-support/relay-suite.js';

const GEMINI = 'gemini-test';
const THINKING = 'gemini-test-thinking-128';
const EMBED = 'gemini-embedding-test';
const REVOKED = 'gemini-revoked';
/** Priced, but no channel serves it. */
const UNSERVED = 'gemini-unserved';
const GPT = 'gpt-test';
const GEMINI_KEY = 'AIza-channel-key-0001';

const ratios = { modelRatio: 1.5, completionRatio: 8, cacheRatio: 0.25 };
const pricing = (model: string) => ({
  billing: 'tokens' as const,
  modelRatio: model === GPT ? 2 : model === EMBED ? 0.05 : ratios.modelRatio,
  completionRatio: model === GPT ? 4 : model === EMBED ? 1 : ratios.completionRatio,
  groupRatio: 1,
  cacheRatio: model === GPT || model === EMBED ? 1 : ratios.cacheRatio,
  cacheWriteRatio: 1.25,
});

type Json = Record<string, unknown>;

const safetySettings: SafetySetting[] = [
  { category: HarmCategory.HARM_CATEGORY_HARASSMENT, threshold: HarmBlockThreshold.BLOCK_ONLY_HIGH },
];

const generatePath = (model: string, stream = false) =>
  `/v1beta/models/${model}:${stream ? 'streamGenerateContent' : 'generateContent'}`;

const tools = [
  {
    functionDeclarations: [
      {
        name: 'get_weather',
        description: 'The weather of a city',
        parametersJsonSchema: {
          type: 'object',
          properties: { city: { type: 'string' } },
          required: ['city'],
        },
      },
    ],
  },
];

describe.each(testDialects())('Gemini through the relay on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let base: string;
  let user: Caller;
  let token: TestToken;
  let gemini: GoogleGenAI;
  let openai: OpenAI;
  /** The bodies the Gemini SDK sent, by path. */
  const sentByClient = new Map<string, unknown>();

  beforeAll(async () => {
    ({ t, mock, base, user, token } = await startRelaySuite(dialect, {
      options: {
        ModelRatio: {
          [GEMINI]: 1.5,
          [THINKING]: 1.5,
          [REVOKED]: 1.5,
          [UNSERVED]: 1,
          [GPT]: 2,
          [EMBED]: 0.05,
        },
        CompletionRatio: { [GEMINI]: 8, [THINKING]: 8, [GPT]: 4 },
        CacheRatio: { [GEMINI]: 0.25, [THINKING]: 0.25 },
      },
      channels: async (add) => {
        await add({ type: 24, models: `${GEMINI},${THINKING},${EMBED}`, key: GEMINI_KEY });
        await add({ type: 24, models: REVOKED, key: 'bad-revoked-key' });
        await add({ type: 1, models: GPT });
      },
    }));
    gemini = new GoogleGenAI({
      apiKey: token.key,
      httpOptions: {
        baseUrl: base,
        // Records what the SDK put on the wire, to compare with what reached the upstream.
        fetch: async (input, init) => {
          const url = new URL(input instanceof Request ? input.url : String(input));
          if (typeof init?.body === 'string') sentByClient.set(url.pathname, JSON.parse(init.body));
          return fetch(input, init);
        },
      },
    });
    openai = openAiSdk(base, token.key);
  });
  afterAll(() => stopAppAndMock(t, mock));
  beforeEach(() => {
    mock.reset();
    sentByClient.clear();
  });

  describe('a Gemini client on a Gemini channel', () => {
    it('forwards the request as it came, with the channel key, and bills thoughts and cache reads', async () => {
      const response = await gemini.models.generateContent({
        model: GEMINI,
        contents: withMock('hello gemini', { reasoning_tokens: 3, cached_tokens: 2 }),
        config: { systemInstruction: 'answer briefly', maxOutputTokens: 200, safetySettings },
      });
      expect(response.text).toBe('You said: hello gemini');
      const path = generatePath(GEMINI);
      const sent = mock.lastRequest(path);
      // The client set its own limit and safety settings: nothing to change, its body goes up as it is.
      expect(sent?.body).toEqual(sentByClient.get(path));
      expect(sent?.headers['x-goog-api-key']).toBe(GEMINI_KEY);
      expect(sent?.headers.authorization).toBeUndefined();
      expect(sent?.query.key).toBeUndefined();
      const expected = expectedGeminiUsage(sent?.body);
      expect(response.usageMetadata).toMatchObject({
        promptTokenCount: expected.promptTokenCount,
        candidatesTokenCount: expected.candidatesTokenCount,
        thoughtsTokenCount: 3,
        cachedContentTokenCount: 2,
      });
      const log = await lastConsumeLog(t, user.id);
      expect(log.model_name).toBe(GEMINI);
      expect(Number(log.prompt_tokens)).toBe(expected.promptTokenCount);
      expect(Number(log.completion_tokens)).toBe((expected.candidatesTokenCount ?? 0) + 3);
      expect(Number(log.quota)).toBe(geminiBill(expected, pricing(GEMINI)));
    });

    it('streams as server-sent events, with the hold as output limit and the site safety settings', async () => {
      const stream = await gemini.models.generateContentStream({
        model: GEMINI,
        contents: withMock('stream these words', { reasoning_tokens: 2 }),
      });
      const { text, finish, usage } = await readGeminiStream(stream);
      expect(text).toBe('You said: stream these words');
      expect(finish).toBe('STOP');
      const sent = mock.lastRequest(generatePath(GEMINI, true));
      expect(sent?.query.alt).toBe('sse');
      const body = sent?.body as Json;
      // No client limit: the default hold's (DefaultMaxTokens "*": 4096) is asked for.
      expect(body.generationConfig).toMatchObject({ maxOutputTokens: 4096 });
      expect(body.safetySettings).toHaveLength(5);
      expect((body.safetySettings as Json[])[0]).toEqual({
        category: 'HARM_CATEGORY_HARASSMENT',
        threshold: 'BLOCK_NONE',
      });
      const expected = expectedGeminiUsage(body);
      expect(usage?.thoughtsTokenCount).toBe(2);
      expect(Number((await lastConsumeLog(t, user.id)).quota)).toBe(geminiBill(expected, pricing(GEMINI)));
    });

    it('streams one JSON array to a client that did not ask for alt=sse, keyed by ?key=', async () => {
      const res = await fetch(`${base}${generatePath(GEMINI, true)}?key=${token.key}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'array framing please' }] }] }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const chunks = (await res.json()) as GenerateContentResponse[];
      const text = chunks.map((c) => c.candidates?.[0]?.content?.parts?.[0]?.text ?? '').join('');
      expect(text).toBe('You said: array framing please');
      expect(chunks.at(-1)?.candidates?.[0]?.finishReason).toBe('STOP');
      expect(chunks.at(-1)?.usageMetadata?.promptTokenCount).toBeGreaterThan(0);
    });

    it('takes a thinking suffix off the model upstream and bills the name the client asked for', async () => {
      await gemini.models.generateContent({
        model: THINKING,
        contents: 'think a little',
        config: { thinkingConfig: { thinkingBudget: 4096 } },
      });
      const sent = mock.lastRequest(generatePath(GEMINI));
      expect((sent?.body as { generationConfig: Json }).generationConfig.thinkingConfig).toEqual({
        thinkingBudget: 128,
        includeThoughts: true,
      });
      expect((await lastConsumeLog(t, user.id)).model_name).toBe(THINKING);
    });

    it('counts tokens for free', async () => {
      const before = (await consumeLogs(t, user.id)).length;
      const counted = await gemini.models.countTokens({
        model: GEMINI,
        contents: 'how many tokens are in this sentence',
      });
      expect(counted.totalTokens).toBeGreaterThan(5);
      expect((await consumeLogs(t, user.id)).length).toBe(before);
    });

    it('embeds through batchEmbedContents and bills the input', async () => {
      const response = await gemini.models.embedContent({
        model: EMBED,
        contents: ['first text to embed', 'second one'],
        config: { outputDimensionality: 8 },
      });
      expect(response.embeddings?.map((e) => e.values)).toEqual([
        mockEmbedding('first text to embed', 8),
        mockEmbedding('second one', 8),
      ]);
      const sent = mock.lastRequest(`/v1beta/models/${EMBED}:batchEmbedContents`);
      expect(sent?.headers['x-goog-api-key']).toBe(GEMINI_KEY);
      const log = await lastConsumeLog(t, user.id);
      expect(log.model_name).toBe(EMBED);
      expect(Number(log.prompt_tokens)).toBeGreaterThan(4);
      expect(Number(log.quota)).toBe(
        tokenQuota({ promptTokens: Number(log.prompt_tokens), completionTokens: 0 }, pricing(EMBED)),
      );
    });

    it('lists the models the token can use, in pages', async () => {
      const names: string[] = [];
      const pager = await gemini.models.list({ config: { pageSize: 2 } });
      for await (const model of pager) names.push(model.name ?? '');
      expect(names).toEqual(
        [
          `models/${EMBED}`,
          `models/${REVOKED}`,
          `models/${GEMINI}`,
          `models/${THINKING}`,
          `models/${GPT}`,
        ].sort(),
      );
      const one = await gemini.models.get({ model: GEMINI });
      expect(one.name).toBe(`models/${GEMINI}`);
    });

    it("answers errors in Google's shape: a bad key, an unknown model, a revoked channel key", async () => {
      const stranger = geminiSdk(base, `sk-${'n'.repeat(48)}`);
      const denied = await stranger.models
        .generateContent({ model: GEMINI, contents: 'x' })
        .catch((error: unknown) => error);
      expect(denied).toBeInstanceOf(ApiError);
      expect((denied as ApiError).status).toBe(401);
      expect(JSON.parse((denied as ApiError).message)).toMatchObject({
        error: { code: 401, status: 'UNAUTHENTICATED' },
      });
      const missing = await gemini.models
        .generateContent({ model: UNSERVED, contents: 'x' })
        .catch((error: unknown) => error);
      expect((missing as ApiError).status).toBe(404);
      expect(JSON.parse((missing as ApiError).message)).toMatchObject({
        error: { code: 404, status: 'NOT_FOUND' },
      });
      // Google answers a revoked key with 400 API_KEY_INVALID: the channel's fault, never the caller's.
      const revoked = await gemini.models
        .generateContent({ model: REVOKED, contents: 'x' })
        .catch((error: unknown) => error);
      expect((revoked as ApiError).status).toBe(503);
      expect(JSON.parse((revoked as ApiError).message)).toMatchObject({ error: { status: 'UNAVAILABLE' } });
    });
  });

  describe('a Gemini client on an OpenAI channel', () => {
    it('converts the call and the answer, with usage from the upstream', async () => {
      const response = await gemini.models.generateContent({
        model: GPT,
        contents: withMock('convert me', { cached_tokens: 1 }),
        config: { systemInstruction: 'be kind', maxOutputTokens: 64 },
      });
      expect(response.text).toBe('You said: convert me');
      expect(response.candidates?.[0]?.finishReason).toBe('STOP');
      const sent = mock.lastRequest('/v1/chat/completions')?.body as Json;
      expect(sent.messages).toEqual([
        { role: 'system', content: 'be kind' },
        { role: 'user', content: withMock('convert me', { cached_tokens: 1 }) },
      ]);
      const usage = expectedChatUsage(sent);
      expect(response.usageMetadata).toMatchObject({
        promptTokenCount: usage.prompt_tokens,
        candidatesTokenCount: usage.completion_tokens,
        cachedContentTokenCount: 1,
      });
      expect(Number((await lastConsumeLog(t, user.id)).quota)).toBe(
        tokenQuota(
          { promptTokens: usage.prompt_tokens, cachedTokens: 1, completionTokens: usage.completion_tokens },
          pricing(GPT),
        ),
      );
    });

    it('streams the converted answer as Gemini events', async () => {
      const stream = await gemini.models.generateContentStream({
        model: GPT,
        contents: 'stream converted words',
      });
      const { text, usage } = await readGeminiStream(stream);
      expect(text).toBe('You said: stream converted words');
      const expected = expectedChatUsage(mock.lastRequest('/v1/chat/completions')?.body);
      expect(usage).toMatchObject({
        promptTokenCount: expected.prompt_tokens,
        candidatesTokenCount: expected.completion_tokens,
      });
    });

    it('round-trips a function call and its response', async () => {
      const ask = withMock('weather in Paris?', {
        tool_call: { name: 'get_weather', arguments: '{"city":"Paris"}' },
      });
      const first = await gemini.models.generateContent({
        model: GPT,
        contents: ask,
        config: { tools, toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.AUTO } } },
      });
      expect(first.functionCalls?.[0]).toMatchObject({ name: 'get_weather', args: { city: 'Paris' } });
      const sentTools = (mock.lastRequest('/v1/chat/completions')?.body as Json).tools;
      expect(sentTools).toEqual([
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'The weather of a city',
            parameters: tools[0]?.functionDeclarations[0]?.parametersJsonSchema,
          },
        },
      ]);
      const call = first.functionCalls?.[0];
      const history: Content[] = [
        { role: 'user', parts: [{ text: 'weather in Paris?' }] },
        first.candidates?.[0]?.content as Content,
        {
          role: 'user',
          parts: [{ functionResponse: { id: call?.id, name: 'get_weather', response: { sky: 'sunny' } } }],
        },
      ];
      const second = await gemini.models.generateContent({
        model: GPT,
        contents: history,
        config: { tools },
      });
      expect(second.text).toEqual(expect.any(String));
      const messages = (mock.lastRequest('/v1/chat/completions')?.body as Json).messages as Json[];
      expect(messages[1]).toMatchObject({
        role: 'assistant',
        tool_calls: [{ id: call?.id, function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
      });
      expect(messages[2]).toEqual({ role: 'tool', tool_call_id: call?.id, content: '{"sky":"sunny"}' });
    });
  });

  describe('an OpenAI client on a Gemini channel', () => {
    it('converts the call to generateContent and bills thoughts and cached tokens', async () => {
      const completion = await openai.chat.completions.create({
        model: GEMINI,
        max_tokens: 300,
        messages: [
          { role: 'system', content: 'be short' },
          { role: 'user', content: withMock('hello from openai', { reasoning_tokens: 4, cached_tokens: 3 }) },
        ],
      });
      expect(completion.choices[0]?.message.content).toBe('You said: hello from openai');
      expect(completion.choices[0]?.finish_reason).toBe('stop');
      const sent = mock.lastRequest(generatePath(GEMINI));
      expect(sent?.headers['x-goog-api-key']).toBe(GEMINI_KEY);
      const body = sent?.body as Json;
      expect(body.systemInstruction).toEqual({ parts: [{ text: 'be short' }] });
      expect(body.generationConfig).toEqual({ maxOutputTokens: 300 });
      expect(body.safetySettings).toHaveLength(5);
      const expected = expectedGeminiUsage(body);
      expect(completion.usage).toMatchObject({
        prompt_tokens: expected.promptTokenCount,
        completion_tokens: (expected.candidatesTokenCount ?? 0) + 4,
        prompt_tokens_details: { cached_tokens: 3 },
      });
      expect(Number((await lastConsumeLog(t, user.id)).quota)).toBe(geminiBill(expected, pricing(GEMINI)));
    });

    it('streams chunks with the usage chunk the client asked for', async () => {
      const stream = await openai.chat.completions.create({
        model: GEMINI,
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: 'count these words' }],
      });
      const { text, usage } = await readChatStream(stream);
      expect(text).toBe('You said: count these words');
      const sent = mock.lastRequest(generatePath(GEMINI, true));
      expect(sent?.query.alt).toBe('sse');
      const expected = expectedGeminiUsage(sent?.body);
      expect(usage).toMatchObject({
        prompt_tokens: expected.promptTokenCount,
        completion_tokens: expected.candidatesTokenCount,
      });
      expect(Number((await lastConsumeLog(t, user.id)).quota)).toBe(geminiBill(expected, pricing(GEMINI)));
    });

    it('maps tools, a function call and its result both ways', async () => {
      const openAiTools: OpenAI.ChatCompletionTool[] = [
        {
          type: 'function',
          function: { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } } },
        },
      ];
      const ask = withMock('find it', { tool_call: { name: 'lookup', arguments: '{"q":"it"}' } });
      const completion = await openai.chat.completions.create({
        model: GEMINI,
        tools: openAiTools,
        messages: [{ role: 'user', content: ask }],
      });
      const body = mock.lastRequest(generatePath(GEMINI))?.body as Json;
      expect(body.tools).toEqual([
        {
          functionDeclarations: [
            {
              name: 'lookup',
              parametersJsonSchema: { type: 'object', properties: { q: { type: 'string' } } },
            },
          ],
        },
      ]);
      const choice = completion.choices[0];
      expect(choice?.finish_reason).toBe('tool_calls');
      const call = choice?.message.tool_calls?.[0] as OpenAI.ChatCompletionMessageFunctionToolCall;
      expect(call.function).toEqual({ name: 'lookup', arguments: '{"q":"it"}' });

      await openai.chat.completions.create({
        model: GEMINI,
        tools: openAiTools,
        messages: [
          { role: 'user', content: 'find it' },
          { role: 'assistant', content: null, tool_calls: [call] },
          { role: 'tool', tool_call_id: call.id, content: 'found: 42' },
        ],
      });
      const contents = (mock.lastRequest(generatePath(GEMINI))?.body as Json).contents as Json[];
      expect(contents[1]).toMatchObject({
        role: 'model',
        parts: [{ functionCall: { id: call.id, name: 'lookup', args: { q: 'it' } } }],
      });
      expect(contents[2]).toEqual({
        role: 'user',
        parts: [{ functionResponse: { id: call.id, name: 'lookup', response: { output: 'found: 42' } } }],
      });
    });

    it('embeds through batchEmbedContents and answers the OpenAI list', async () => {
      const response = await openai.embeddings.create({ model: EMBED, input: ['alpha beta', 'gamma'] });
      expect(response.data.map((d) => d.embedding)).toEqual([
        mockEmbedding('alpha beta'),
        mockEmbedding('gamma'),
      ]);
      const sent = mock.lastRequest(`/v1beta/models/${EMBED}:batchEmbedContents`)?.body as Json;
      expect(sent.requests).toEqual([
        { model: `models/${EMBED}`, content: { parts: [{ text: 'alpha beta' }] } },
        { model: `models/${EMBED}`, content: { parts: [{ text: 'gamma' }] } },
      ]);
      const log = await lastConsumeLog(t, user.id);
      expect(log.model_name).toBe(EMBED);
      expect(Number(log.prompt_tokens)).toBeGreaterThan(1);
    });
  });

  describe('Gemini paths', () => {
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': token.key, ...headers },
        body: JSON.stringify(body),
      });

    it('serves models/{model}:generateContent under /v1 too, as Google does', async () => {
      const res = await post(`/v1/models/${GEMINI}:generateContent`, {
        contents: [{ parts: [{ text: 'the v1 path' }] }],
      });
      expect(res.status).toBe(200);
      const answer = (await res.json()) as GenerateContentResponse;
      expect(answer.candidates?.[0]?.content?.parts?.[0]?.text).toBe('You said: the v1 path');
    });

    it('tells a stream broken by the upstream inside the stream, in Google’s shape', async () => {
      const res = await post(`${generatePath(GEMINI, true)}?alt=sse`, {
        contents: [{ parts: [{ text: withMock('one two three four five', { cut_after: 2 }) }] }],
      });
      expect(res.status).toBe(200);
      const events = (await res.text())
        .split('\r\n\r\n')
        .filter((e) => e !== '')
        .map((e) => JSON.parse(e.replace(/^data: /, '')) as Json);
      expect(events.length).toBe(3);
      expect(events.at(-1)).toMatchObject({ error: { code: 502, status: 'UNAVAILABLE' } });
      const log = await lastConsumeLog(t, user.id);
      expect(JSON.parse(log.other ?? '{}')).toMatchObject({ stream_interrupted: 'upstream' });
    });

    it('answers CORS preflights, unknown methods and paths in Google’s shape', async () => {
      const preflight = await fetch(`${base}${generatePath(GEMINI)}`, {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-headers')).toContain('x-goog-api-key');
      const unknown = await post(`/v1beta/models/${GEMINI}:predict`, {});
      expect(unknown.status).toBe(501);
      expect(await unknown.json()).toMatchObject({ error: { code: 501, status: 'UNIMPLEMENTED' } });
      const elsewhere = await post('/v1beta/cachedContents', {});
      expect(elsewhere.status).toBe(501);
      expect(elsewhere.headers.get('access-control-allow-origin')).toBe('*');
      const keyless = await fetch(`${base}${generatePath(GEMINI)}`, { method: 'POST', body: '{}' });
      expect(keyless.status).toBe(401);
      expect(await keyless.json()).toMatchObject({ error: { status: 'UNAUTHENTICATED' } });
    });
  });

  describe('/v1/models in each vendor’s shape', () => {
    it('answers a Google caller’s model lookup and refusal in Google’s shape', async () => {
      const one = await fetch(`${base}/v1/models/${GEMINI}`, { headers: { 'x-goog-api-key': token.key } });
      expect(await one.json()).toMatchObject({ name: `models/${GEMINI}` });
      const denied = await fetch(`${base}/v1/models`, {
        headers: { 'x-goog-api-key': `sk-${'q'.repeat(48)}` },
      });
      expect(denied.status).toBe(401);
      expect(await denied.json()).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
    });

    it('answers Google callers (x-goog-api-key) and Anthropic callers (anthropic-version) in theirs', async () => {
      const google = await fetch(`${base}/v1/models`, { headers: { 'x-goog-api-key': token.key } });
      const listed = (await google.json()) as { models: { name: string }[] };
      expect(listed.models.map((m) => m.name)).toContain(`models/${GEMINI}`);

      const claude = anthropicSdk(base, token.key);
      const ids: string[] = [];
      for await (const model of claude.models.list({ limit: 2 })) {
        expect(model.type).toBe('model');
        ids.push(model.id);
      }
      expect(ids).toEqual([EMBED, REVOKED, GEMINI, THINKING, GPT].sort());
      const one = await claude.models.retrieve(GPT);
      expect(one).toMatchObject({ type: 'model', id: GPT, display_name: GPT });
      const missing = await claude.models.retrieve('nope').catch((error: unknown) => error);
      expect(missing).toBeInstanceOf(Anthropic.NotFoundError);

      const plain = (await (
        await fetch(`${base}/v1/models`, {
          headers: { authorization: `Bearer ${token.key}` },
        })
      ).json()) as { object: string };
      expect(plain.object).toBe('list');
    });
  });
});
