import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, ChatRequest } from '../../ir/chat.js';
import { RelayError } from '../../ir/errors.js';
import { geminiCodec } from './index.js';

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;

const OPTIONS = { model: 'gemini-2.5-flash', streamUsage: true };

const request = (over: Partial<ChatRequest>): ChatRequest => ({
  model: 'gpt-4o',
  stream: false,
  system: [],
  messages: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }],
  tools: [],
  stop: [],
  ...over,
});

const encode = (
  over: Partial<ChatRequest>,
  options: Partial<typeof OPTIONS & { maxOutputTokens: number }> = {},
) =>
  geminiCodec.encodeRequest(request(over), { ...OPTIONS, ...options }) as {
    contents: { role: string; parts: Record<string, unknown>[] }[];
    generationConfig: Record<string, unknown>;
    [key: string]: unknown;
  };

function rejects(body: Record<string, unknown>, message: RegExp): void {
  let error: unknown;
  try {
    geminiCodec.decodeRequest(body);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(RelayError);
  expect((error as RelayError).status).toBe(400);
  expect((error as RelayError).message).toMatch(message);
}

describe('a Gemini client request', () => {
  const decoded = geminiCodec.decodeRequest(fixture('request-tools.json'));

  it('leaves the model and the stream choice to the route, which reads them from the URL', () => {
    expect(decoded.model).toBe('');
    expect(decoded.stream).toBe(false);
  });

  it('reads the system instruction, the turns and an inline image', () => {
    expect(decoded.system).toEqual([{ type: 'text', text: 'You are a concise weather assistant.' }]);
    expect(decoded.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(decoded.messages[0]?.parts[1]).toEqual({
      type: 'image',
      data: '/9j/4AAQSkZJRgABAQ==',
      mediaType: 'image/jpeg',
    });
  });

  it('gives a function call without an id one, and pairs its response with it by name', () => {
    const [signature, call] = decoded.messages[1]?.parts ?? [];
    expect(signature).toEqual({ type: 'reasoning', text: '', signature: 'CiwBVKhc7vQ2c2lnbmF0dXJl' });
    expect(call).toEqual({
      type: 'tool_call',
      id: 'call_0',
      name: 'get_weather',
      arguments: '{"location":"Boston, MA"}',
    });
    expect(decoded.messages[2]?.parts).toEqual([
      {
        type: 'tool_result',
        toolCallId: 'call_0',
        name: 'get_weather',
        content: [{ type: 'text', text: '{"temperature":11,"sky":"overcast"}' }],
      },
    ]);
  });

  it('keeps function declarations as JSON Schema and drops Google-run tools', () => {
    expect(decoded.tools).toEqual([
      {
        name: 'get_weather',
        description: 'Current weather for a city.',
        parameters: {
          type: 'object',
          properties: {
            location: { type: 'string', description: 'City and state, e.g. Boston, MA' },
            unit: { type: ['string', 'null'], enum: ['celsius', 'fahrenheit'] },
          },
          required: ['location'],
        },
      },
    ]);
    expect(decoded.toolChoice).toEqual({ type: 'auto' });
  });

  it('reads the generation config and thinking settings', () => {
    expect(decoded).toMatchObject({
      temperature: 0.7,
      topP: 0.95,
      topK: 40,
      maxOutputTokens: 2048,
      stop: ['END'],
      seed: 7,
      reasoning: { budgetTokens: 1024, includeThoughts: true },
    });
  });

  it('pairs several unnamed calls of one function with their responses in order', () => {
    const call = (city: string) => ({ functionCall: { name: 'get_weather', args: { city } } });
    const answer = (temp: number) => ({ functionResponse: { name: 'get_weather', response: { temp } } });
    const { messages } = geminiCodec.decodeRequest({
      contents: [
        { role: 'user', parts: [{ text: 'Paris and Rome?' }] },
        { role: 'model', parts: [call('Paris'), call('Rome')] },
        { role: 'user', parts: [answer(18), answer(24), { text: 'And which is warmer?' }] },
      ],
    });
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    const ids = (m: ChatMessage | undefined) =>
      m?.parts.map((p) => (p.type === 'tool_call' ? p.id : p.type === 'tool_result' ? p.toolCallId : '')) ??
      [];
    expect(ids(messages[1])).toEqual(['call_0', 'call_1']);
    expect(ids(messages[2])).toEqual(['call_0', 'call_1']);
    expect(messages[3]?.parts).toEqual([{ type: 'text', text: 'And which is warmer?' }]);
  });

  it('keeps the ids a client gave its calls and responses', () => {
    const { messages } = geminiCodec.decodeRequest({
      contents: [
        { role: 'model', parts: [{ functionCall: { id: 'fc-7', name: 'f', args: {} } }] },
        { role: 'user', parts: [{ functionResponse: { id: 'fc-7', name: 'f', response: { ok: true } } }] },
      ],
    });
    expect(messages[0]?.parts[0]).toMatchObject({ id: 'fc-7' });
    expect(messages[1]?.parts[0]).toMatchObject({ toolCallId: 'fc-7' });
  });

  it('reads thought parts, audio, PDFs and files by URI', () => {
    const { messages } = geminiCodec.decodeRequest({
      contents: [
        {
          parts: [
            { inlineData: { mimeType: 'audio/mpeg', data: 'SUQz' } },
            { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0=' } },
            {
              fileData: {
                mimeType: 'image/png',
                fileUri: 'https://generativelanguage.googleapis.com/v1beta/files/abc',
              },
            },
            { fileData: { fileUri: 'gs://bucket/report.pdf' } },
          ],
        },
        {
          role: 'model',
          parts: [{ text: 'Let me think.', thought: true, thoughtSignature: 'c2ln' }, { text: 'Done.' }],
        },
      ],
    });
    expect(messages[0]?.parts).toEqual([
      { type: 'audio', data: 'SUQz', format: 'mp3' },
      { type: 'document', data: 'JVBERi0=', mediaType: 'application/pdf' },
      {
        type: 'image',
        url: 'https://generativelanguage.googleapis.com/v1beta/files/abc',
        mediaType: 'image/png',
      },
      { type: 'document', url: 'gs://bucket/report.pdf', mediaType: 'application/pdf' },
    ]);
    expect(messages[1]?.parts).toEqual([
      { type: 'reasoning', text: 'Let me think.', signature: 'c2ln' },
      { type: 'text', text: 'Done.' },
    ]);
  });

  it('maps function-calling modes and JSON output settings', () => {
    const decode = (toolConfig: unknown, generationConfig: unknown) =>
      geminiCodec.decodeRequest({ contents: [{ parts: [{ text: 'x' }] }], toolConfig, generationConfig });
    const one = decode(
      { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['f'] } },
      {
        responseMimeType: 'application/json',
        responseJsonSchema: { type: 'object', additionalProperties: false },
      },
    );
    expect(one.toolChoice).toEqual({ type: 'tool', name: 'f' });
    expect(one.responseFormat).toEqual({
      type: 'json_schema',
      name: 'response',
      schema: { type: 'object', additionalProperties: false },
    });
    const any = decode({ functionCallingConfig: { mode: 'ANY' } }, { responseMimeType: 'application/json' });
    expect(any.toolChoice).toEqual({ type: 'required' });
    expect(any.responseFormat).toEqual({ type: 'json_object' });
    const none = decode(
      { functionCallingConfig: { mode: 'NONE' } },
      {
        responseSchema: { type: 'ARRAY', items: { type: 'STRING' }, maxItems: '3' },
      },
    );
    expect(none.toolChoice).toEqual({ type: 'none' });
    expect(none.responseFormat).toMatchObject({
      schema: { type: 'array', items: { type: 'string' }, maxItems: 3 },
    });
  });

  it('reads dynamic thinking, thinking off and thinking levels', () => {
    const reasoning = (thinkingConfig: unknown) =>
      geminiCodec.decodeRequest({
        contents: [{ parts: [{ text: 'x' }] }],
        generationConfig: { thinkingConfig },
      }).reasoning;
    expect(reasoning({ thinkingBudget: -1, includeThoughts: true })).toEqual({ includeThoughts: true });
    expect(reasoning({ thinkingBudget: 0 })).toEqual({ budgetTokens: 0 });
    expect(reasoning({ thinkingLevel: 'HIGH' })).toEqual({ effort: 'high' });
  });

  it('refuses a body without contents, with empty contents or with an unknown role', () => {
    rejects({}, /contents must be a non-empty array/);
    rejects({ contents: [] }, /contents must be a non-empty array/);
    rejects({ contents: 'hello' }, /contents must be a non-empty array/);
    rejects({ contents: [{ role: 'system', parts: [{ text: 'x' }] }] }, /contents\.0\.role/);
  });

  it('refuses media no other vendor can take instead of dropping it', () => {
    rejects(
      { contents: [{ parts: [{ inlineData: { mimeType: 'video/mp4', data: 'AAAA' } }] }] },
      /contents\.0\.parts\.0\.inlineData: inline data of type video\/mp4 cannot be sent/,
    );
  });
});

describe('a request for a Gemini upstream', () => {
  it('puts no model in the body and names turns user and model', () => {
    const body = encode({
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [
        { role: 'user', parts: [{ type: 'text', text: 'hi' }] },
        { role: 'assistant', parts: [{ type: 'text', text: 'hello' }] },
        { role: 'user', parts: [{ type: 'text', text: 'bye' }] },
      ],
    });
    expect(body.model).toBeUndefined();
    expect(body.systemInstruction).toEqual({ parts: [{ text: 'Be brief.' }] });
    expect(body.contents.map((c) => c.role)).toEqual(['user', 'model', 'user']);
  });

  it('answers parallel calls in one user turn, naming each response after its call', () => {
    const body = encode({
      messages: [
        { role: 'user', parts: [{ type: 'text', text: 'Paris and Rome?' }] },
        {
          role: 'assistant',
          parts: [
            { type: 'tool_call', id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
            { type: 'tool_call', id: 'call_b', name: 'get_time', arguments: 'not json' },
          ],
        },
        {
          role: 'tool',
          parts: [
            { type: 'tool_result', toolCallId: 'call_a', content: [{ type: 'text', text: '{"temp":18}' }] },
          ],
        },
        {
          role: 'tool',
          parts: [
            {
              type: 'tool_result',
              toolCallId: 'call_b',
              content: [{ type: 'text', text: '14:05' }],
              isError: true,
            },
          ],
        },
      ],
    });
    expect(body.contents).toHaveLength(3);
    expect(body.contents[1]).toEqual({
      role: 'model',
      parts: [
        {
          functionCall: { id: 'call_a', name: 'get_weather', args: { city: 'Paris' } },
          thoughtSignature: 'skip_thought_signature_validator',
        },
        { functionCall: { id: 'call_b', name: 'get_time', args: {} }, thoughtSignature: undefined },
      ],
    });
    expect(body.contents[2]).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { id: 'call_a', name: 'get_weather', response: { temp: 18 } } },
        { functionResponse: { id: 'call_b', name: 'get_time', response: { error: '14:05' } } },
      ],
    });
  });

  it('puts a thought signature back on the part it came with', () => {
    const body = encode({
      messages: [
        { role: 'user', parts: [{ type: 'text', text: 'weather?' }] },
        {
          role: 'assistant',
          parts: [
            { type: 'reasoning', text: 'I should call the tool.', signature: 'c2lnMQ==' },
            { type: 'reasoning', text: '', signature: 'c2lnMg==' },
            { type: 'tool_call', id: 'x', name: 'f', arguments: '{}' },
          ],
        },
      ],
    });
    expect(body.contents[1]?.parts).toEqual([
      { text: 'I should call the tool.', thought: true, thoughtSignature: 'c2lnMQ==' },
      { functionCall: { id: 'x', name: 'f', args: {} }, thoughtSignature: 'c2lnMg==' },
    ]);
  });

  it('sends images by URL as fileData and data URLs inline', () => {
    const body = encode({
      messages: [
        {
          role: 'user',
          parts: [
            { type: 'image', url: 'https://example.com/cat.PNG?size=large' },
            { type: 'image', url: 'https://example.com/photo' },
            { type: 'image', url: 'data:image/webp;base64,UklGRg==' },
            { type: 'audio', data: 'SUQz', format: 'mp3' },
            { type: 'document', url: 'https://example.com/a.pdf' },
          ],
        },
      ],
    });
    expect(body.contents[0]?.parts).toEqual([
      { fileData: { mimeType: 'image/png', fileUri: 'https://example.com/cat.PNG?size=large' } },
      { fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/photo' } },
      { inlineData: { mimeType: 'image/webp', data: 'UklGRg==' } },
      { inlineData: { mimeType: 'audio/mp3', data: 'SUQz' } },
      { fileData: { mimeType: 'application/pdf', fileUri: 'https://example.com/a.pdf' } },
    ]);
  });

  it('declares tools with parametersJsonSchema and maps the tool choice', () => {
    const body = encode({
      tools: [
        {
          name: 'f',
          description: 'does f',
          parameters: {
            $schema: 'http://json-schema.org/draft-07/schema#',
            type: 'object',
            properties: { a: { type: 'string' } },
            additionalProperties: false,
          },
        },
        { name: 'g', parameters: {} },
      ],
      toolChoice: { type: 'tool', name: 'g' },
    });
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'f',
            description: 'does f',
            parametersJsonSchema: {
              type: 'object',
              properties: { a: { type: 'string' } },
              additionalProperties: false,
            },
          },
          { name: 'g', description: undefined, parametersJsonSchema: { type: 'object', properties: {} } },
        ],
      },
    ]);
    expect(body.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['g'] } });
  });

  it('fills the generation config: the channel limit wins, at most five stop sequences, JSON schema', () => {
    const body = encode(
      {
        maxOutputTokens: 4000,
        temperature: 0.2,
        stop: ['1', '2', '3', '4', '5', '6'],
        responseFormat: { type: 'json_schema', name: 'r', schema: { type: 'object' } },
      },
      { maxOutputTokens: 900 },
    );
    expect(JSON.parse(JSON.stringify(body.generationConfig))).toEqual({
      maxOutputTokens: 900,
      temperature: 0.2,
      stopSequences: ['1', '2', '3', '4', '5'],
      responseMimeType: 'application/json',
      responseJsonSchema: { type: 'object' },
    });
  });

  it('turns effort into a thinking budget, and thinking without one into dynamic thinking', () => {
    const thinking = (reasoning: ChatRequest['reasoning']) =>
      encode({ reasoning }).generationConfig.thinkingConfig;
    expect(thinking({ effort: 'minimal' })).toMatchObject({ thinkingBudget: 512 });
    expect(thinking({ effort: 'low' })).toMatchObject({ thinkingBudget: 1024 });
    expect(thinking({ effort: 'medium', includeThoughts: true })).toEqual({
      thinkingBudget: 8192,
      includeThoughts: true,
    });
    expect(thinking({ effort: 'high' })).toMatchObject({ thinkingBudget: 24576 });
    expect(thinking({ budgetTokens: 3000, effort: 'high' })).toMatchObject({ thinkingBudget: 3000 });
    expect(thinking({ budgetTokens: 0, includeThoughts: true })).toEqual({
      thinkingBudget: 0,
      includeThoughts: undefined,
    });
    expect(thinking({ includeThoughts: true })).toEqual({ thinkingBudget: -1, includeThoughts: true });
    expect(thinking(undefined)).toBeUndefined();
  });

  it('sends a decoded Gemini request back upstream with the same turns, calls and responses', () => {
    const original = fixture('request-tools.json');
    const body = geminiCodec.encodeRequest(geminiCodec.decodeRequest(original), OPTIONS) as Record<
      string,
      unknown
    >;
    const contents = body.contents as { role: string; parts: Record<string, unknown>[] }[];
    expect(contents.map((c) => c.role)).toEqual(['user', 'model', 'user']);
    expect(contents[0]?.parts[1]).toEqual({
      inlineData: { mimeType: 'image/jpeg', data: '/9j/4AAQSkZJRgABAQ==' },
    });
    expect(contents[1]?.parts).toEqual([
      {
        functionCall: { id: 'call_0', name: 'get_weather', args: { location: 'Boston, MA' } },
        thoughtSignature: 'CiwBVKhc7vQ2c2lnbmF0dXJl',
      },
    ]);
    expect(contents[2]?.parts).toEqual([
      {
        functionResponse: {
          id: 'call_0',
          name: 'get_weather',
          response: { temperature: 11, sky: 'overcast' },
        },
      },
    ]);
    expect(body.generationConfig).toMatchObject({
      maxOutputTokens: 2048,
      thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
    });
  });
});
