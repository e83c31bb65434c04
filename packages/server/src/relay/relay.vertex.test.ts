// Vertex AI (type 41) over real HTTP, driven by the vendors' own SDKs: the service account's JWT is
// exchanged at its token_uri (the mock's, which verifies it with the account's public key), the
// token is reused until near expiry, Gemini models are served in Gemini's wire and Claude models in
// Anthropic's — forwarded to clients of the same dialect, converted for the others — and billed.
import type Anthropic from '@anthropic-ai/sdk';
import type { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectedAnthropicUsage, expectedGeminiUsage, withMock } from '@sluice/mock-upstream';
import type { MockUpstream, RecordedRequest } from '@sluice/mock-upstream';
import { CHANNEL_STATUS, ROLE } from '@sluice/shared';
import { testDialects } from '../test-support/databases.js';
import type { Caller, TestApp } from '../test-support/test-app.js';
import { channelRow, lastConsumeLog } from '../test-support/relay-kit.js';
import type { TestToken } from '../test-support/relay-kit.js';
import { anthropicBill, geminiBill, pricingOptions } from '../test-support/relay-bills.js';
import {
  anthropicSdk,
  geminiSdk,
  openAiSdk,
  readChatStream,
  readGeminiStream,
  startRelaySuite,
  stopAppAndMock,
} from '../test-support/relay-suite.js';
import {
  mockVertexAccount,
  registerServiceAccount,
  testServiceAccount,
} from '../test-support/vertex-keys.js';
import type { TestServiceAccount } from '../test-support/vertex-keys.js';

const GEMINI = 'gemini-2.5-flash';
const CLAUDE = 'claude-sonnet-4';
const REUSE = 'gemini-reuse';
const SHORT = 'gemini-short-lived';
const TOKYO = 'gemini-tokyo';
const IMPOSTOR = 'gemini-impostor';
const MAPPED_CLAUDE = 'claude-mapped';
const MAPPED_GEMINI = 'gemini-mapped';
const ALL = [GEMINI, CLAUDE, REUSE, SHORT, TOKYO, IMPOSTOR, MAPPED_CLAUDE, MAPPED_GEMINI];
const PROJECT = 'sluice-test';

const pricing = {
  billing: 'tokens' as const,
  modelRatio: 1.5,
  completionRatio: 4,
  groupRatio: 1,
  cacheRatio: 0.1,
  cacheWriteRatio: 1.25,
};

type Json = Record<string, unknown>;

const modelPath = (region: string, publisher: 'google' | 'anthropic', model: string, method: string) =>
  `/v1/projects/${PROJECT}/locations/${region}/publishers/${publisher}/models/${model}:${method}`;

describe.each(testDialects())('Vertex AI through the relay on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let base: string;
  let user: Caller;
  let token: TestToken;
  let gemini: GoogleGenAI;
  let claude: Anthropic;
  let openai: OpenAI;
  let main: TestServiceAccount;
  let impostorChannel: number;
  let mainChannel: number;

  const tokenRequests = () => mock.requests.filter((r) => r.path === '/token');
  const modelRequests = () => mock.requests.filter((r) => r.path.startsWith('/v1/projects/'));
  const bearer = (r: RecordedRequest | undefined) => r?.headers.authorization;

  beforeAll(async () => {
    ({ t, mock, base, user, token } = await startRelaySuite(dialect, {
      options: { ...pricingOptions(ALL, pricing), AutomaticDisableChannelEnabled: true },
      quota: 80_000_000,
      channels: async (add, mock) => {
        const tokenUri = `${mock.url}/token`;
        main = registerServiceAccount(mock, { projectId: PROJECT });
        const reuse = registerServiceAccount(mock, { projectId: PROJECT });
        const short = testServiceAccount(tokenUri, { projectId: PROJECT });
        // 301 s: renewed 5 minutes before expiry, so reused for one second only.
        mock.setVertexServiceAccount({ ...mockVertexAccount(short), tokenLifetimeSeconds: 301 });
        const impostor = testServiceAccount(tokenUri, { projectId: PROJECT });
        // Google knows the impostor's account with another public key: its JWTs fail the signature check.
        mock.setVertexServiceAccount({ ...mockVertexAccount(impostor), publicKeyPem: main.publicKeyPem });
        mainChannel = await add({ type: 41, models: `${GEMINI},${CLAUDE}`, key: main.key });
        await add({ type: 41, models: REUSE, key: reuse.key });
        await add({ type: 41, models: SHORT, key: short.key });
        await add({ type: 41, models: TOKYO, key: main.key, other: 'asia-northeast1' });
        impostorChannel = await add({ type: 41, models: IMPOSTOR, key: impostor.key });
        await add({
          type: 41,
          models: `${MAPPED_CLAUDE},${MAPPED_GEMINI}`,
          key: main.key,
          other: JSON.stringify({ default: 'us-east5', [MAPPED_CLAUDE]: 'global' }),
        });
      },
    }));
    gemini = geminiSdk(base, token.key);
    claude = anthropicSdk(base, token.key);
    openai = openAiSdk(base, token.key);
  });
  afterAll(() => stopAppAndMock(t, mock));
  beforeEach(() => mock.reset());

  describe('Gemini models', () => {
    it("forward a Gemini client's call to Google's publisher with the access token, billed from usage", async () => {
      const response = await gemini.models.generateContent({
        model: GEMINI,
        contents: withMock('hello vertex', { reasoning_tokens: 2, cached_tokens: 1 }),
        config: { maxOutputTokens: 100 },
      });
      expect(response.text).toBe('You said: hello vertex');
      const sent = mock.lastRequest(modelPath('us-central1', 'google', GEMINI, 'generateContent'));
      expect(sent?.status).toBe(200);
      expect(bearer(sent)).toMatch(/^Bearer ya29\./);
      expect(sent?.headers['x-goog-api-key']).toBeUndefined();
      expect((sent?.body as Json).contents).toEqual([
        {
          role: 'user',
          parts: [{ text: withMock('hello vertex', { reasoning_tokens: 2, cached_tokens: 1 }) }],
        },
      ]);
      const expected = expectedGeminiUsage(sent?.body);
      expect(response.usageMetadata).toMatchObject({ thoughtsTokenCount: 2, cachedContentTokenCount: 1 });
      expect(Number((await lastConsumeLog(t, user.id)).quota)).toBe(geminiBill(expected, pricing));
    });

    it('stream to a Gemini client as server-sent events', async () => {
      const stream = await gemini.models.generateContentStream({
        model: GEMINI,
        contents: 'stream from vertex',
      });
      const { text, last } = await readGeminiStream(stream);
      expect(text).toBe('You said: stream from vertex');
      const sent = mock.lastRequest(modelPath('us-central1', 'google', GEMINI, 'streamGenerateContent'));
      expect(sent?.query.alt).toBe('sse');
      const expected = expectedGeminiUsage(sent?.body);
      expect(last?.usageMetadata?.promptTokenCount).toBe(expected.promptTokenCount);
      expect(Number((await lastConsumeLog(t, user.id)).quota)).toBe(geminiBill(expected, pricing));
    });

    it('convert for an OpenAI client, JSON and stream', async () => {
      const completion = await openai.chat.completions.create({
        model: GEMINI,
        messages: [{ role: 'user', content: 'openai to vertex gemini' }],
      });
      expect(completion.choices[0]?.message.content).toBe('You said: openai to vertex gemini');
      const sent = mock.lastRequest(modelPath('us-central1', 'google', GEMINI, 'generateContent'));
      const expected = expectedGeminiUsage(sent?.body);
      expect(completion.usage?.prompt_tokens).toBe(expected.promptTokenCount);
      expect(Number((await lastConsumeLog(t, user.id)).quota)).toBe(geminiBill(expected, pricing));

      const stream = await openai.chat.completions.create({
        model: GEMINI,
        messages: [{ role: 'user', content: 'stream it converted' }],
        stream: true,
        stream_options: { include_usage: true },
      });
      const { text, usage } = await readChatStream(stream);
      expect(text).toBe('You said: stream it converted');
      const streamed = expectedGeminiUsage(
        mock.lastRequest(modelPath('us-central1', 'google', GEMINI, 'streamGenerateContent'))?.body,
      );
      expect(usage?.completion_tokens).toBe(streamed.candidatesTokenCount);
    });
  });

  describe('Claude models', () => {
    it("forward a Claude client's call to Anthropic's publisher in europe-west1, billed with cache ratios", async () => {
      const content = withMock('hello claude on vertex', { cached_tokens: 3, cache_write_tokens: 2 });
      const message = await claude.messages.create(
        { model: CLAUDE, max_tokens: 120, system: 'be brief', messages: [{ role: 'user', content }] },
        { headers: { 'anthropic-beta': 'context-1m-2025-08-07' } },
      );
      expect(message.content[0]).toMatchObject({ type: 'text', text: 'You said: hello claude on vertex' });
      const sent = mock.lastRequest(modelPath('europe-west1', 'anthropic', CLAUDE, 'rawPredict'));
      expect(sent?.status).toBe(200);
      expect(bearer(sent)).toMatch(/^Bearer ya29\./);
      expect(sent?.headers['anthropic-beta']).toBe('context-1m-2025-08-07');
      expect(sent?.headers['x-api-key']).toBeUndefined();
      const body = sent?.body as Json;
      expect(body).toEqual({
        anthropic_version: 'vertex-2023-10-16',
        max_tokens: 120,
        system: 'be brief',
        messages: [{ role: 'user', content }],
      });
      const expected = expectedAnthropicUsage({ ...body, model: CLAUDE });
      expect(message.usage).toMatchObject(expected);
      expect(Number((await lastConsumeLog(t, user.id)).quota)).toBe(anthropicBill(expected, pricing));
    });

    it('stream Anthropic events to a Claude client', async () => {
      const stream = claude.messages.stream({
        model: CLAUDE,
        max_tokens: 80,
        messages: [{ role: 'user', content: 'stream claude on vertex' }],
      });
      const kinds: string[] = [];
      stream.on('streamEvent', (event) => kinds.push(event.type));
      const message = await stream.finalMessage();
      expect(message.content[0]).toMatchObject({ type: 'text', text: 'You said: stream claude on vertex' });
      expect(kinds[0]).toBe('message_start');
      expect(kinds.at(-1)).toBe('message_stop');
      const sent = mock.lastRequest(modelPath('europe-west1', 'anthropic', CLAUDE, 'streamRawPredict'));
      expect((sent?.body as Json).stream).toBe(true);
      const expected = expectedAnthropicUsage({ ...(sent?.body as Json), model: CLAUDE });
      expect(Number((await lastConsumeLog(t, user.id)).quota)).toBe(anthropicBill(expected, pricing));
    });

    it('convert for an OpenAI client, JSON and stream', async () => {
      const completion = await openai.chat.completions.create({
        model: CLAUDE,
        max_tokens: 60,
        messages: [
          { role: 'system', content: 'stay short' },
          { role: 'user', content: 'openai to vertex claude' },
        ],
      });
      expect(completion.choices[0]?.message.content).toBe('You said: openai to vertex claude');
      const body = mock.lastRequest(modelPath('europe-west1', 'anthropic', CLAUDE, 'rawPredict'))
        ?.body as Json;
      expect(body.anthropic_version).toBe('vertex-2023-10-16');
      expect(body.model).toBeUndefined();
      expect(body.max_tokens).toBe(60);
      const expected = expectedAnthropicUsage({ ...body, model: CLAUDE });
      expect(completion.usage?.completion_tokens).toBe(expected.output_tokens);
      expect(Number((await lastConsumeLog(t, user.id)).quota)).toBe(anthropicBill(expected, pricing));

      const stream = await openai.chat.completions.create({
        model: CLAUDE,
        messages: [{ role: 'user', content: 'stream converted claude' }],
        stream: true,
      });
      const { text } = await readChatStream(stream);
      expect(text).toBe('You said: stream converted claude');
      expect(
        mock.lastRequest(modelPath('europe-west1', 'anthropic', CLAUDE, 'streamRawPredict'))?.status,
      ).toBe(200);
    });

    it('convert for a Gemini client: the dialect follows the model, not the channel', async () => {
      const response = await gemini.models.generateContent({
        model: CLAUDE,
        contents: 'gemini client, claude model',
      });
      expect(response.text).toBe('You said: gemini client, claude model');
      const body = mock.lastRequest(modelPath('europe-west1', 'anthropic', CLAUDE, 'rawPredict'))
        ?.body as Json;
      expect(body.messages).toEqual([
        { role: 'user', content: [{ type: 'text', text: 'gemini client, claude model' }] },
      ]);
    });
  });

  describe('regions', () => {
    it("follow the channel's region, or its JSON map with a default", async () => {
      const ask = (model: string) =>
        openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'where are you' }] });
      await ask(TOKYO);
      await ask(MAPPED_CLAUDE);
      await ask(MAPPED_GEMINI);
      expect(modelRequests().map((r) => r.path)).toEqual([
        modelPath('asia-northeast1', 'google', TOKYO, 'generateContent'),
        modelPath('global', 'anthropic', MAPPED_CLAUDE, 'rawPredict'),
        modelPath('us-east5', 'google', MAPPED_GEMINI, 'generateContent'),
      ]);
    });
  });

  describe('access tokens', () => {
    it('are fetched once per key and shared by calls made at the same time', async () => {
      const ask = (content: string) =>
        openai.chat.completions.create({ model: REUSE, messages: [{ role: 'user', content }] });
      await Promise.all([ask('one'), ask('two'), ask('three')]);
      await ask('four');
      const stream = await gemini.models.generateContentStream({ model: REUSE, contents: 'five' });
      for await (const chunk of stream) expect(chunk).toBeDefined();
      expect(tokenRequests()).toHaveLength(1);
      const calls = modelRequests();
      expect(calls).toHaveLength(5);
      expect(calls.every((r) => r.status === 200 && bearer(r) === bearer(calls[0]))).toBe(true);
    });

    it('are fetched again once they near expiry', async () => {
      const ask = () =>
        openai.chat.completions.create({ model: SHORT, messages: [{ role: 'user', content: 'hi' }] });
      await ask();
      await ask();
      expect(tokenRequests()).toHaveLength(1);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await ask();
      expect(tokenRequests()).toHaveLength(2);
      const [first, second, third] = modelRequests();
      expect(bearer(second)).toBe(bearer(first));
      expect(bearer(third)).not.toBe(bearer(first));
    });

    it('refused by the token endpoint make the channel unavailable, never a 400 for the caller', async () => {
      const failure = await openai.chat.completions
        .create({ model: IMPOSTOR, messages: [{ role: 'user', content: 'hi' }] })
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(OpenAI.APIError);
      expect((failure as InstanceType<typeof OpenAI.APIError>).status).toBe(503);
      expect((failure as InstanceType<typeof OpenAI.APIError>).code).toBe('upstream_unavailable');
      expect(tokenRequests()).toHaveLength(1);
      expect(tokenRequests()[0]?.status).toBe(400);
      expect(modelRequests()).toHaveLength(0);
      const row = await channelRow(t, impostorChannel);
      expect(row.status).toBe(CHANNEL_STATUS.autoDisabled);
    });
  });

  it('serve from each channel that a batch of uploaded key files creates', async () => {
    const admin = await t.createUser({ role: ROLE.admin });
    const files = [testServiceAccount(`${mock.url}/token`), testServiceAccount(`${mock.url}/token`)];
    for (const file of files) {
      mock.setVertexServiceAccount({
        clientEmail: file.clientEmail,
        publicKeyPem: file.publicKeyPem,
        projectId: file.projectId,
      });
    }
    // As the console sends them: each file's JSON, the way it was written, one after the other.
    const key = files.map((file) => JSON.stringify(file.file, null, 2)).join('\n');
    const created = await t.call({
      method: 'POST',
      url: '/api/channel/',
      as: admin,
      payload: {
        type: 41,
        name: 'vertex batch',
        key,
        base_url: mock.url,
        models: ['gemini-batch'],
        groups: ['default'],
      },
    });
    const { data } = created.json<{ data: { ids: number[] } }>();
    expect(data.ids).toHaveLength(2);
    for (const id of data.ids) {
      const res = await t.call({ method: 'GET', url: `/api/channel/test/${id}`, as: admin });
      expect(res.json<{ success: boolean }>().success).toBe(true);
    }
    // One token per key file, each asked for with that file's own signed assertion.
    const issuers = tokenRequests().map((r) => {
      const claims = String((r.body as Json).assertion).split('.')[1] ?? '';
      return (JSON.parse(Buffer.from(claims, 'base64url').toString()) as Json).iss;
    });
    expect(issuers.sort()).toEqual(files.map((file) => file.clientEmail).sort());
  });

  it('pass the console channel test for a Gemini and a Claude model', async () => {
    const admin = await t.createUser({ role: ROLE.admin });
    for (const model of [GEMINI, CLAUDE]) {
      const res = await t.call({
        method: 'GET',
        url: `/api/channel/test/${mainChannel}?model=${model}`,
        as: admin,
      });
      expect(res.json<{ success: boolean; message: string }>(), model).toMatchObject({ success: true });
    }
    expect(modelRequests().map((r) => r.path)).toEqual([
      modelPath('us-central1', 'google', GEMINI, 'generateContent'),
      modelPath('europe-west1', 'anthropic', CLAUDE, 'rawPredict'),
    ]);
  });
});
