import { FormData, request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mockAudioSeconds, mockSpeech } from './routes/audio.js';
import { mockEmbedding } from './routes/embeddings.js';
import { MOCK_PNG } from './routes/images.js';
import { startMockUpstream, type MockUpstream } from './server.js';
import { expectedEmbeddingUsage, expectedRerankUsage } from './usage.js';

let mock: MockUpstream;
beforeAll(async () => {
  mock = await startMockUpstream({ billing: { hardLimitUsd: 50, usedUsd: 7.5 } });
});
afterAll(() => mock.close());
beforeEach(() => mock.reset());

async function call(method: 'GET' | 'POST', path: string, body?: unknown, key: string | null = 'sk-test') {
  const headers: Record<string, string> = {};
  if (key !== null) headers.authorization = `Bearer ${key}`;
  let payload: string | FormData | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await request(`${mock.url}${path}`, { method, headers, body: payload });
  const bytes = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers, bytes, text: bytes.toString('utf8') };
}

const json = (text: string) => JSON.parse(text) as Record<string, unknown>;

describe('authentication and errors', () => {
  it('refuses a request without a bearer key with an OpenAI-format 401', async () => {
    const res = await call('GET', '/v1/models', undefined, null);
    expect(res.status).toBe(401);
    expect(json(res.text)).toEqual({
      error: { message: expect.any(String), type: 'invalid_request_error', param: null, code: null },
    });
  });

  it('refuses a key starting with "bad" as an invalid API key', async () => {
    const res = await call('POST', '/v1/chat/completions', { model: 'x', messages: [] }, 'bad-key-123');
    expect(res.status).toBe(401);
    expect(json(res.text)).toMatchObject({ error: { code: 'invalid_api_key' } });
  });

  it('answers 404 for an unknown route and 400 for a body that is not JSON', async () => {
    expect((await call('POST', '/v1/nothing-here', {})).status).toBe(404);
    const res = await request(`${mock.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: '{"model":',
    });
    expect(res.statusCode).toBe(400);
    expect(await res.body.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
  });
});

describe('POST /v1/embeddings', () => {
  const body = { model: 'text-embedding-3-small', input: ['hello world', 'goodbye'] };

  it('answers float vectors, the same vector for the same text, with word-count usage', async () => {
    const res = json((await call('POST', '/v1/embeddings', body)).text);
    const data = res.data as { object: string; index: number; embedding: number[] }[];
    expect(res).toMatchObject({ object: 'list', model: 'text-embedding-3-small' });
    expect(data.map((d) => d.index)).toEqual([0, 1]);
    expect(data[0]?.embedding).toEqual(mockEmbedding('hello world'));
    expect(data[0]?.embedding).not.toEqual(data[1]?.embedding);
    const norm = Math.hypot(...(data[0]?.embedding ?? []));
    expect(norm).toBeCloseTo(1, 5);
    expect(res.usage).toEqual({ prompt_tokens: 3, total_tokens: 3 });
    expect(res.usage).toEqual(expectedEmbeddingUsage(body));
  });

  it('answers base64 float32 vectors when asked, honouring dimensions', async () => {
    const res = json(
      (
        await call('POST', '/v1/embeddings', {
          ...body,
          input: 'hello world',
          encoding_format: 'base64',
          dimensions: 4,
        })
      ).text,
    );
    const [first] = res.data as { embedding: string }[];
    const bytes = Buffer.from(first?.embedding ?? '', 'base64');
    const floats = Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4));
    expect(floats).toEqual(mockEmbedding('hello world', 4));
  });
});

describe('POST /v1/images/generations', () => {
  it('hands out URLs that serve a PNG for DALL·E models', async () => {
    const res = json(
      (await call('POST', '/v1/images/generations', { model: 'dall-e-3', prompt: 'a red fox', n: 1 })).text,
    );
    const [image] = res.data as { url: string; revised_prompt: string }[];
    expect(image?.revised_prompt).toBe('a red fox');
    expect(res.usage).toBeUndefined();
    const file = await request(image?.url ?? '');
    expect(file.headers['content-type']).toBe('image/png');
    expect(Buffer.from(await file.body.arrayBuffer())).toEqual(MOCK_PNG);
  });

  it('answers base64 images with token usage for gpt-image models', async () => {
    const res = json(
      (await call('POST', '/v1/images/generations', { model: 'gpt-image-1', prompt: 'a red fox', n: 2 }))
        .text,
    );
    expect(res.data).toEqual([
      { b64_json: MOCK_PNG.toString('base64') },
      { b64_json: MOCK_PNG.toString('base64') },
    ]);
    expect(res.usage).toEqual({
      input_tokens: 3,
      input_tokens_details: { text_tokens: 3, image_tokens: 0 },
      output_tokens: 544,
      total_tokens: 547,
    });
  });
});

describe('audio', () => {
  it('speech answers audio bytes as audio/mpeg', async () => {
    const res = await call('POST', '/v1/audio/speech', {
      model: 'tts-1',
      input: 'Hello there',
      voice: 'alloy',
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('audio/mpeg');
    expect(res.bytes).toEqual(mockSpeech('Hello there'));
    expect(res.bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xf3]));
  });

  const upload = (fields: Record<string, string>, size = 40_000) => {
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(size)], { type: 'audio/mpeg' }), 'talk.mp3');
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    return form;
  };

  it('transcriptions read a multipart upload and answer json with duration usage', async () => {
    const res = await call('POST', '/v1/audio/transcriptions', upload({ model: 'whisper-1' }));
    expect(json(res.text)).toEqual({
      text: 'This is the mock transcript of talk.mp3.',
      usage: { type: 'duration', seconds: mockAudioSeconds(40_000) },
    });
    expect(mock.lastRequest()?.body).toMatchObject({
      model: 'whisper-1',
      file: { filename: 'talk.mp3', size: 40_000, type: 'audio/mpeg' },
    });
  });

  it('transcriptions report token usage for gpt-4o models', async () => {
    const res = await call(
      'POST',
      '/v1/audio/transcriptions',
      upload({ model: 'gpt-4o-mini-transcribe', prompt: 'names' }),
    );
    expect(json(res.text).usage).toEqual({
      type: 'tokens',
      input_tokens: 31,
      input_token_details: { text_tokens: 1, audio_tokens: 30 },
      output_tokens: 7,
      total_tokens: 38,
    });
  });

  it('transcriptions answer text and verbose_json formats', async () => {
    const text = await call(
      'POST',
      '/v1/audio/transcriptions',
      upload({ model: 'whisper-1', response_format: 'text' }),
    );
    expect(text.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(text.text).toBe('This is the mock transcript of talk.mp3.\n');
    const verbose = json(
      (
        await call(
          'POST',
          '/v1/audio/transcriptions',
          upload({ model: 'whisper-1', response_format: 'verbose_json', language: 'fr' }),
        )
      ).text,
    );
    expect(verbose).toMatchObject({ task: 'transcribe', language: 'fr', duration: 3, usage: { seconds: 3 } });
    expect(verbose.segments).toHaveLength(1);
  });

  it('translations answer in English without usage', async () => {
    const res = json((await call('POST', '/v1/audio/translations', upload({ model: 'whisper-1' }))).text);
    expect(res).toEqual({ text: 'This is the mock translation of talk.mp3.' });
  });

  it('refuses a transcription without a file', async () => {
    const form = new FormData();
    form.set('model', 'whisper-1');
    expect((await call('POST', '/v1/audio/transcriptions', form)).status).toBe(400);
  });
});

describe('POST /v1/moderations', () => {
  it('flags a text containing "violent" under violence, one result per input', async () => {
    const res = json(
      (
        await call('POST', '/v1/moderations', {
          model: 'omni-moderation-latest',
          input: ['a calm day', 'a violent storm'],
        })
      ).text,
    );
    const results = res.results as { flagged: boolean; categories: Record<string, boolean> }[];
    expect(results.map((r) => r.flagged)).toEqual([false, true]);
    expect(results[1]?.categories.violence).toBe(true);
    expect(results[1]?.categories.hate).toBe(false);
    expect(Object.keys(results[0]?.categories ?? {})).toContain('self-harm/intent');
  });
});

describe('POST /v1/rerank', () => {
  it('orders documents by relevance with their index, honouring top_n, with total_tokens usage', async () => {
    const body = {
      model: 'jina-reranker-v2-base-multilingual',
      query: 'red fox',
      documents: ['a blue whale', 'the red fox jumps', { text: 'a red car' }],
      top_n: 2,
    };
    const res = json((await call('POST', '/v1/rerank', body)).text);
    expect(res.results).toEqual([
      { index: 1, relevance_score: 1, document: { text: 'the red fox jumps' } },
      { index: 2, relevance_score: 0.5, document: { text: 'a red car' } },
    ]);
    expect(res.usage).toEqual({ total_tokens: 2 + 3 + 4 + 3 });
    expect(res.usage).toEqual(expectedRerankUsage(body));
  });
});

describe('models and billing', () => {
  it('lists models and answers one model or 404', async () => {
    const list = json((await call('GET', '/v1/models')).text);
    expect(list.object).toBe('list');
    expect((list.data as { id: string; object: string }[]).map((m) => m.id)).toContain('gpt-4o-mini');
    mock.setModels(['only-one']);
    expect(json((await call('GET', '/v1/models')).text).data).toEqual([
      { id: 'only-one', object: 'model', created: expect.any(Number), owned_by: 'mock-upstream' },
    ]);
    expect(json((await call('GET', '/v1/models/only-one')).text)).toMatchObject({ id: 'only-one' });
    expect((await call('GET', '/v1/models/gpt-4o')).status).toBe(404);
  });

  it('answers the legacy subscription (USD) and usage (cents) endpoints', async () => {
    expect(json((await call('GET', '/v1/dashboard/billing/subscription')).text)).toMatchObject({
      object: 'billing_subscription',
      hard_limit_usd: 50,
    });
    const usage = await call('GET', '/v1/dashboard/billing/usage?start_date=2026-01-01&end_date=2026-02-01');
    expect(json(usage.text)).toEqual({ object: 'list', total_usage: 750 });
    expect(mock.lastRequest()?.query).toEqual({ start_date: '2026-01-01', end_date: '2026-02-01' });
    mock.setBilling({ usedUsd: 1.234 });
    expect(json((await call('GET', '/v1/dashboard/billing/usage')).text).total_usage).toBe(123.4);
  });
});
