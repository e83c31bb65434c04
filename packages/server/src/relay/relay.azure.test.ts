// Azure OpenAI channels (type 3) over real HTTP: clients call Sluice with the ordinary OpenAI client, the
// relay calls the mock's Azure routes (deployment path, api-version, api-key) and bills the upstream's usage.
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  expectedChatUsage,
  expectedEmbeddingUsage,
  expectedResponsesUsage,
  withMock,
} from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { CHANNEL_STATUS, tokenQuota } from '@sluice/shared';
import { testDialects } from '../test-support/databases.js';
import type { Caller, TestApp } from '../test-support/test-app.js';
import { addChannel, channelRow, lastConsumeLog, setOptions } from '../test-support/relay-kit.js';
import type { TestToken } from '../test-support/relay-kit.js';
import { chatBill } from '../test-support/relay-bills.js';
import { openAiSdk, readChatStream, startRelaySuite, stopAppAndMock } from '../test-support/relay-suite.js';

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
    const models = [GPT, LEGACY, EMBED, BROKEN];
    let base: string;
    ({ t, mock, base, user, token } = await startRelaySuite(dialect, {
      options: {
        ModelRatio: Object.fromEntries(models.map((m) => [m, 2])),
        CompletionRatio: { [GPT]: 4, [LEGACY]: 4 },
        CacheRatio: { [GPT]: 0.5 },
        AutomaticDisableChannelEnabled: true,
        RetryTimes: 0,
      },
      channels: async (add) => {
        await add({
          type: 3,
          key: AZURE_KEY,
          models: `${GPT},${EMBED}`,
          other: '2024-10-21',
          model_mapping: JSON.stringify({ [GPT]: 'prod-gpt-4o' }),
        });
        // No version in `other`: the channel form's default, 2023-06-01-preview.
        await add({
          type: 3,
          key: AZURE_KEY,
          models: LEGACY,
          other: '',
          model_mapping: JSON.stringify({ [LEGACY]: 'gpt-35-turbo' }),
        });
        brokenChannel = await add({
          type: 3,
          key: 'bad-azure-key',
          models: BROKEN,
          other: '2024-10-21',
          auto_ban: 1,
        });
      },
    }));
    openai = openAiSdk(base, token.key);
  });
  afterAll(() => stopAppAndMock(t, mock));
  beforeEach(() => mock.reset());

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
    const log = await lastConsumeLog(t, user.id);
    expect(Number(log.quota)).toBe(chatBill(usage, pricing));
    expect(Number(log.prompt_tokens)).toBe(usage.prompt_tokens);
  });

  it('streams chat, asking the upstream for usage, and bills it', async () => {
    const stream = await openai.chat.completions.create({
      model: GPT,
      stream: true,
      messages: [{ role: 'user', content: 'stream from azure please' }],
    });
    const { text, usageChunks } = await readChatStream(stream);
    expect(text).toBe('You said: stream from azure please');
    // Asked for upstream but not by the client: the usage chunk is not passed on.
    expect(usageChunks).toBe(0);
    const body = mock.lastRequest()?.body as Json;
    expect(body.stream_options).toEqual({ include_usage: true });
    expect(Number((await lastConsumeLog(t, user.id)).quota)).toBe(chatBill(expectedChatUsage(body), pricing));
  });

  it('uses the default api-version when other is empty and sends it nothing that version refuses', async () => {
    const stream = await openai.chat.completions.create({
      model: LEGACY,
      stream: true,
      messages: [{ role: 'user', content: 'an older api version' }],
    });
    const { text } = await readChatStream(stream);
    expect(text).toBe('You said: an older api version');
    const sent = mock.lastRequest();
    expect(sent).toMatchObject({
      path: '/openai/deployments/gpt-35-turbo/chat/completions',
      query: { 'api-version': '2023-06-01-preview' },
      status: 200,
    });
    expect((sent?.body as Json).stream_options).toBeUndefined();
    // No usage from the upstream: the stream is billed by Sluice's own count.
    const log = await lastConsumeLog(t, user.id);
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
    expect(Number((await lastConsumeLog(t, user.id)).prompt_tokens)).toBe(usage.prompt_tokens);
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
    expect(Number((await lastConsumeLog(t, user.id)).quota)).toBe(
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
    const row = await channelRow(t, id);
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
    const row = await channelRow(t, brokenChannel);
    expect(row.status).toBe(CHANNEL_STATUS.autoDisabled);
    expect(row.other_info).toContain('401');
  });
});
