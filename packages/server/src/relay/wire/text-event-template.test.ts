import { describe, expect, it } from 'vitest';
import { SseDecoder } from '../sse.js';
import type { ChatStreamDecoder, DecodedStreamEvent } from './types.js';
import { anthropicCodec } from './anthropic/index.js';
import { openAiChatCodec } from './openai/index.js';
import { plainChunkFields } from './openai/stream.js';
import { TextEventTemplate } from './text-event-template.js';

const chunk = (content: string, extra = ''): string =>
  `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini",` +
  `"choices":[{"index":0,"delta":{"content":${content}}${extra},"logprobs":null,"finish_reason":null}]}`;

const learnt = (first: string): TextEventTemplate => {
  const template = new TextEventTemplate('content', plainChunkFields);
  template.learn(first, JSON.parse(first), undefined);
  return template;
};

describe('text event templates', () => {
  it('reads a chunk that differs from the learnt one only in its text, escapes included', () => {
    const template = learnt(chunk('"Hello"'));
    expect(template.settled).toBe(true);
    for (const text of ['world', '', ' naïve ☀️', 'two\nlines', 'say "hi"', 'back\\slash', 'é']) {
      expect(template.read(chunk(JSON.stringify(text)), undefined)).toBe(text);
    }
    // Escapes an upstream may write that JSON.stringify would not.
    expect(template.read(chunk('"caf\\u00e9 \\/ \\u003c"'), undefined)).toBe('café / <');
  });

  it('leaves every other event to the full parse', () => {
    const template = learnt(chunk('"Hello"'));
    const other = [
      chunk('"Hello"', ',"role":"assistant"'),
      chunk('"Hello"').replace('"finish_reason":null', '"finish_reason":"stop"'),
      chunk('"Hello"').replace('chatcmpl-1', 'chatcmpl-2'),
      `${chunk('"Hello"').slice(0, -1)},"usage":{"prompt_tokens":1}}`,
      // A bare quote between the template's bytes is another structure, not a text.
      chunk('"a","refusal":"b"'),
      // Control characters must be escaped in JSON; a lone backslash would escape the closing quote.
      chunk('"tab\there"'),
      chunk('"ends\\"'),
      // Invalid escapes and cut events are for the parser to report.
      chunk('"bad \\x escape"'),
      chunk('"Hello"').slice(0, -5),
      '[DONE]',
    ];
    for (const data of other) expect(template.read(data, undefined), data).toBeUndefined();
    // The event name is part of the template.
    expect(template.read(chunk('"Hello"'), 'message')).toBeUndefined();
  });

  it("reads OpenAI's chunks whose obfuscation pad changes in every one", () => {
    const padded = (content: string, pad: string): string =>
      `${chunk(JSON.stringify(content)).slice(0, -1)},"usage":null,"obfuscation":${pad}}`;
    const template = learnt(padded('Hello', '"a1B2"'));
    expect(template.settled).toBe(true);
    expect(template.read(padded(' world', '"xYz"'), undefined)).toBe(' world');
    expect(template.read(padded('', '"longer-pad-0123"'), undefined)).toBe('');
    expect(template.read(padded('é', '"q\\u0041"'), undefined)).toBe('é');
    // The pad must still be one valid JSON string.
    for (const pad of ['"bad \\x"', '"a","role":"user"', '"cut']) {
      expect(template.read(padded('x', pad), undefined), pad).toBeUndefined();
    }
  });

  it('learns only from an event whose text it can place, and gives up after a few', () => {
    // The text also appears as another field's value: which one is the content cannot be told.
    const twice = `{"meta":{"content":"hi"},"choices":[{"delta":{"content":"hi"}}]}`;
    // The content is escaped; its unescaped form is found only in another field, which the probe
    // parse shows is not the content.
    const elsewhere = `{"meta":{"content":"hi"},"choices":[{"delta":{"content":"h\\u0069"}}]}`;
    const template = new TextEventTemplate('content', plainChunkFields);
    template.learn(twice, JSON.parse(twice), undefined);
    template.learn(elsewhere, JSON.parse(elsewhere), undefined);
    expect(template.settled).toBe(false);
    expect(template.read(elsewhere, undefined)).toBeUndefined();
    // An empty text or a chunk with more than text is not learnt from and costs no try.
    const role = chunk('""', ',"role":"assistant"');
    template.learn(role, JSON.parse(role), undefined);
    expect(template.settled).toBe(false);
    template.learn(twice, JSON.parse(twice), undefined);
    expect(template.settled).toBe(true);
    expect(template.read(chunk('"x"'), undefined)).toBeUndefined();
  });

  /** Every event decoded by one decoder (which learns) and, each alone, by a fresh one (which cannot). */
  function bothWays(
    create: () => ChatStreamDecoder,
    sse: string,
  ): [DecodedStreamEvent[], DecodedStreamEvent[]] {
    const events = new SseDecoder().push(Buffer.from(sse));
    const decoder = create();
    return [events.map((e) => decoder.decode(e)), events.map((e) => create().decode(e))];
  }

  it('gives an OpenAI stream the same reading as parsing every event, a broken one included', () => {
    const texts = ['Hello', ' wor', 'ld — ', 'naïve', ' "quoted"\n'];
    const sse =
      texts.map((t) => `data: ${chunk(JSON.stringify(t))}\n\n`).join('') +
      `data: ${chunk('"cut')}\n\n` +
      `data: ${chunk('""').replace('"finish_reason":null', '"finish_reason":"stop"')}\n\n` +
      'data: [DONE]\n\n';
    const [learning, parsed] = bothWays(() => openAiChatCodec.createStreamDecoder(), sse);
    expect(learning).toEqual(parsed);
    expect(learning.map((e) => e.text).slice(0, 5)).toEqual(texts);
    expect(learning[5]?.error).toMatch(/not valid JSON/);
  });

  it('gives an Anthropic stream the same reading as parsing every event', () => {
    const delta = (text: string, index = 0) =>
      `event: content_block_delta\ndata: {"type":"content_block_delta","index":${index},"delta":{"type":"text_delta","text":${JSON.stringify(text)}}}\n\n`;
    const sse =
      delta('Hi') +
      delta(' there') +
      delta('☀️ "x"') +
      delta(' next block', 1) +
      `event: error\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"oops"}}\n\n` +
      'event: message_stop\ndata: {"type":"message_stop"}\n\n';
    const [learning, parsed] = bothWays(() => anthropicCodec.createStreamDecoder(), sse);
    expect(learning).toEqual(parsed);
    expect(learning.map((e) => e.text).slice(0, 4)).toEqual(['Hi', ' there', '☀️ "x"', ' next block']);
    expect(learning[4]?.error).toBeDefined();
  });
});
