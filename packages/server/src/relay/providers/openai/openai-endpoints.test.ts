import { describe, expect, it } from 'vitest';
import type { IrRequest, RelayMode } from '../../ir/request.js';
import { openaiAdapter } from './index.js';
import { replaceFormField } from './multipart.js';

const channel = { type: 1, key: 'sk-up', baseUrl: 'https://up.example.com', organization: '', other: '' };
const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const ir = (mode: RelayMode, body: Record<string, unknown> = {}): IrRequest => ({
  mode,
  model: 'm',
  stream: false,
  clientWantsUsage: false,
  body,
  raw: json(body),
});

const form = (boundary: string, model: string) =>
  Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="model.wav"\r\n` +
      `Content-Type: audio/wav\r\n\r\nRIFF model bytes\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\n${model}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="language"\r\n\r\nen\r\n--${boundary}--\r\n`,
  );

describe('openai adapter on the non-chat endpoints', () => {
  it('sends each mode to its OpenAI path', () => {
    const paths = (['embeddings', 'images', 'speech', 'moderations', 'rerank'] as const).map(
      (mode) => openaiAdapter.buildRequest(ir(mode), channel, 'm').url,
    );
    expect(paths).toEqual([
      'https://up.example.com/v1/embeddings',
      'https://up.example.com/v1/images/generations',
      'https://up.example.com/v1/audio/speech',
      'https://up.example.com/v1/moderations',
      'https://up.example.com/v1/rerank',
    ]);
  });

  it('forwards an upload as it came, rewriting only the model field of a mapped model', () => {
    const contentType = 'multipart/form-data; boundary=XyZ';
    const raw = form('XyZ', 'alias');
    const upload: IrRequest = {
      ...ir('transcriptions', { model: 'alias' }),
      model: 'alias',
      raw,
      contentType,
    };
    const same = openaiAdapter.buildRequest(upload, channel, 'alias');
    expect(same.body).toBe(raw);
    expect(same.headers['content-type']).toBe(contentType);
    expect(same.url).toBe('https://up.example.com/v1/audio/transcriptions');
    expect(openaiAdapter.buildRequest(upload, channel, 'whisper-1').body).toEqual(form('XyZ', 'whisper-1'));
    expect(replaceFormField(raw, 'multipart/form-data', 'model', 'x')).toBe(raw);
  });

  it('reads the usage each endpoint reports', () => {
    const usage = (mode: RelayMode, body: unknown, req: Record<string, unknown> = {}) =>
      openaiAdapter.parseResponse(ir(mode, req), json(body)).usage;
    expect(usage('embeddings', { data: [], usage: { prompt_tokens: 7, total_tokens: 7 } })).toEqual({
      promptTokens: 7,
      completionTokens: 0,
      cachedTokens: 0,
    });
    expect(usage('rerank', { results: [], usage: { total_tokens: 9 } })?.promptTokens).toBe(9);
    expect(usage('images', { data: [], usage: { input_tokens: 3, output_tokens: 272 } })).toMatchObject({
      promptTokens: 3,
      completionTokens: 272,
    });
    expect(usage('moderations', { results: [] })).toBeUndefined();
    expect(usage('transcriptions', { text: 'hi', usage: { type: 'duration', seconds: 3 } })).toBeUndefined();
  });

  it('refuses answers that are not the shape of their endpoint', () => {
    expect(() => openaiAdapter.parseResponse(ir('embeddings'), json({ choices: [] }))).toThrow(/data/);
    expect(() => openaiAdapter.parseResponse(ir('rerank'), json({ data: [] }))).toThrow(/results/);
    expect(() => openaiAdapter.parseResponse(ir('speech'), Buffer.alloc(0))).toThrow(/audio/);
  });

  it('takes the text of subtitle transcripts without cue numbers and timings', () => {
    const srt = '1\n00:00:00,000 --> 00:00:03,000\nHello there.\n\n';
    const parsed = openaiAdapter.parseResponse(
      ir('transcriptions', { response_format: 'srt' }),
      Buffer.from(srt),
    );
    expect(parsed.text).toBe('Hello there.');
    expect(parsed.body.toString()).toBe(srt);
  });
});
