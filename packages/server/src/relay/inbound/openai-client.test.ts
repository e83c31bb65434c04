import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { mockEmbedding, startMockUpstream } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { createTestApp } from '../../test-support/test-app.js';
import type { TestApp } from '../../test-support/test-app.js';
import { addChannel, addToken, listen, setOptions } from '../../test-support/relay-kit.js';

describe('the official openai client on the embeddings, images and audio endpoints', () => {
  let t: TestApp;
  let mock: MockUpstream;
  let client: OpenAI;

  beforeAll(async () => {
    mock = await startMockUpstream();
    t = await createTestApp();
    await setOptions(t, {
      ModelRatio: { 'text-embedding-3-small': 0.01, 'whisper-1': 15 },
      ModelPrice: { 'dall-e-3': 0.04 },
    });
    const user = await t.createUser({ quota: 10_000_000 });
    const token = await addToken(t, user.id);
    await addChannel(t, { base_url: mock.url, models: 'text-embedding-3-small,dall-e-3,whisper-1' });
    client = new OpenAI({ apiKey: token.key, baseURL: `${await listen(t)}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  it('creates embeddings, including the base64 encoding the client asks for by default', async () => {
    const result = await client.embeddings.create({ model: 'text-embedding-3-small', input: 'hello there' });
    expect(result.usage.prompt_tokens).toBe(2);
    expect(result.data[0]?.embedding).toHaveLength(16);
    const expected = mockEmbedding('hello there', 16);
    result.data[0]?.embedding.forEach((v, i) => expect(v).toBeCloseTo(expected[i] ?? NaN, 5));
  });

  it('generates images', async () => {
    const result = await client.images.generate({ model: 'dall-e-3', prompt: 'a red fox', n: 1 });
    expect(result.data?.[0]?.url).toMatch(/\/mock-files\/image\.png$/);
    expect(result.data?.[0]?.revised_prompt).toBe('a red fox');
  });

  it('uploads audio for a transcription', async () => {
    const file = await OpenAI.toFile(Buffer.alloc(1000, 1), 'clip.mp3', { type: 'audio/mpeg' });
    const result = await client.audio.transcriptions.create({ model: 'whisper-1', file });
    expect(result.text).toBe('This is the mock transcript of clip.mp3.');
  });
});
