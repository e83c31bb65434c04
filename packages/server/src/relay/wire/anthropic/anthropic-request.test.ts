import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, ChatRequest } from '../../ir/chat.js';
import { RelayError } from '../../ir/errors.js';
import { anthropicCodec } from './index.js';

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;

/** What a JSON body looks like on the wire (undefined fields vanish). */
const wire = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const options = { model: 'claude-sonnet-4-5', streamUsage: false };

const request = (over: Partial<ChatRequest>): ChatRequest =>
  Object.assign(
    {
      model: 'gpt-4o',
      stream: false,
      system: [],
      messages: [{ role: 'user', parts: [{ type: 'text', text: 'Hi' }] }],
      tools: [],
      stop: [],
    },
    over,
  );

const encode = (over: Partial<ChatRequest>, maxOutputTokens?: number) =>
  wire(anthropicCodec.encodeRequest(request(over), { ...options, maxOutputTokens })) as Record<
    string,
    unknown
  >;

const badRequest = (body: Record<string, unknown>): RelayError => {
  try {
    anthropicCodec.decodeRequest(body);
  } catch (error) {
    if (error instanceof RelayError) return error;
    throw error;
  }
  throw new Error('the request was accepted');
};

describe('anthropic client requests', () => {
  it('decodes a Claude Code request and encodes it back to the same body, minus what no vendor keeps', () => {
    const body = fixture('request.json');
    const decoded = anthropicCodec.decodeRequest(body);
    expect(decoded.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(decoded.messages[2]?.parts).toEqual([
      {
        type: 'tool_result',
        toolCallId: 'toolu_01A09q90qw90lq917835lq9',
        name: 'get_weather',
        content: [{ type: 'text', text: '15 degrees, foggy' }],
      },
    ]);
    expect(decoded.reasoning).toMatchObject({ budgetTokens: 4096, includeThoughts: true });
    expect(decoded.parallelToolCalls).toBe(false);
    expect(decoded.user).toBe('user_2f8a');

    const expected = structuredClone(body) as {
      system: object[];
      messages: { content: object[] }[];
      tools: object[];
    };
    // cache_control is dropped in conversion, and so is the server tool (no other vendor runs it).
    delete (expected.system[1] as { cache_control?: unknown }).cache_control;
    delete (expected.messages[2]?.content[1] as { cache_control?: unknown }).cache_control;
    expected.tools.pop();
    expect(wire(anthropicCodec.encodeRequest(decoded, options))).toEqual(expected);
  });

  it('refuses a request without a valid max_tokens, as Anthropic does', () => {
    const base = { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'Hi' }] };
    for (const max_tokens of [undefined, 'many', 1.5, -1]) {
      const error = badRequest({ ...base, max_tokens });
      expect(error.status).toBe(400);
      expect(error.message).toMatch(/max_tokens/);
    }
  });

  it('names the field of a block it cannot convert', () => {
    const error = badRequest({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'file', file_id: 'file_1' } }] }],
    });
    expect(error.message).toBe(
      "messages.0.content.0.source: an image source of type 'file' cannot be sent to this model's upstream",
    );
    expect(
      badRequest({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: [{ type: 'image' }] }] })
        .message,
    ).toMatch(/^messages\.0\.content\.0\.source: /);
  });

  it('maps tool choice, sampling, stop sequences and thinking settings', () => {
    const decoded = anthropicCodec.decodeRequest({
      model: 'claude-sonnet-4-5',
      max_tokens: 512,
      system: 'Be terse.',
      messages: [{ role: 'user', content: 'Hi' }],
      tools: [{ name: 'lookup', input_schema: { type: 'object' } }],
      tool_choice: { type: 'any' },
      temperature: 0.2,
      top_p: 0.9,
      top_k: 40,
      stop_sequences: ['END'],
      thinking: { type: 'disabled' },
    });
    expect(decoded).toMatchObject({
      system: [{ type: 'text', text: 'Be terse.' }],
      messages: [{ role: 'user', parts: [{ type: 'text', text: 'Hi' }] }],
      toolChoice: { type: 'required' },
      maxOutputTokens: 512,
      temperature: 0.2,
      topP: 0.9,
      topK: 40,
      stop: ['END'],
      reasoning: { budgetTokens: 0 },
      stream: false,
    });
    expect(decoded.parallelToolCalls).toBeUndefined();
    const named = anthropicCodec.decodeRequest({
      model: 'm',
      max_tokens: 1,
      messages: [],
      tool_choice: { type: 'tool', name: 'lookup' },
    });
    expect(named.toolChoice).toEqual({ type: 'tool', name: 'lookup' });
  });

  it('keeps thinking, redacted thinking and errored tool results of the history', () => {
    const decoded = anthropicCodec.decodeRequest({
      model: 'm',
      max_tokens: 1,
      messages: [
        {
          role: 'assistant',
          content: [
            { type: 'redacted_thinking', data: 'EmwKAhgB' },
            { type: 'tool_use', id: 't1', name: 'run', input: { cmd: 'ls' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Here:' },
            { type: 'tool_result', tool_use_id: 't1', content: 'no such file', is_error: true },
          ],
        },
      ],
    });
    expect(decoded.messages).toEqual([
      {
        role: 'assistant',
        parts: [
          { type: 'reasoning', text: '', redacted: 'EmwKAhgB' },
          { type: 'tool_call', id: 't1', name: 'run', arguments: '{"cmd":"ls"}' },
        ],
      },
      {
        role: 'tool',
        parts: [
          {
            type: 'tool_result',
            toolCallId: 't1',
            name: 'run',
            content: [{ type: 'text', text: 'no such file' }],
            isError: true,
          },
        ],
      },
      { role: 'user', parts: [{ type: 'text', text: 'Here:' }] },
    ]);
  });
});

describe('anthropic upstream requests', () => {
  it('merges same-role messages and puts tool results first in their user turn', () => {
    const messages: ChatMessage[] = [
      { role: 'user', parts: [{ type: 'text', text: 'a' }] },
      { role: 'user', parts: [{ type: 'text', text: 'b' }] },
      { role: 'assistant', parts: [{ type: 'tool_call', id: 'call_1', name: 'f', arguments: '{"x":1}' }] },
      { role: 'user', parts: [{ type: 'text', text: 'c' }] },
      {
        role: 'tool',
        parts: [{ type: 'tool_result', toolCallId: 'call_1', content: [{ type: 'text', text: 'r' }] }],
      },
      { role: 'assistant', parts: [{ type: 'text', text: '' }] },
      { role: 'assistant', parts: [{ type: 'text', text: 'The answer is ' }] },
    ];
    expect(encode({ messages }).messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'f', input: { x: 1 } }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: [{ type: 'text', text: 'r' }] },
          { type: 'text', text: 'c' },
        ],
      },
      // An empty text block and the prefill's trailing whitespace are both refused by Anthropic.
      { role: 'assistant', content: [{ type: 'text', text: 'The answer is' }] },
    ]);
  });

  it('sends back only thinking Anthropic can verify', () => {
    const messages: ChatMessage[] = [
      { role: 'user', parts: [{ type: 'text', text: 'q' }] },
      {
        role: 'assistant',
        parts: [
          { type: 'reasoning', text: 'from another vendor' },
          { type: 'reasoning', text: 'signed', signature: 'sig' },
          { type: 'reasoning', text: '', redacted: 'opaque' },
          { type: 'text', text: 'a' },
        ],
      },
    ];
    expect((encode({ messages }).messages as unknown[])[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'signed', signature: 'sig' },
        { type: 'redacted_thinking', data: 'opaque' },
        { type: 'text', text: 'a' },
      ],
    });
  });

  it('sanitises tool names and ids the same way everywhere', () => {
    const long = 'x'.repeat(70);
    const body = encode({
      tools: [
        { name: 'files.read/v2', parameters: {} },
        { name: long, parameters: { type: 'object', properties: {} } },
      ],
      toolChoice: { type: 'tool', name: 'files.read/v2' },
      messages: [
        { role: 'user', parts: [{ type: 'text', text: 'q' }] },
        {
          role: 'assistant',
          parts: [{ type: 'tool_call', id: 'call:1', name: 'files.read/v2', arguments: 'oops' }],
        },
        { role: 'tool', parts: [{ type: 'tool_result', toolCallId: 'call:1', content: [] }] },
      ],
    });
    expect(body.tools).toEqual([
      { name: 'files_read_v2', input_schema: { type: 'object' } },
      { name: 'x'.repeat(64), input_schema: { type: 'object', properties: {} } },
    ]);
    expect(body.tool_choice).toEqual({ type: 'tool', name: 'files_read_v2' });
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'q' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'files_read_v2', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1' }] },
    ]);
  });

  it('never sends temperature with top_p, and keeps temperature in 0–1', () => {
    expect(encode({ temperature: 1.6, topP: 0.5, topK: 5 })).toMatchObject({ temperature: 1, top_k: 5 });
    expect(encode({ temperature: 1.6, topP: 0.5 })).not.toHaveProperty('top_p');
    expect(encode({ topP: 0.5 })).toMatchObject({ top_p: 0.5 });
  });

  it('turns thinking on from a budget or an effort, within what max_tokens leaves', () => {
    const thinking = (reasoning: ChatRequest['reasoning'], max?: number) =>
      encode({ reasoning }, max).thinking;
    expect(thinking({ effort: 'minimal' }, 16000)).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(thinking({ effort: 'low' }, 16000)).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(thinking({ effort: 'medium' }, 16000)).toEqual({ type: 'enabled', budget_tokens: 8192 });
    expect(thinking({ effort: 'high' }, 32000)).toEqual({ type: 'enabled', budget_tokens: 24576 });
    expect(thinking({ budgetTokens: 100 }, 16000)).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(thinking({ budgetTokens: 50000 }, 4096)).toEqual({ type: 'enabled', budget_tokens: 4095 });
    expect(thinking({ budgetTokens: 2000 }, 1024)).toBeUndefined();
    expect(thinking({ budgetTokens: 0, effort: 'high' }, 16000)).toBeUndefined();
    expect(thinking({ includeThoughts: true }, 16000)).toBeUndefined();
  });

  it('drops or adjusts what Anthropic refuses alongside thinking', () => {
    const body = encode(
      {
        reasoning: { budgetTokens: 2048 },
        temperature: 0.3,
        topK: 10,
        topP: 0.9,
        tools: [{ name: 'f', parameters: { type: 'object' } }],
        toolChoice: { type: 'required' },
        parallelToolCalls: false,
      },
      8000,
    );
    expect(body).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 2048 } });
    expect(body).not.toHaveProperty('temperature');
    expect(body).not.toHaveProperty('top_k');
    expect(body).not.toHaveProperty('top_p');
    expect(body.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    expect(encode({ reasoning: { budgetTokens: 2048 }, topP: 0.97 }, 8000).top_p).toBe(0.97);
  });

  it('leaves thinking off when the last tool turn has no thinking block to send back', () => {
    const body = encode(
      {
        reasoning: { effort: 'medium' },
        messages: [
          { role: 'user', parts: [{ type: 'text', text: 'q' }] },
          { role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'f', arguments: '{}' }] },
          {
            role: 'tool',
            parts: [{ type: 'tool_result', toolCallId: 'c1', content: [{ type: 'text', text: 'ok' }] }],
          },
        ],
      },
      16000,
    );
    expect(body).not.toHaveProperty('thinking');
  });

  it('takes the output limit from the caller, then the request, then 4096', () => {
    expect(encode({ maxOutputTokens: 300 }, 200).max_tokens).toBe(200);
    expect(encode({ maxOutputTokens: 300 }).max_tokens).toBe(300);
    expect(encode({}).max_tokens).toBe(4096);
  });

  it('writes only fields Anthropic knows, and asks for JSON output in the system prompt', () => {
    const body = encode({
      system: [{ type: 'text', text: 'Be kind.' }],
      responseFormat: { type: 'json_schema', name: 'weather', schema: { type: 'object' } },
      presencePenalty: 1,
      frequencyPenalty: 1,
      seed: 7,
      stop: ['  ', 'END'],
      user: 'u-1',
    });
    expect(Object.keys(body).sort()).toEqual(
      ['max_tokens', 'messages', 'metadata', 'model', 'stop_sequences', 'stream', 'system'].sort(),
    );
    expect(body).toMatchObject({
      model: 'claude-sonnet-4-5',
      stop_sequences: ['END'],
      metadata: { user_id: 'u-1' },
    });
    expect(body.system).toEqual([
      { type: 'text', text: 'Be kind.' },
      {
        type: 'text',
        text: 'Answer with a single JSON object and nothing else: no prose and no code fences. The object must match this JSON Schema (weather):\n{"type":"object"}',
      },
    ]);
  });

  it('converts images and documents to the sources Anthropic takes, and refuses audio', () => {
    const body = encode({
      messages: [
        {
          role: 'user',
          parts: [
            { type: 'image', url: 'data:image/jpeg;base64,/9j/4AAQ' },
            { type: 'image', url: 'https://example.com/a.png' },
            { type: 'document', data: 'JVBERi0=', mediaType: 'application/pdf', title: 'Spec' },
            {
              type: 'document',
              data: Buffer.from('plain words').toString('base64'),
              mediaType: 'text/plain',
            },
          ],
        },
      ],
    });
    expect((body.messages as { content: unknown }[])[0]?.content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/4AAQ' } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
      {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' },
        title: 'Spec',
      },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'plain words' } },
    ]);
    expect(() =>
      encode({ messages: [{ role: 'user', parts: [{ type: 'audio', data: 'AAAA', format: 'wav' }] }] }),
    ).toThrow(RelayError);
  });
});
