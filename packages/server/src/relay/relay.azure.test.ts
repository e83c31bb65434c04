// Azure OpenAI channels (type 3) over real HTTP: clients call Sluice with the ordinary OpenAI client, the
// relay calls the mock's Azure routes (deployment path, api-version, api-key) and bills the upstream's usage.
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  expectedChatUsage,
  expectedEmbeddingUsage,
  expectedResponsesUsage,
  startMockUpstream,
  withMock,
} from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { CHANNEL_STATUS, LOG_TYPE, tokenQuota } from '@sluice/shared';
import { testDialects } from '../test-support/databases.js';
import { createTestApp } from '../test-support/test-app.js';
import type { Caller, TestApp } from '../test-support/test-app.js';
import { addChannel, addToken, billingWritten, listen, setOptions } from '../test-support/relay-kit.js';
import type { TestToken } from '../test-support/relay-kit.js';

const GPT = 'gpt-4o';
const LEGACY = 'gpt-3.5-turbo';
const EMBED = 'text-embedding-3-small';
const BROKEN = 'gpt-4o-broken';
const AZURE_KEY = 'azure-channel-key-0001';

const pricing = {
  billing: 'tokens' as const,
  modelRatio: 2,
  completionRatio: 4,
  groupRatio: 1,
  cacheRatio: 0.5,
  cacheWriteRatio: 1.25,
};

type Json = Record<string, unknown>;

describe.each(testDialects())('Azure OpenAI channels through the relay on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let user: Caller;
  let token: TestToken;
  let openai: OpenAI;
  let brokenChannel: number;

  beforeAll(async () => {
    mock = await startMockUpstream();
    t = await createTestApp({ dialect });
    const models = [GPT, LEGACY, EMBED, BROKEN];
    await setOptions(t, {
      ModelRatio: Object.fromEntries(models.map((m) => [m, 2])),
      CompletionRatio: { [GPT]: 4, [LEGACY]: 4 },
      CacheRatio: { [GPT]: 0.5 },
      AutomaticDisableChannelEnabled: true,
      RetryTimes: 0,
    });
    user = await t.createUser({ quota: 50_000_000 });
    token = await addToken(t, user.id, { remain_quota: 50_000_000 });
    await addChannel(t, {
      type: 3,
      base_url: mock.url,
      key: AZURE_KEY,
      models: `${GPT},${EMBED}`,
      other: '2024-10-21',
      model_mapping: JSON.stringify({ [GPT]: 'prod-gpt-4o' }),
    });
    // No version in `other`: the channel form's default, 2023-06-01-preview.
    await addChannel(t, {
      type: 3,
      base_url: mock.url,
      key: AZURE_KEY,
      models: LEGACY,
      other: '',
      model_mapping: JSON.stringify({ [LEGACY]: 'gpt-35-turbo' }),
    });
    brokenChannel = await addChannel(t, {
      type: 3,
      base_url: mock.url,
      key: 'bad-azure-key',
      models: BROKEN,
      other: '2024-10-21',
      auto_ban: 1,
    });
    openai = new OpenAI({ apiKey: token.key, baseURL: `${await listen(t)}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  async function lastConsumeLog() {
    await billingWritten(t);
    return t.db.db
      .selectFrom('logs')
      .selectAll()
      .where('user_id', '=', user.id)
      .where('type', '=', LOG_TYPE.consume)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
  }

  const chatBill = (usage: ReturnType<typeof expectedChatUsage>) =>
    tokenQuota(
      {
        promptTokens: usage.prompt_tokens,
        cachedTokens: usage.prompt_tokens_details.cached_tokens,
        completionTokens: usage.completion_tokens,
      },
      pricing,
    );

  it('sends chat to the mapped deployment with the api-key and the api-version, and bills its usage', async () => {
    const completion = await openai.chat.completions.create({
      model: GPT,
      messages: [{ role: 'user', content: withMock('hello azure', { cached_tokens: 1 }) }],
    });
    expect(completion.choices[0]?.message.content).toBe('You said: hello azure');
    const sent = mock.lastRequest();
    expect(sent).toMatchObject({
      path: '/openai/deployments/prod-gpt-4o/chat/completions',
      query: { 'api-version': '2024-10-21' },
      status: 200,
    });
    expect(sent?.headers['api-key']).toBe(AZURE_KEY);
    expect(sent?.headers.authorization).toBeUndefined();
    const usage = expectedChatUsage(sent?.body);
    expect(completion.usage).toMatchObject({ prompt_tokens: usage.prompt_tokens });
    const log = await lastConsumeLog();
    expect(Number(log.quota)).toBe(chatBill(usage));
    expect(Number(log.prompt_tokens)).toBe(usage.prompt_tokens);
  });

  it('streams chat, asking the upstream for usage, and bills it', async () => {
    const stream = await openai.chat.completions.create({
      model: GPT,
      stream: true,
      messages: [{ role: 'user', content: 'stream from azure please' }],
    });
    let text = '';
    let usageChunks = 0;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usageChunks += 1;
    }
    expect(text).toBe('You said: stream from azure please');
    // Asked for upstream but not by the client: the usage chunk is not passed on.
    expect(usageChunks).toBe(0);
    const body = mock.lastRequest()?.body as Json;
    expect(body.stream_options).toEqual({ include_usage: true });
    expect(Number((await lastConsumeLog()).quota)).toBe(chatBill(expectedChatUsage(body)));
  });

  it('uses the default api-version when other is empty and sends it nothing that version refuses', async () => {
    const stream = await openai.chat.completions.create({
      model: LEGACY,
      stream: true,
      messages: [{ role: 'user', content: 'an older api version' }],
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('You said: an older api version');
    const sent = mock.lastRequest();
    expect(sent).toMatchObject({
      path: '/openai/deployments/gpt-35-turbo/chat/completions',
      query: { 'api-version': '2023-06-01-preview' },
      status: 200,
    });
    expect((sent?.body as Json).stream_options).toBeUndefined();
    // No usage from the upstream: the stream is billed by Sluice's own count.
    const log = await lastConsumeLog();
    expect(Number(log.completion_tokens)).toBeGreaterThan(0);
    expect(log.model_name).toBe(LEGACY);
  });

  it('serves embeddings from the deployment and bills their prompt tokens', async () => {
    const embedded = await openai.embeddings.create({ model: EMBED, input: ['one two', 'three'] });
    expect(embedded.data).toHaveLength(2);
    const sent = mock.lastRequest();
    expect(sent?.path).toBe(`/openai/deployments/${EMBED}/embeddings`);
    expect(sent?.query['api-version']).toBe('2024-10-21');
    const usage = expectedEmbeddingUsage(sent?.body);
    expect(embedded.usage.prompt_tokens).toBe(usage.prompt_tokens);
    expect(Number((await lastConsumeLog()).prompt_tokens)).toBe(usage.prompt_tokens);
  });

  it("sends a Responses client's own bytes to Azure's v1 Responses API", async () => {
    const response = await openai.responses.create({
      model: GPT,
      input: 'responses on azure',
      store: true,
      previous_response_id: 'resp_azure_1',
    });
    expect(response.output_text).toBe('You said: responses on azure');
    const sent = mock.lastRequest();
    expect(sent).toMatchObject({ path: '/openai/v1/responses', query: { 'api-version': 'preview' } });
    expect(sent?.headers['api-key']).toBe(AZURE_KEY);
    expect(sent?.body).toMatchObject({
      model: 'prod-gpt-4o',
      store: true,
      previous_response_id: 'resp_azure_1',
    });
    const usage = expectedResponsesUsage(sent?.body);
    expect(response.usage?.input_tokens).toBe(usage.input_tokens);
    expect(Number((await lastConsumeLog()).quota)).toBe(
      tokenQuota({ promptTokens: usage.input_tokens, completionTokens: usage.output_tokens }, pricing),
    );
  });

  it('names the missing resource endpoint of a channel without a base URL, and disables it', async () => {
    const model = 'gpt-4o-nowhere';
    await setOptions(t, { ModelRatio: { [GPT]: 2, [LEGACY]: 2, [EMBED]: 2, [BROKEN]: 2, [model]: 2 } });
    const id = await addChannel(t, {
      type: 3,
      base_url: '',
      key: AZURE_KEY,
      models: model,
      other: '2024-10-21',
    });
    const error = await openai.chat.completions
      .create({ model, messages: [{ role: 'user', content: 'where?' }] })
      .catch((e: unknown) => e as InstanceType<typeof OpenAI.APIError>);
    expect(error).toMatchObject({ status: 500, code: 'channel_misconfigured' });
    expect((error as Error).message).toMatch(/no base URL: set it to the resource endpoint/);
    expect(mock.requests).toHaveLength(0);
    const row = await t.db.db
      .selectFrom('channels')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe(CHANNEL_STATUS.autoDisabled);
    expect(row.other_info).toContain('no base URL');
  });

  it('answers 503 upstream_unavailable for a key Azure refuses, and disables the channel', async () => {
    const error = await openai.chat.completions
      .create({ model: BROKEN, messages: [{ role: 'user', content: 'anyone?' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(503);
    expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe('upstream_unavailable');
    expect(mock.lastRequest()?.status).toBe(401);
    const row = await t.db.db
      .selectFrom('channels')
      .selectAll()
      .where('id', '=', brokenChannel)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe(CHANNEL_STATUS.autoDisabled);
    expect(row.other_info).toContain('401');
  });
});
