import { describe, expect, it } from 'vitest';
import type { MockUpstream } from './server.js';
import {
  GEMINI_HEADERS,
  GEMINI_MODEL as MODEL,
  generateRequest as request,
  json,
  useMockUpstream,
} from './test-support/test-kit.js';
import { expectedGeminiReply, expectedGeminiUsage } from './usage-gemini.js';

let mock: MockUpstream;
const { call } = useMockUpstream((started) => (mock = started), GEMINI_HEADERS);

interface Chunk {
  candidates: { content: { parts: Record<string, unknown>[]; role: string }; finishReason?: string }[];
  usageMetadata?: Record<string, unknown>;
  modelVersion: string;
}

/** Splits Gemini's SSE strictly: every event is one `data: <json>` followed by CRLF CRLF. */
function sseChunks(text: string): Chunk[] {
  expect(text.endsWith('\r\n\r\n')).toBe(true);
  return text
    .slice(0, -4)
    .split('\r\n\r\n')
    .map((event) => {
      expect(event).toMatch(/^data: [^\r\n]+$/);
      return JSON.parse(event.slice('data: '.length)) as Chunk;
    });
}

const texts = (chunks: Chunk[], thought: boolean): string =>
  chunks
    .flatMap((chunk) => chunk.candidates[0]?.content.parts ?? [])
    .filter((part) => (part.thought === true) === thought && typeof part.text === 'string')
    .map((part) => part.text)
    .join('');

describe('models/{model}:generateContent', () => {
  it('answers a GenerateContentResponse with usageMetadata by the documented rule', async () => {
    const res = await call('POST', `${MODEL}:generateContent`, request());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    const answer = json(res.text);
    expect(answer).toMatchObject({
      candidates: [
        {
          content: { parts: [{ text: 'You said: What is the capital of France?' }], role: 'model' },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      modelVersion: 'gemini-2.5-flash',
    });
    // 1 + 6 words of the user content, 2 words of the system instruction; 8 reply words.
    expect(answer.usageMetadata).toEqual({
      promptTokenCount: 9,
      candidatesTokenCount: 8,
      totalTokenCount: 17,
      promptTokensDetails: [{ modality: 'TEXT', tokenCount: 9 }],
    });
    expect(answer.usageMetadata).toEqual(expectedGeminiUsage(request()));
  });

  it('sends thought parts first, counted apart as thoughtsTokenCount', async () => {
    const body = request({ reasoning_tokens: 4, cached_tokens: 5 });
    const answer = json((await call('POST', `${MODEL}:generateContent`, body)).text);
    expect(answer.candidates).toMatchObject([
      {
        content: {
          parts: [
            { text: 'let me think this', thought: true },
            { text: 'You said: What is the capital of France?' },
          ],
        },
      },
    ]);
    expect(answer.usageMetadata).toMatchObject({
      promptTokenCount: 9,
      cachedContentTokenCount: 5,
      candidatesTokenCount: 8,
      thoughtsTokenCount: 4,
      totalTokenCount: 9 + 8 + 4,
    });
    expect(answer.usageMetadata).toEqual(expectedGeminiUsage(body));
  });

  it('cuts the reply at maxOutputTokens (camelCase or snake_case) with finishReason MAX_TOKENS', async () => {
    for (const config of [
      { generationConfig: { maxOutputTokens: 3 } },
      { generation_config: { max_output_tokens: 3 } },
    ]) {
      const answer = json((await call('POST', `${MODEL}:generateContent`, request(undefined, config))).text);
      expect(answer.candidates).toMatchObject([
        { content: { parts: [{ text: 'You said: What' }] }, finishReason: 'MAX_TOKENS' },
      ]);
    }
  });

  it('answers a whole functionCall part for a tool call', async () => {
    const body = request({ tool_call: { name: 'get_weather', arguments: '{"city":"Paris"}' } });
    const answer = json((await call('POST', `${MODEL}:generateContent`, body)).text);
    expect(answer.candidates).toMatchObject([
      {
        content: { parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
        finishReason: 'STOP',
      },
    ]);
    expect(answer.usageMetadata).toMatchObject({ candidatesTokenCount: 1 + 2 });
  });

  it('leaves usageMetadata out under no_usage and answers the same under /v1', async () => {
    const bare = json((await call('POST', `${MODEL}:generateContent`, request({ no_usage: true }))).text);
    expect(bare).not.toHaveProperty('usageMetadata');
    const v1 = await call('POST', '/v1/models/gemini-2.5-flash:generateContent', request());
    expect(json(v1.text).usageMetadata).toEqual(expectedGeminiUsage(request()));
  });

  it('refuses empty contents and unknown fields, as Google does', async () => {
    const empty = await call('POST', `${MODEL}:generateContent`, { contents: [] });
    expect(empty.status).toBe(400);
    expect(json(empty.text).error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });

    const unknown = await call(
      'POST',
      `${MODEL}:generateContent`,
      request(undefined, { generationConfig: { maxTokens: 5 } }),
    );
    expect(unknown.status).toBe(400);
    expect(json(unknown.text).error).toEqual({
      code: 400,
      message:
        'Invalid JSON payload received. Unknown name "maxTokens" at \'generation_config\': Cannot find field.',
      status: 'INVALID_ARGUMENT',
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.BadRequest',
          fieldViolations: [
            {
              field: 'generation_config',
              description:
                'Invalid JSON payload received. Unknown name "maxTokens" at \'generation_config\': Cannot find field.',
            },
          ],
        },
      ],
    });
    const topLevel = await call('POST', `${MODEL}:generateContent`, request(undefined, { stream: true }));
    expect(json(topLevel.text).error).toMatchObject({
      message: expect.stringContaining('Unknown name "stream"'),
    });
  });
});

describe('models/{model}:streamGenerateContent', () => {
  it('with alt=sse, sends one event per word; the last carries finishReason and usageMetadata', async () => {
    const body = request({ reasoning_tokens: 2 });
    const res = await call('POST', `${MODEL}:streamGenerateContent?alt=sse`, body);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const chunks = sseChunks(res.text);
    expect(chunks).toHaveLength(2 + 8);
    expect(texts(chunks, true)).toBe('let me');
    expect(texts(chunks, false)).toBe(expectedGeminiReply(body));
    expect(
      chunks
        .slice(0, -1)
        .every((c) => c.usageMetadata === undefined && c.candidates[0]?.finishReason === undefined),
    ).toBe(true);
    expect(chunks.at(-1)).toMatchObject({
      candidates: [{ finishReason: 'STOP' }],
      usageMetadata: expectedGeminiUsage(body),
    });
  });

  it('without alt=sse, sends the same responses as one JSON array', async () => {
    const res = await call('POST', `${MODEL}:streamGenerateContent`, request());
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    const chunks = JSON.parse(res.text) as Chunk[];
    expect(texts(chunks, false)).toBe(expectedGeminiReply(request()));
    expect(chunks.at(-1)?.usageMetadata).toEqual(expectedGeminiUsage(request()));
  });

  it('sends a tool call whole, in one event', async () => {
    const body = request({ tool_call: { name: 'lookup', arguments: '{"q":"a long query text"}' } });
    const chunks = sseChunks((await call('POST', `${MODEL}:streamGenerateContent?alt=sse`, body)).text);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.candidates[0]?.content.parts).toEqual([
      { functionCall: { name: 'lookup', args: { q: 'a long query text' } } },
    ]);
  });

  it('cuts after N events, breaks the second event when malformed, and drops usage under no_usage', async () => {
    const cut = await call('POST', `${MODEL}:streamGenerateContent?alt=sse`, request({ cut_after: 2 }));
    expect(sseChunks(cut.text)).toHaveLength(2);
    expect(mock.lastRequest()).toMatchObject({ outcome: 'cut', events: 2 });

    const broken = (
      await call('POST', `${MODEL}:streamGenerateContent?alt=sse`, request({ malformed: true }))
    ).text;
    const events = broken.slice(0, -4).split('\r\n\r\n');
    expect(() => JSON.parse(events[1]?.slice(6) ?? '')).toThrow();
    expect(events).toHaveLength(8);

    const bare = sseChunks(
      (await call('POST', `${MODEL}:streamGenerateContent?alt=sse`, request({ no_usage: true }))).text,
    );
    expect(bare.at(-1)).not.toHaveProperty('usageMetadata');
  });
});
