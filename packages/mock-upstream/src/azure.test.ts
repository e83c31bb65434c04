import OpenAI, { AzureOpenAI } from 'openai';
import { describe, expect, it } from 'vitest';
import { withMock } from './directive.js';
import type { MockUpstream } from './server.js';
import { useMockUpstream } from './test-support/test-kit.js';
import { expectedChatUsage, expectedEmbeddingUsage } from './usage.js';
import { expectedResponsesUsage } from './usage-responses.js';

// The official AzureOpenAI client builds Azure's URLs and sends the api-key header itself: what it
// accepts from the mock is what it accepts from Azure.
let mock: MockUpstream;
let azure: AzureOpenAI;
useMockUpstream((started) => {
  mock = started;
  azure = new AzureOpenAI({ apiKey: 'az-key', endpoint: mock.url, apiVersion: '2024-10-21', maxRetries: 0 });
});

type Json = Record<string, unknown>;

async function post(path: string, headers: Record<string, string>, body: Json = {}) {
  const res = await fetch(`${mock.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'hello azure' }];
const chatBody = { messages };

describe('Azure OpenAI deployment routes', () => {
  it('answers chat completions for a deployment, the deployment standing for the model', async () => {
    const completion = await azure.chat.completions.create({ model: 'gpt-4.1', messages });
    expect(completion.choices[0]?.message.content).toBe('You said: hello azure');
    expect(completion.model).toBe('gpt-4.1');
    expect(completion.usage).toEqual(expectedChatUsage(chatBody));
    const sent = mock.lastRequest();
    expect(sent).toMatchObject({
      path: '/openai/deployments/gpt-4.1/chat/completions',
      query: { 'api-version': '2024-10-21' },
    });
    expect(sent?.headers['api-key']).toBe('az-key');
  });

  it('streams with include_usage and serves embeddings under the deployment', async () => {
    const stream = await azure.chat.completions.create({
      model: 'gpt-4o',
      stream: true,
      stream_options: { include_usage: true },
      messages,
    });
    let text = '';
    let usage: unknown;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe('You said: hello azure');
    expect(usage).toEqual(expectedChatUsage(chatBody));

    const embedded = await azure.embeddings.create({ model: 'text-embedding-3-small', input: 'two words' });
    expect(embedded.usage).toEqual(expectedEmbeddingUsage({ input: 'two words' }));
    expect(mock.lastRequest()?.path).toBe('/openai/deployments/text-embedding-3-small/embeddings');
  });

  it("refuses a missing or bad key with Azure's 401, whatever the route", async () => {
    const denied = {
      error: {
        code: '401',
        message: expect.stringMatching(
          /^Access denied due to invalid subscription key or wrong API endpoint/,
        ),
      },
    };
    const path = '/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21';
    expect(await post(path, {}, chatBody)).toEqual({ status: 401, body: denied });
    expect(await post(path, { 'api-key': 'bad-key' }, chatBody)).toEqual({ status: 401, body: denied });
    // A bearer token on a deployment route is Entra ID's; an API key there is refused.
    expect(await post(path, { authorization: 'Bearer az-key' }, chatBody)).toEqual({
      status: 401,
      body: denied,
    });
    const client = new AzureOpenAI({
      apiKey: 'bad',
      endpoint: mock.url,
      apiVersion: '2024-10-21',
      maxRetries: 0,
    });
    const error = await client.chat.completions
      .create({ model: 'gpt-4o', messages })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
  });

  it("answers Azure's 404 without an api-version, 400 for one it does not know", async () => {
    const key = { 'api-key': 'az-key' };
    expect(await post('/openai/deployments/gpt-4o/chat/completions', key, chatBody)).toEqual({
      status: 404,
      body: { error: { code: '404', message: 'Resource not found' } },
    });
    expect(
      await post('/openai/deployments/gpt-4o/chat/completions?api-version=2099-01-01', key, chatBody),
    ).toEqual({
      status: 400,
      body: { error: { code: 'BadRequest', message: 'API version not supported' } },
    });
    expect((await post('/openai/deployments/gpt-4o/moderations?api-version=2024-10-21', key)).status).toBe(
      404,
    );
  });

  it('refuses stream_options and max_completion_tokens under versions older than 2024-09-01-preview', async () => {
    const key = { 'api-key': 'az-key' };
    const old = '/openai/deployments/gpt-4o/chat/completions?api-version=2023-06-01-preview';
    const refused = await post(old, key, {
      ...chatBody,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(refused).toEqual({
      status: 400,
      body: {
        error: {
          message: 'Unrecognized request argument supplied: stream_options',
          type: 'invalid_request_error',
          param: null,
          code: null,
        },
      },
    });
    expect((await post(old, key, { ...chatBody, max_completion_tokens: 5 })).status).toBe(400);
    expect((await post(old, key, { ...chatBody, max_tokens: 5 })).status).toBe(200);
    const newer = '/openai/deployments/gpt-4o/chat/completions?api-version=2024-09-01-preview';
    expect((await post(newer, key, { ...chatBody, max_completion_tokens: 5 })).status).toBe(200);
  });

  it('lets key-scoped behaviours and body directives play faults', async () => {
    mock.setBehaviour({ status: 429 }, { key: 'az-limited' });
    const path = '/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21';
    expect((await post(path, { 'api-key': 'az-limited' }, chatBody)).status).toBe(429);
    const faulty = { messages: [{ role: 'user', content: withMock('x', { status: 503 }) }] };
    expect((await post(path, { 'api-key': 'az-key' }, faulty)).status).toBe(503);
  });
});

describe("Azure's v1 Responses route", () => {
  it('answers the plain OpenAI client pointed at /openai/v1, the key as a bearer token or api-key', async () => {
    const client = new OpenAI({ apiKey: 'az-key', baseURL: `${mock.url}/openai/v1`, maxRetries: 0 });
    const response = await client.responses.create({ model: 'gpt-4.1-nano', input: 'This is a test' });
    expect(response.output_text).toBe('You said: This is a test');
    expect(response.usage).toEqual(expectedResponsesUsage({ input: 'This is a test' }));
    const preview = await post(
      '/openai/v1/responses?api-version=preview',
      { 'api-key': 'az-key' },
      {
        model: 'gpt-4.1-nano',
        input: 'hi',
      },
    );
    expect(preview.status).toBe(200);
    expect(preview.body.object).toBe('response');
  });

  it('refuses a dated api-version and a missing key as Azure does', async () => {
    expect(
      await post(
        '/openai/v1/responses?api-version=2025-01-01-preview',
        { 'api-key': 'az-key' },
        { model: 'm', input: 'x' },
      ),
    ).toEqual({ status: 400, body: { error: { code: 'BadRequest', message: 'API version not supported' } } });
    expect((await post('/openai/v1/responses', {}, { model: 'm', input: 'x' })).status).toBe(401);
  });
});
