import { ApiError, GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { withMock } from './directive.js';
import { mockEmbedding } from './routes/embeddings.js';
import { startMockUpstream, type MockUpstream } from './server.js';
import { expectedGeminiReply, expectedGeminiUsage } from './usage-gemini.js';

// The official client: if it parses the mock's answers, Gemini clients will.
let mock: MockUpstream;
let ai: GoogleGenAI;
beforeAll(async () => {
  mock = await startMockUpstream();
  ai = new GoogleGenAI({ apiKey: 'AIza-test', httpOptions: { baseUrl: mock.url } });
});
afterAll(() => mock.close());
beforeEach(() => mock.reset());

const MODEL = 'gemini-2.5-flash';

describe('the official @google/genai client', () => {
  it('sends its key in x-goog-api-key and parses a generateContent answer', async () => {
    const response = await ai.models.generateContent({
      model: MODEL,
      contents: 'Tell me a joke',
      config: { systemInstruction: 'Be brief.' },
    });
    // The body as the client put it on the wire is what the expected* helpers take.
    const sent = mock.lastRequest()?.body;
    expect(mock.lastRequest()).toMatchObject({
      path: `/v1beta/models/${MODEL}:generateContent`,
      headers: { 'x-goog-api-key': 'AIza-test' },
    });
    expect(response.text).toBe(expectedGeminiReply(sent));
    expect(response.usageMetadata).toEqual(expectedGeminiUsage(sent));
  });

  it('streams text and thoughts, with usage on the last chunk', async () => {
    const stream = await ai.models.generateContentStream({
      model: MODEL,
      contents: withMock('Tell me a joke', { reasoning_tokens: 3 }),
      config: { maxOutputTokens: 4, thinkingConfig: { includeThoughts: true } },
    });
    let text = '';
    let thoughts = '';
    let last: Awaited<ReturnType<typeof ai.models.generateContent>> | undefined;
    for await (const chunk of stream) {
      for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
        if (part.thought) thoughts += part.text ?? '';
        else text += part.text ?? '';
      }
      last = chunk;
    }
    const sent = mock.lastRequest()?.body;
    expect(mock.lastRequest()?.query).toMatchObject({ alt: 'sse' });
    expect(thoughts).toBe('let me think');
    expect(text).toBe('You said: Tell me');
    expect(last?.candidates?.[0]?.finishReason).toBe('MAX_TOKENS');
    expect(last?.usageMetadata).toEqual(expectedGeminiUsage(sent));
  });

  it('parses a function call', async () => {
    const response = await ai.models.generateContent({
      model: MODEL,
      contents: withMock('Weather?', { tool_call: { name: 'get_weather', arguments: '{"city":"Paris"}' } }),
    });
    expect(response.functionCalls).toEqual([{ name: 'get_weather', args: { city: 'Paris' } }]);
  });

  it('counts tokens and embeds contents', async () => {
    expect((await ai.models.countTokens({ model: MODEL, contents: 'hello there world' })).totalTokens).toBe(
      4,
    );
    const result = await ai.models.embedContent({ model: 'gemini-embedding-001', contents: ['a', 'b c'] });
    expect(result.embeddings?.map((e) => e.values)).toEqual([mockEmbedding('a'), mockEmbedding('b c')]);
  });

  it('lists and gets models', async () => {
    const names: string[] = [];
    for await (const model of await ai.models.list()) names.push(model.name ?? '');
    expect(names).toContain(`models/${MODEL}`);
    const model = await ai.models.get({ model: MODEL });
    expect(model.supportedActions).toContain('generateContent');
  });

  it('surfaces mock errors as ApiError with the status', async () => {
    mock.enqueue({ status: 429, retry_after: 2 });
    await expect(ai.models.generateContent({ model: MODEL, contents: 'hi' })).rejects.toMatchObject({
      status: 429,
    });
    const bad = new GoogleGenAI({ apiKey: 'bad-key', httpOptions: { baseUrl: mock.url } });
    const error: unknown = await bad.models
      .generateContent({ model: MODEL, contents: 'hi' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, message: expect.stringContaining('API_KEY_INVALID') });
  });
});
