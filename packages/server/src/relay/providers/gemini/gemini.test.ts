import { readFileSync } from 'node:fs';
import type { OptionReader } from '../types.js';
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../ir/chat.js';
import type { IrRequest, UpstreamRequest } from '../../ir/request.js';
import { judgeHttpError } from '../../pipeline/upstream-errors.js';
import { runProviderContract } from '../contract.case.js';
import { adapterFor } from '../registry.js';
import { buildGeminiRequest, geminiAdapter } from './index.js';
import { HARM_CATEGORIES } from './request.js';

type Json = Record<string, unknown>;

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const channel = {
  type: 24,
  key: 'AIza-upstream-key',
  baseUrl: 'https://gemini.example.com/',
  organization: '',
  other: '',
};
const bodyOf = (request: UpstreamRequest) => JSON.parse(request.body.toString()) as Json;

/** The model and action a Gemini URL names, and whether it asks for SSE. */
function readGeminiRequest(request: UpstreamRequest) {
  const match = /\/v1beta\/models\/([^:]+):(\w+)(\?alt=sse)?$/.exec(request.url);
  return {
    model: match?.[1] ?? '',
    stream: match?.[2] === 'streamGenerateContent' && match[3] !== undefined,
    messages: (bodyOf(request).contents as unknown[]).length,
  };
}

runProviderContract('gemini', {
  adapter: geminiAdapter,
  channel,
  chatUrl: 'https://gemini.example.com/v1beta/models/upstream-model:streamGenerateContent?alt=sse',
  readRequest: readGeminiRequest,
  response: {
    body: fixture('generate.json'),
    usage: { promptTokens: 12, completionTokens: 35, cachedTokens: 4, reasoningTokens: 21 },
    text: '**Checking the forecast**\nParis in June is usually warm.It is sunny in Paris today, around 24 °C.',
  },
  stream: {
    body: fixture('stream.sse'),
    usage: { promptTokens: 9, completionTokens: 6, cachedTokens: 0, reasoningTokens: 3 },
    text: 'Hello wörld!',
    endMarker: false,
  },
  error: {
    status: 400,
    body: fixture('error-400-key.json'),
    message: /^API key not valid/,
    code: 'API_KEY_INVALID',
  },
});

/** A Gemini client's call, as the Gemini inbound format builds it. */
const geminiIr = (body: Json, extra: Partial<IrRequest> = {}): IrRequest =>
  Object.assign(
    {
      mode: 'chat' as const,
      model: 'gemini-2.5-flash',
      stream: false,
      clientWantsUsage: true,
      body,
      wire: 'gemini' as const,
      raw: Buffer.from(JSON.stringify(body)),
    },
    extra,
  );

const chat = (extra: Partial<ChatRequest> = {}): ChatRequest =>
  Object.assign(
    {
      model: 'gemini-2.5-flash',
      stream: false,
      system: [{ type: 'text' as const, text: 'be brief' }],
      messages: [{ role: 'user' as const, parts: [{ type: 'text' as const, text: 'hi' }] }],
      tools: [],
      stop: [],
    },
    extra,
  );

const SAFETY = [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }];

describe('gemini adapter', () => {
  it('is registered as channel type 24 for chat and embeddings only', () => {
    expect(adapterFor(24)).toBe(geminiAdapter);
    expect(geminiAdapter.supports('chat')).toBe(true);
    expect(geminiAdapter.supports('embeddings')).toBe(true);
    expect(geminiAdapter.supports('images')).toBe(false);
  });

  it("forwards a Gemini client's own bytes with the key in x-goog-api-key", () => {
    const ir = geminiIr({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], safetySettings: SAFETY });
    const req = buildGeminiRequest(ir, { ...channel, baseUrl: '' }, 'gemini-2.5-flash');
    expect(req.url).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent',
    );
    expect(req.body).toBe(ir.raw);
    expect(req.headers['x-goog-api-key']).toBe('AIza-upstream-key');
    expect(req.headers.authorization).toBeUndefined();
  });

  it('adds the site safety threshold to every category when the request sets none', () => {
    const ir = geminiIr({ contents: [{ parts: [{ text: 'hi' }] }] });
    // Only GeminiSafetySetting is read; the store's other keys are not needed here.
    const options = { get: () => 'BLOCK_ONLY_HIGH' } as unknown as OptionReader;
    const body = bodyOf(buildGeminiRequest(ir, channel, 'gemini-2.5-flash', undefined, options));
    expect(body.safetySettings).toEqual(
      HARM_CATEGORIES.map((category) => ({ category, threshold: 'BLOCK_ONLY_HIGH' })),
    );
    expect(body.contents).toEqual(ir.body.contents);
    // Without the option store, BLOCK_NONE (Google's default for current models).
    const plain = bodyOf(buildGeminiRequest(ir, channel, 'gemini-2.5-flash'));
    expect((plain.safetySettings as Json[]).every((s) => s.threshold === 'BLOCK_NONE')).toBe(true);
    expect(plain.safetySettings).toHaveLength(5);
  });

  it("lowers the output limit to the hold's, under Google's camelCase name", () => {
    const ir = geminiIr(
      {
        contents: [{ parts: [{ text: 'hi' }] }],
        safety_settings: SAFETY,
        generation_config: { max_output_tokens: 9000, temperature: 0.2 },
      },
      { outputLimit: 500 },
    );
    const body = bodyOf(buildGeminiRequest(ir, channel, 'gemini-2.5-flash'));
    expect(body.generationConfig).toEqual({ maxOutputTokens: 500, temperature: 0.2 });
    expect(body.generation_config).toBeUndefined();
    expect(body.safety_settings).toEqual(SAFETY);
    expect(body.safetySettings).toBeUndefined();
  });

  it.each([
    ['gemini-2.5-flash-thinking-128', { thinkingBudget: 128, includeThoughts: true }],
    ['gemini-2.5-flash-thinking', { thinkingBudget: -1, includeThoughts: true }],
    ['gemini-2.5-flash-nothinking', { thinkingBudget: 0 }],
  ])('takes the suffix of %s off the URL and into thinkingConfig', (model, thinking) => {
    const ir = geminiIr({
      contents: [{ parts: [{ text: 'hi' }] }],
      safetySettings: SAFETY,
      generationConfig: { thinkingConfig: { thinkingBudget: 4096 } },
    });
    const req = buildGeminiRequest(ir, channel, model);
    expect(req.url).toBe('https://gemini.example.com/v1beta/models/gemini-2.5-flash:generateContent');
    expect((bodyOf(req).generationConfig as Json).thinkingConfig).toEqual(thinking);
  });

  it('encodes a converted request with the suffix, safety settings and the stream URL', () => {
    const ir: IrRequest = { mode: 'chat', model: 'g', stream: true, clientWantsUsage: false, body: {} };
    const req = buildGeminiRequest(
      ir,
      channel,
      'models/gemini-2.5-pro-thinking-2048',
      chat({ maxOutputTokens: 300 }),
    );
    expect(req.url).toBe(
      'https://gemini.example.com/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse',
    );
    expect(req.headers.accept).toBe('text/event-stream');
    const body = bodyOf(req);
    expect(body.contents).toEqual([{ role: 'user', parts: [{ text: 'hi' }] }]);
    expect(body.systemInstruction).toEqual({ parts: [{ text: 'be brief' }] });
    expect(body.generationConfig).toEqual({
      maxOutputTokens: 300,
      thinkingConfig: { thinkingBudget: 2048, includeThoughts: true },
    });
    expect(body.safetySettings).toHaveLength(5);
  });

  it('decodes an OpenAI body itself when no neutral request is given (the channel probe)', () => {
    const body = { model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }] };
    const ir: IrRequest = {
      mode: 'chat',
      model: 'gemini-2.5-flash',
      stream: false,
      clientWantsUsage: false,
      body,
    };
    const sent = bodyOf(buildGeminiRequest(ir, channel, 'gemini-2.5-flash'));
    expect(sent.contents).toEqual([{ role: 'user', parts: [{ text: 'hi' }] }]);
  });

  it('gives a client of another dialect the answer in neutral form', () => {
    const parsed = geminiAdapter.parseResponse(geminiIr({}), fixture('generate.json'), chat());
    expect(parsed.answer?.parts.map((p) => p.type)).toEqual(['reasoning', 'text']);
    expect(parsed.answer?.finishReason).toBe('stop');
    expect(geminiAdapter.parseResponse(geminiIr({}), fixture('generate.json')).answer).toBeUndefined();
  });

  it("reads Google's errors: status name as type, ErrorInfo reason as code, streams' arrays too", () => {
    const limited = Buffer.from(
      JSON.stringify([{ error: { code: 429, message: 'Quota exceeded', status: 'RESOURCE_EXHAUSTED' } }]),
    );
    expect(geminiAdapter.parseError(429, limited)).toEqual({
      message: 'Quota exceeded',
      type: 'RESOURCE_EXHAUSTED',
      code: 'RESOURCE_EXHAUSTED',
    });
  });

  it('makes an invalid key (a 400 from Google) a definitive fault of the channel', () => {
    const info = geminiAdapter.parseError(400, fixture('error-400-key.json'));
    const judged = judgeHttpError(400, info, new Map(), channel.key);
    expect(judged.outcome).toMatchObject({ ok: false, definitive: true });
    expect(judged.error.status).toBe(503);
    expect(judged.retry).toBe(true);
  });
});

describe('gemini adapter embeddings', () => {
  const embedIr = (body: Json, extra: Partial<IrRequest> = {}): IrRequest =>
    Object.assign(
      {
        mode: 'embeddings' as const,
        model: 'text-embedding-004',
        stream: false,
        clientWantsUsage: false,
        body,
      },
      extra,
    );

  it('turns an OpenAI embeddings call into batchEmbedContents and its answer into the OpenAI list', () => {
    const ir = embedIr({ model: 'text-embedding-004', input: ['one', 'two'], dimensions: 4 });
    const req = buildGeminiRequest(ir, channel, 'text-embedding-004');
    expect(req.url).toBe('https://gemini.example.com/v1beta/models/text-embedding-004:batchEmbedContents');
    expect(bodyOf(req)).toEqual({
      requests: ['one', 'two'].map((text) => ({
        model: 'models/text-embedding-004',
        content: { parts: [{ text }] },
        outputDimensionality: 4,
      })),
    });
    const parsed = geminiAdapter.parseResponse(ir, fixture('batch-embed.json'));
    const answer = JSON.parse(parsed.body.toString()) as { data: { index: number; embedding: number[] }[] };
    expect(answer).toMatchObject({ object: 'list', model: 'text-embedding-004' });
    expect(answer.data.map((d) => d.index)).toEqual([0, 1]);
    expect(answer.data[0]?.embedding).toEqual([0.013168523, -0.008711934, -0.046782676, 0.00069968984]);
    // Gemini reports no usage: the relay counts the input itself.
    expect(parsed.usage).toBeUndefined();
  });

  it('answers base64 vectors (little-endian float32) when the OpenAI client asked for them', () => {
    const ir = embedIr({ model: 'text-embedding-004', input: 'one', encoding_format: 'base64' });
    const parsed = geminiAdapter.parseResponse(ir, fixture('batch-embed.json'));
    const first = (JSON.parse(parsed.body.toString()) as { data: { embedding: string }[] }).data[0];
    const bytes = Buffer.from(first?.embedding ?? '', 'base64');
    const floats = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    expect(floats[0]).toBeCloseTo(0.013168523, 6);
  });

  it('refuses token-array inputs, which Gemini cannot embed', () => {
    const ir = embedIr({ model: 'text-embedding-004', input: [[1, 2, 3]] });
    expect(() => buildGeminiRequest(ir, channel, 'text-embedding-004')).toThrow(/text only/);
  });

  it("forwards a Gemini client's embedContent as it came, and renames a mapped batch's models", () => {
    const single = { content: { parts: [{ text: 'one' }] } };
    const own = embedIr(single, { wire: 'gemini', raw: Buffer.from(JSON.stringify(single)) });
    const req = buildGeminiRequest(own, channel, 'text-embedding-004');
    expect(req.url).toMatch(/text-embedding-004:embedContent$/);
    expect(req.body).toBe(own.raw);
    const batch = { requests: [{ model: 'models/text-embedding-004', content: { parts: [{ text: 'a' }] } }] };
    const mapped = buildGeminiRequest(embedIr(batch, { wire: 'gemini' }), channel, 'gemini-embedding-001');
    expect(mapped.url).toMatch(/gemini-embedding-001:batchEmbedContents$/);
    expect(bodyOf(mapped).requests).toEqual([
      { model: 'models/gemini-embedding-001', content: { parts: [{ text: 'a' }] } },
    ]);
    const parsed = geminiAdapter.parseResponse(
      embedIr(batch, { wire: 'gemini' }),
      fixture('batch-embed.json'),
    );
    expect(parsed.body.toString()).toBe(fixture('batch-embed.json').toString());
    expect(() =>
      geminiAdapter.parseResponse(embedIr(batch, { wire: 'gemini' }), Buffer.from('{}')),
    ).toThrow();
  });
});
