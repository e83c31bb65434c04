import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../ir/chat.js';
import { RelayError } from '../../ir/errors.js';
import { responsesCodec } from './index.js';

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;

const options = { model: 'gpt-5-2025-08-07', streamUsage: true };

/** The 400 a client gets for `body`. */
function refusal(body: Record<string, unknown>): RelayError {
  try {
    responsesCodec.decodeRequest(body);
  } catch (error) {
    if (error instanceof RelayError) return error;
    throw error;
  }
  throw new Error('the request was accepted');
}

describe('a client request', () => {
  it('takes every kind of input item', () => {
    const request = responsesCodec.decodeRequest(fixture('request-all-items.json'));
    expect(request).toEqual<ChatRequest>({
      model: 'gpt-5',
      stream: true,
      system: [
        { type: 'text', text: 'You are a concise travel assistant.' },
        { type: 'text', text: 'Answer in English.' },
        { type: 'text', text: 'Use metric units.' },
      ],
      messages: [
        { role: 'user', parts: [{ type: 'text', text: 'What should I pack for Paris?' }] },
        {
          role: 'user',
          parts: [
            { type: 'text', text: 'Here is my itinerary and a photo of my suitcase.' },
            { type: 'image', data: 'iVBORw0KGgo=', mediaType: 'image/png' },
            { type: 'image', url: 'https://example.com/suitcase.jpg' },
            { type: 'document', data: 'JVBERi0xLjQ=', mediaType: 'application/pdf', title: 'itinerary.pdf' },
          ],
        },
        {
          role: 'assistant',
          parts: [
            {
              type: 'reasoning',
              text: 'The user needs the forecast.\n\nCall get_weather.',
              signature: 'gAAAAABoEncrypted==',
            },
            { type: 'text', text: 'Let me check the forecast.' },
            { type: 'text', text: 'I cannot see your suitcase.' },
            {
              type: 'tool_call',
              id: 'call_weather',
              name: 'get_weather',
              arguments: '{"location":"Paris, France"}',
            },
            { type: 'tool_call', id: 'call_map', name: 'get_map', arguments: '{"city":"Paris"}' },
          ],
        },
        {
          role: 'tool',
          parts: [
            {
              type: 'tool_result',
              toolCallId: 'call_weather',
              name: 'get_weather',
              content: [{ type: 'text', text: '{"temperature":18}' }],
            },
            {
              type: 'tool_result',
              toolCallId: 'call_map',
              name: 'get_map',
              content: [
                { type: 'text', text: 'Map attached.' },
                { type: 'image', data: '/9j/4AAQ', mediaType: 'image/jpeg' },
              ],
            },
          ],
        },
        { role: 'assistant', parts: [{ type: 'text', text: 'It is 18 °C in Paris.' }] },
        { role: 'user', parts: [{ type: 'text', text: 'Thanks! Any rain?' }] },
      ],
      tools: [
        {
          name: 'get_weather',
          description: 'Get current temperature for a given location.',
          parameters: {
            type: 'object',
            properties: { location: { type: 'string' } },
            required: ['location'],
            additionalProperties: false,
          },
        },
        { name: 'get_map', parameters: { type: 'object', properties: {} } },
      ],
      toolChoice: { type: 'tool', name: 'get_weather' },
      parallelToolCalls: false,
      responseFormat: {
        type: 'json_schema',
        name: 'packing_list',
        schema: { type: 'object', properties: { items: { type: 'array' } } },
        strict: true,
      },
      maxOutputTokens: 2048,
      temperature: 0.7,
      topP: 0.9,
      stop: [],
      reasoning: { effort: 'medium', includeThoughts: true },
      user: 'user-1234',
    });
  });

  it('reads a string input as one user message and defaults to no stream', () => {
    const request = responsesCodec.decodeRequest({ model: 'gpt-4.1', input: 'Tell me a joke.' });
    expect(request.messages).toEqual([{ role: 'user', parts: [{ type: 'text', text: 'Tell me a joke.' }] }]);
    expect(request.stream).toBe(false);
    expect(request.system).toEqual([]);
  });

  it.each([
    ['auto', { type: 'auto' }],
    ['none', { type: 'none' }],
    ['required', { type: 'required' }],
  ])('takes tool_choice %s', (choice, expected) => {
    expect(responsesCodec.decodeRequest({ model: 'm', input: 'hi', tool_choice: choice }).toolChoice).toEqual(
      expected,
    );
  });

  it('maps reasoning settings onto the IR scale', () => {
    const reasoning = (value: unknown) =>
      responsesCodec.decodeRequest({ model: 'm', input: 'hi', reasoning: value }).reasoning;
    expect(reasoning({ effort: 'none' })).toEqual({ budgetTokens: 0, includeThoughts: false });
    expect(reasoning({ effort: 'xhigh' })).toEqual({ effort: 'high', includeThoughts: false });
    expect(reasoning({ effort: 'low', summary: 'detailed' })).toEqual({
      effort: 'low',
      includeThoughts: true,
    });
    expect(reasoning({ summary: 'auto' })).toEqual({ includeThoughts: true });
    expect(reasoning({})).toBeUndefined();
  });

  it('takes json_object output and ignores the plain text format', () => {
    const format = (value: unknown) =>
      responsesCodec.decodeRequest({ model: 'm', input: 'hi', text: { format: value } }).responseFormat;
    expect(format({ type: 'json_object' })).toEqual({ type: 'json_object' });
    expect(format({ type: 'text' })).toBeUndefined();
  });

  it.each(['web_search', 'file_search', 'computer_use_preview', 'code_interpreter', 'mcp', 'local_shell'])(
    'leaves the hosted %s tool out, and serves the call with the function tools',
    (type) => {
      const tools = [{ type }, { type: 'function', name: 'get_weather' }];
      const request = responsesCodec.decodeRequest({ model: 'm', input: 'hi', tools });
      expect(request.tools.map((t) => t.name)).toEqual(['get_weather']);
    },
  );

  it('refuses file ids: Sluice has no Files API', () => {
    const image = refusal({
      model: 'm',
      input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file-abc', detail: 'auto' }] }],
    });
    expect(image.status).toBe(400);
    expect(image.message).toBe(
      'input.0.content.0: file ids are not supported: Sluice has no Files API, send the data inline',
    );
    const file = refusal({
      model: 'm',
      input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'file-abc' }] }],
    });
    expect(file.message).toContain('file ids are not supported');
  });

  it('refuses what it cannot relay, naming the field', () => {
    expect(refusal({ input: 'hi' }).message).toBe('model is required');
    expect(refusal({ model: 'm', input: [{ role: 'robot', content: 'hi' }] }).message).toBe(
      'input.0.role: role must be user, assistant, system or developer',
    );
    expect(refusal({ model: 'm', input: [{ type: 'item_reference', id: 'msg_1' }] }).message).toContain(
      'item references are not supported',
    );
    expect(refusal({ model: 'm', input: [{ type: 'computer_call', id: 'cu_1' }] }).message).toContain(
      'input items of type computer_call are not supported',
    );
    expect(refusal({ model: 'm', input: 'hi', tools: ['web_search'] }).message).toBe(
      'tools.0: a tool must be an object with a type',
    );
    expect(
      refusal({ model: 'm', input: 'hi', tool_choice: { type: 'web_search_preview' } }).message,
    ).toContain('tool_choice: a tool_choice of type web_search_preview is not supported');
    expect(refusal({ model: 'm', input: 'hi', max_output_tokens: -1 }).message).toBe(
      'max_output_tokens must not be negative',
    );
  });
});

describe('a request for a Responses API upstream', () => {
  const decoded = responsesCodec.decodeRequest(fixture('request-all-items.json'));

  it('carries the conversation as input items and settings as Responses fields', () => {
    const body = responsesCodec.encodeRequest(decoded, { ...options, maxOutputTokens: 1000 });
    expect(body).toMatchObject({
      model: 'gpt-5-2025-08-07',
      instructions: 'You are a concise travel assistant.\n\nAnswer in English.\n\nUse metric units.',
      tool_choice: { type: 'function', name: 'get_weather' },
      parallel_tool_calls: false,
      text: {
        format: {
          type: 'json_schema',
          name: 'packing_list',
          schema: { type: 'object', properties: { items: { type: 'array' } } },
          strict: true,
        },
      },
      reasoning: { effort: 'medium' },
      max_output_tokens: 1000,
      temperature: 0.7,
      top_p: 0.9,
      stream: true,
      user: 'user-1234',
      store: false,
    });
    expect(body.input).toEqual([
      {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: 'What should I pack for Paris?' }],
      },
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'Here is my itinerary and a photo of my suitcase.' },
          { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' },
          { type: 'input_image', image_url: 'https://example.com/suitcase.jpg', detail: 'auto' },
          {
            type: 'input_file',
            file_data: 'data:application/pdf;base64,JVBERi0xLjQ=',
            filename: 'itinerary.pdf',
          },
        ],
      },
      // The reasoning item is not sent back (see assistantItems): its signature may be another vendor's.
      {
        type: 'message',
        role: 'assistant',
        content: 'Let me check the forecast.I cannot see your suitcase.',
      },
      {
        type: 'function_call',
        call_id: 'call_weather',
        name: 'get_weather',
        arguments: '{"location":"Paris, France"}',
      },
      { type: 'function_call', call_id: 'call_map', name: 'get_map', arguments: '{"city":"Paris"}' },
      { type: 'function_call_output', call_id: 'call_weather', output: '{"temperature":18}' },
      {
        type: 'function_call_output',
        call_id: 'call_map',
        output: [
          { type: 'input_text', text: 'Map attached.' },
          { type: 'input_image', image_url: 'data:image/jpeg;base64,/9j/4AAQ', detail: 'auto' },
        ],
      },
      { type: 'message', role: 'assistant', content: 'It is 18 °C in Paris.' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Thanks! Any rain?' }] },
    ]);
  });

  it('sends function tools with strict off, so schemas from other formats are accepted', () => {
    const body = responsesCodec.encodeRequest(decoded, options);
    expect(body.tools).toEqual([
      {
        type: 'function',
        name: 'get_weather',
        description: 'Get current temperature for a given location.',
        parameters: decoded.tools[0]!.parameters,
        strict: false,
      },
      { type: 'function', name: 'get_map', parameters: { type: 'object', properties: {} }, strict: false },
    ]);
    expect(body.max_output_tokens).toBe(2048);
  });

  it.each([
    [0, undefined],
    [1024, { effort: 'low' }],
    [1025, { effort: 'medium' }],
    [8192, { effort: 'medium' }],
    [8193, { effort: 'high' }],
  ])('turns a thinking budget of %i into %j', (budgetTokens, expected) => {
    const body = responsesCodec.encodeRequest({ ...decoded, reasoning: { budgetTokens } }, options);
    expect(body.reasoning).toEqual(expected);
  });

  it('survives a round trip through the Responses format (reasoning aside)', () => {
    const body = responsesCodec.encodeRequest(decoded, { model: decoded.model, streamUsage: false });
    const again = responsesCodec.decodeRequest(body);
    expect(again.messages).toEqual(
      decoded.messages.map((m) => ({
        role: m.role,
        parts: m.parts
          .filter((p) => p.type !== 'reasoning')
          // One assistant message item carries the turn's text.
          .reduce<typeof m.parts>((parts, p) => {
            const last = parts[parts.length - 1];
            if (p.type === 'text' && last?.type === 'text' && m.role === 'assistant') last.text += p.text;
            else parts.push({ ...p });
            return parts;
          }, []),
      })),
    );
    expect(again.system).toEqual([{ type: 'text', text: decoded.system.map((s) => s.text).join('\n\n') }]);
    expect(again.tools.map((t) => t.name)).toEqual(['get_weather', 'get_map']);
    expect(again.responseFormat).toEqual(decoded.responseFormat);
    expect(again.toolChoice).toEqual(decoded.toolChoice);
  });

  it('refuses audio, which the Responses API does not take', () => {
    const request: ChatRequest = {
      ...decoded,
      messages: [{ role: 'user', parts: [{ type: 'audio', data: 'UklGR', format: 'wav' }] }],
    };
    expect(() => responsesCodec.encodeRequest(request, options)).toThrow(RelayError);
  });
});
