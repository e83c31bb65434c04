import { describe, expect, it } from 'vitest';
import { RelayError } from '../../ir/errors.js';
import { ArrayFramer } from './array-stream.js';
import { splitTarget } from './gemini.routes.js';
import { GeminiCall, countTokensText, geminiEmbedContent, geminiGenerateContent } from './index.js';
import { googleModelOf, googleModelPage } from './model-list.js';
import { generatePromptText } from './prompt-text.js';

const raw = (body: unknown) => Buffer.from(JSON.stringify(body));

/** The status and message a parse refuses with. */
function refusal(fn: () => unknown): { status: number; message: string } {
  try {
    fn();
  } catch (error) {
    if (error instanceof RelayError) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error('it did not refuse');
}

describe('the Gemini generateContent format', () => {
  const contents = [{ role: 'user', parts: [{ text: 'hello' }] }];

  it('takes the model and streaming from the path and keeps the client bytes', () => {
    const body = { contents, generationConfig: { maxOutputTokens: 300 } };
    const ir = geminiGenerateContent.parse(new GeminiCall('gemini-2.5-flash', true, body), raw(body));
    expect(ir).toMatchObject({
      mode: 'chat',
      wire: 'gemini',
      model: 'gemini-2.5-flash',
      stream: true,
      clientWantsUsage: true,
      maxTokens: 300,
      body,
    });
    expect(ir.raw?.toString()).toBe(JSON.stringify(body));
  });

  it('reads the output limit under its snake_case name too, and 0 as no limit', () => {
    const snake = { contents, generation_config: { max_output_tokens: 64 } };
    expect(geminiGenerateContent.parse(new GeminiCall('g', false, snake), undefined).maxTokens).toBe(64);
    const zero = { contents, generationConfig: { maxOutputTokens: 0 } };
    expect(
      geminiGenerateContent.parse(new GeminiCall('g', false, zero), undefined).maxTokens,
    ).toBeUndefined();
  });

  it('refuses what Google refuses with a 400', () => {
    const parse =
      (body: unknown, model = 'g') =>
      () =>
        geminiGenerateContent.parse(new GeminiCall(model, false, body), undefined);
    expect(refusal(parse({ contents: [] }))).toEqual({
      status: 400,
      message: '* GenerateContentRequest.contents: contents is not specified',
    });
    expect(refusal(parse({ contents, generationConfig: { maxOutputTokens: -1 } })).status).toBe(400);
    expect(refusal(parse([contents])).status).toBe(400);
    expect(refusal(parse({ contents }, '')).message).toMatch(/model name is missing/);
  });

  it('is only reached through its route', () => {
    expect(refusal(() => geminiGenerateContent.parse({ contents }, undefined)).status).toBe(500);
  });

  it('counts system instruction, turns, function calls, their responses and tools', () => {
    const body = {
      system_instruction: { parts: [{ text: 'SYSTEM' }] },
      contents: [
        { role: 'user', parts: [{ text: 'ASK' }] },
        { role: 'model', parts: [{ functionCall: { name: 'lookup', args: { q: 'Q' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'lookup', response: { a: 'ANSWER' } } }] },
      ],
      tools: [{ functionDeclarations: [{ name: 'TOOLDEF' }] }],
    };
    const text = generatePromptText(body);
    for (const piece of ['SYSTEM', 'ASK', 'lookup{"q":"Q"}', '{"a":"ANSWER"}', 'TOOLDEF']) {
      expect(text).toContain(piece);
    }
    const ir = geminiGenerateContent.parse(new GeminiCall('g', false, body), undefined);
    expect(geminiGenerateContent.estimatePromptTokens(ir)).toBe(Math.ceil(text.length / 4));
  });

  it('counts a countTokens body given as contents or as a whole generateContentRequest', () => {
    expect(countTokensText({ contents })).toContain('hello');
    expect(
      countTokensText({ generateContentRequest: { model: 'models/g', contents, systemInstruction: 'SYS' } }),
    ).toMatch(/SYS[\s\S]*hello/);
  });

  it("tells errors in Google's shape, inside a stream as a data event", () => {
    const error = { status: 429, message: 'slow down', type: 'rate_limit', code: null };
    expect(geminiGenerateContent.errorBody(error)).toEqual({
      error: { code: 429, message: 'slow down', status: 'RESOURCE_EXHAUSTED' },
    });
    expect(geminiGenerateContent.streamError(error)).toBe(
      'data: {"error":{"code":429,"message":"slow down","status":"RESOURCE_EXHAUSTED"}}\r\n\r\n',
    );
  });
});

describe('the Gemini embedding format', () => {
  it('takes embedContent and batchEmbedContents bodies and counts their text', () => {
    const single = { content: { parts: [{ text: 'one two' }] }, title: 'T' };
    const ir = geminiEmbedContent.parse(new GeminiCall('text-embedding-004', false, single), raw(single));
    expect(ir).toMatchObject({
      mode: 'embeddings',
      wire: 'gemini',
      model: 'text-embedding-004',
      stream: false,
    });
    const batch = {
      requests: [{ content: { parts: [{ text: 'a' }] } }, { content: { parts: [{ text: 'b' }] } }],
    };
    const batchIr = geminiEmbedContent.parse(new GeminiCall('e', false, batch), undefined);
    expect(geminiEmbedContent.estimatePromptTokens(batchIr)).toBeGreaterThan(0);
  });

  it('refuses a request without content', () => {
    const parse = (body: unknown) => () =>
      geminiEmbedContent.parse(new GeminiCall('e', false, body), undefined);
    expect(refusal(parse({})).message).toBe('* EmbedContentRequest.content: content is not specified');
    expect(refusal(parse({ requests: [] })).message).toMatch(/requests is not specified/);
    expect(refusal(parse({ requests: [{ content: {} }] })).message).toMatch(/requests\[0\]\.content/);
  });
});

describe('the JSON-array framing of streamGenerateContent without alt=sse', () => {
  const sse = 'data: {"n":1}\r\n\r\ndata: {"n":2}\r\n\r\ndata: {"n":3}\r\n\r\n';

  it.each([1, 5, 1000])('turns SSE events into array elements however they are split (%i)', (size) => {
    const framer = new ArrayFramer();
    let out = '';
    for (let at = 0; at < sse.length; at += size) out += framer.push(sse.slice(at, at + size));
    out += framer.close();
    expect(out).toBe('[{"n":1},\r\n{"n":2},\r\n{"n":3}]');
    expect(JSON.parse(out)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });

  it('keeps an error told mid-stream as the last element, and closes an empty stream', () => {
    const framer = new ArrayFramer();
    const out = framer.push('data: {"n":1}\r\n\r\n') + framer.push('data: {"error":{"code":502}}\r\n\r\n');
    expect(JSON.parse(out + framer.close())).toEqual([{ n: 1 }, { error: { code: 502 } }]);
    expect(new ArrayFramer().close()).toBe('[]');
  });
});

describe('Gemini paths and model lists', () => {
  it('splits models/{model}:{method} at the last colon', () => {
    expect(splitTarget('gemini-2.5-flash:streamGenerateContent')).toEqual({
      model: 'gemini-2.5-flash',
      method: 'streamGenerateContent',
    });
    expect(splitTarget('models/x:countTokens')).toEqual({ model: 'x', method: 'countTokens' });
    expect(splitTarget('gemini-2.5-flash')).toBeUndefined();
    expect(splitTarget(':generateContent')).toBeUndefined();
  });

  it("pages the list in Google's shape with an opaque token", () => {
    const ids = ['a', 'b', 'c-embedding'];
    const first = googleModelPage(ids, { pageSize: '2' });
    expect(first.models.map((m) => m.name)).toEqual(['models/a', 'models/b']);
    expect(first.models[0]?.supportedGenerationMethods).toContain('generateContent');
    const second = googleModelPage(ids, { pageSize: '2', pageToken: first.nextPageToken });
    expect(second).toEqual({
      models: [
        {
          name: 'models/c-embedding',
          baseModelId: 'c-embedding',
          displayName: 'c-embedding',
          supportedGenerationMethods: ['embedContent', 'batchEmbedContents'],
        },
      ],
      nextPageToken: undefined,
    });
    expect(refusal(() => googleModelPage(ids, { pageToken: 'not-a-token' })).status).toBe(400);
    expect(googleModelOf(ids, 'models/b').name).toBe('models/b');
    expect(refusal(() => googleModelOf(ids, 'z'))).toEqual({ status: 404, message: 'models/z is not found' });
  });
});
