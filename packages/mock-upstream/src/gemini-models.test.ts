// Gemini's countTokens, embeddings and model list.
import { describe, expect, it } from 'vitest';
import { mockEmbedding } from './routes/embeddings.js';
import type { MockUpstream } from './server.js';
import {
  GEMINI_HEADERS,
  GEMINI_MODEL as MODEL,
  generateRequest as request,
  json,
  useMockUpstream,
} from './test-support/test-kit.js';

let mock: MockUpstream;
const { call } = useMockUpstream((started) => (mock = started), GEMINI_HEADERS);

describe('countTokens and embeddings', () => {
  it('counts contents, or a whole generateContentRequest', async () => {
    const { contents, systemInstruction } = request();
    expect(json((await call('POST', `${MODEL}:countTokens`, { contents })).text)).toEqual({
      totalTokens: 7,
      promptTokensDetails: [{ modality: 'TEXT', tokenCount: 7 }],
    });
    const whole = {
      generateContentRequest: { model: 'models/gemini-2.5-flash', contents, systemInstruction },
    };
    expect(json((await call('POST', `${MODEL}:countTokens`, whole)).text)).toMatchObject({ totalTokens: 9 });
  });

  it('embeds one content, or a batch, with the same vectors as the OpenAI route', async () => {
    const path = '/v1beta/models/gemini-embedding-001';
    const one = await call('POST', `${path}:embedContent`, { content: { parts: [{ text: 'hello world' }] } });
    expect(json(one.text)).toEqual({ embedding: { values: mockEmbedding('hello world') } });
    const batch = await call('POST', `${path}:batchEmbedContents`, {
      requests: [
        {
          model: 'models/gemini-embedding-001',
          content: { parts: [{ text: 'a' }] },
          outputDimensionality: 4,
        },
        { model: 'models/gemini-embedding-001', content: { parts: [{ text: 'b c' }] } },
      ],
    });
    expect(json(batch.text)).toEqual({
      embeddings: [{ values: mockEmbedding('a', 4) }, { values: mockEmbedding('b c') }],
    });
    expect((await call('POST', `${path}:batchEmbedContents`, { requests: [] })).status).toBe(400);
  });
});

describe('models', () => {
  it('lists models with their generation methods, in pages', async () => {
    const all = json((await call('GET', '/v1beta/models')).text);
    expect(all.models).toContainEqual(
      expect.objectContaining({
        name: 'models/gemini-2.5-flash',
        displayName: 'Gemini 2.5 Flash',
        supportedGenerationMethods: expect.arrayContaining(['generateContent', 'countTokens']),
        inputTokenLimit: expect.any(Number),
        outputTokenLimit: expect.any(Number),
      }),
    );
    mock.setGeminiModels(['gemini-a', 'gemini-b', 'gemini-c']);
    const first = json((await call('GET', '/v1beta/models?pageSize=2')).text);
    expect((first.models as { name: string }[]).map((m) => m.name)).toEqual([
      'models/gemini-a',
      'models/gemini-b',
    ]);
    const second = json(
      (await call('GET', `/v1beta/models?pageSize=2&pageToken=${String(first.nextPageToken)}`)).text,
    );
    expect(second).toEqual({ models: [expect.objectContaining({ name: 'models/gemini-c' })] });
  });

  it('gets one model, 404 for an unknown one, under /v1beta and /v1', async () => {
    expect(json((await call('GET', '/v1beta/models/gemini-2.5-pro')).text)).toMatchObject({
      name: 'models/gemini-2.5-pro',
    });
    const missing = await call('GET', '/v1beta/models/gemini-0');
    expect(missing.status).toBe(404);
    expect(json(missing.text).error).toMatchObject({ code: 404, status: 'NOT_FOUND' });
    expect(json((await call('GET', '/v1/models/gemini-2.0-flash')).text)).toMatchObject({
      name: 'models/gemini-2.0-flash',
    });
  });

  it('serves GET /v1/models as Gemini only to a caller with a Google key and no bearer one', async () => {
    const google = json((await call('GET', '/v1/models?key=AIza-test', undefined, {})).text);
    expect(google).toHaveProperty('models');
    const openai = json(
      (await call('GET', '/v1/models', undefined, { authorization: 'Bearer sk-test' })).text,
    );
    expect(openai).toMatchObject({ object: 'list' });
  });
});
