import { describe, expect, it } from 'vitest';
import { watchingParses } from '../../test-support/json-parses.js';
import { SseDecoder } from '../sse.js';
import type { SseEvent } from '../sse.js';
import type { IrStreamEvent } from '../ir/stream.js';
import { decoderStreamParser, streamEventOf } from '../providers/codec-stream.js';
import { createOpenAiStreamParser, toOpenAiEvent } from '../providers/openai/stream.js';
import type { ChatStreamDecoder } from './types.js';
import { anthropicCodec } from './anthropic/index.js';
import { openAiChatCodec } from './openai/index.js';
import { plainChunkFields } from './openai/stream.js';
import { isRecord } from './json.js';
import { TemplateBook, TextEventTemplate } from './text-event-template.js';

const chunk = (content: string, extra = ''): string =>
  `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini",` +
  `"choices":[{"index":0,"delta":{"content":${content}}${extra},"logprobs":null,"finish_reason":null}]}`;

const event = (data: string, name?: string): string =>
  `${name === undefined ? '' : `event: ${name}\n`}data: ${data}\n\n`;

/** The one event of `sse`, framed (what a decoder learns from). */
const framed = (sse: string): SseEvent => new SseDecoder().push(Buffer.from(sse))[0] as SseEvent;

const learnt = (first: string): TextEventTemplate => {
  const template = new TextEventTemplate('content', plainChunkFields);
  template.learn(framed(event(first)), JSON.parse(first));
  return template;
};

/** The text the template reads from the first event of `sse`, straight from its bytes. */
const plainText = (template: TextEventTemplate, sse: string): string | undefined => {
  const decoder = new SseDecoder();
  decoder.append(Buffer.from(sse));
  return decoder.nextPlain(template)?.text;
};

describe('text event templates', () => {
  it('reads a chunk that differs from the learnt one only in its text, escapes included', () => {
    const template = learnt(chunk('"Hello"'));
    expect(template.settled).toBe(true);
    for (const text of ['world', '', ' naïve ☀️', 'two\nlines', 'say "hi"', 'back\\slash', 'é']) {
      expect(plainText(template, event(chunk(JSON.stringify(text))))).toBe(text);
    }
    // Escapes an upstream may write that JSON.stringify would not.
    expect(plainText(template, event(chunk('"caf\\u00e9 \\/ \\u003c"')))).toBe('café / <');
  });

  it('learns from an event whose text is not ASCII, and reads ASCII ones after it', () => {
    const first = chunk(JSON.stringify('你好'));
    const template = new TextEventTemplate('content', plainChunkFields);
    template.learn(framed(event(first)), JSON.parse(first));
    expect(template.settled).toBe(true);
    expect(plainText(template, event(chunk('"plain"')))).toBe('plain');
    expect(plainText(template, event(chunk('"世界"')))).toBe('世界');
  });

  it('leaves every other event to the full parse', () => {
    const template = learnt(chunk('"Hello"'));
    const other = [
      event(chunk('"Hello"', ',"role":"assistant"')),
      event(chunk('"Hello"').replace('"finish_reason":null', '"finish_reason":"stop"')),
      event(chunk('"Hello"').replace('chatcmpl-1', 'chatcmpl-2')),
      event(chunk('"Hello"').replace('"created":1', '"created":2')),
      event(`${chunk('"Hello"').slice(0, -1)},"usage":{"prompt_tokens":1}}`),
      // A bare quote between the template's bytes is another structure, not a text.
      event(chunk('"a","refusal":"b"')),
      // Control characters must be escaped in JSON; a lone backslash would escape the closing quote.
      event(chunk('"tab\there"')),
      event(chunk('"ends\\"')),
      // Invalid escapes and cut events are for the parser to report.
      event(chunk('"bad \\x escape"')),
      event(chunk('"Hello"').slice(0, -5)),
      event('[DONE]'),
      // The framing is part of the template: an event name, a comment line, an event not yet ended.
      event(chunk('"Hello"'), 'message'),
      `: keep-alive\n${event(chunk('"Hello"'))}`,
      event(chunk('"Hello"')).slice(0, -1),
    ];
    for (const sse of other) expect(plainText(template, sse), sse).toBeUndefined();
  });

  it("reads OpenAI's chunks whose obfuscation pad changes in every one", () => {
    const padded = (content: string, pad: string): string =>
      `${chunk(JSON.stringify(content)).slice(0, -1)},"usage":null,"obfuscation":${pad}}`;
    const template = learnt(padded('Hello', '"a1B2"'));
    expect(template.settled).toBe(true);
    expect(plainText(template, event(padded(' world', '"xYz"')))).toBe(' world');
    expect(plainText(template, event(padded('', '"longer-pad-0123"')))).toBe('');
    expect(plainText(template, event(padded('é', '"q\\u0041"')))).toBe('é');
    // The pad must still be one valid JSON string.
    for (const pad of ['"bad \\x"', '"a","role":"user"', '"cut']) {
      expect(plainText(template, event(padded('x', pad))), pad).toBeUndefined();
    }
  });

  it('learns only from an event whose text it can place, and gives up after a few', () => {
    const learn = (template: TextEventTemplate, data: string) =>
      template.learn(framed(event(data)), JSON.parse(data));
    // The text also appears as another field's value: which one is the content cannot be told.
    const twice = `{"meta":{"content":"hi"},"choices":[{"delta":{"content":"hi"}}]}`;
    // The content is escaped; its unescaped form is found only in another field, which the probe
    // parse shows is not the content.
    const elsewhere = `{"meta":{"content":"hi"},"choices":[{"delta":{"content":"h\\u0069"}}]}`;
    const template = new TextEventTemplate('content', plainChunkFields);
    learn(template, twice);
    learn(template, elsewhere);
    expect(template.settled).toBe(false);
    expect(plainText(template, event(elsewhere))).toBeUndefined();
    // An empty text or a chunk with more than text is not learnt from and costs no try.
    learn(template, chunk('""', ',"role":"assistant"'));
    expect(template.settled).toBe(false);
    learn(template, twice);
    expect(template.settled).toBe(true);
    expect(plainText(template, event(chunk('"x"')))).toBeUndefined();
  });

  /** What a stream's events mean, without where their bytes lie (reads cut elsewhere lie elsewhere). */
  const meaning = (events: IrStreamEvent[]) =>
    events.map(({ bytes, start, end, ...rest }) => ({ raw: bytes.toString('utf8', start, end), ...rest }));

  /** A stream read by one parser (which learns and reads plain events from their bytes) and event by event by fresh decoders. */
  function bothWays(create: () => ChatStreamDecoder, sse: string): [IrStreamEvent[], IrStreamEvent[]] {
    const learning = decoderStreamParser(create());
    const events = [...learning.push(Buffer.from(sse)), ...learning.end()];
    const alone = new SseDecoder().push(Buffer.from(sse)).map((e) => streamEventOf(e, create().decode(e)));
    return [events, alone];
  }

  /** The stream read in two reads cut at every byte: the same events as in one read. */
  function cutAnywhere(
    parse: () => { push(b: Buffer): IrStreamEvent[]; end(): IrStreamEvent[] },
    sse: string,
  ) {
    const bytes = Buffer.from(sse);
    const whole = parse();
    const expected = meaning([...whole.push(bytes), ...whole.end()]);
    for (let cut = 1; cut < bytes.length; cut++) {
      const parser = parse();
      const events = [
        ...parser.push(bytes.subarray(0, cut)),
        ...parser.push(bytes.subarray(cut)),
        ...parser.end(),
      ];
      expect(meaning(events), `cut at ${cut}`).toEqual(expected);
    }
  }

  const openAiStream = (texts: string[]) =>
    texts.map((t) => event(chunk(JSON.stringify(t)))).join('') +
    event(chunk('"cut')) +
    event(chunk('""').replace('"finish_reason":null', '"finish_reason":"stop"')) +
    event('[DONE]');

  it('gives an OpenAI stream the same reading as parsing every event, a broken one included', () => {
    const texts = ['Hello', ' wor', 'ld — ', 'naïve', ' "quoted"\n', '世界'];
    const [learning, alone] = bothWays(() => openAiChatCodec.createStreamDecoder(), openAiStream(texts));
    expect(learning).toEqual(alone);
    expect(learning.map((e) => e.text).slice(0, 6)).toEqual(texts);
    expect(learning[6]?.error).toMatch(/not valid JSON/);
    // The same-format parser reads it the same way, plain chunks read from their bytes.
    const sameFormat = createOpenAiStreamParser(true);
    const events = [...sameFormat.push(Buffer.from(openAiStream(texts))), ...sameFormat.end()];
    const parsed = new SseDecoder().push(Buffer.from(openAiStream(texts))).map((e) => toOpenAiEvent(e, true));
    expect(events).toEqual(parsed);
  });

  it('reads plain events from their bytes however the reads are cut', () => {
    const sse = openAiStream(['Hello', ' wörld', '☀️', ' end']);
    cutAnywhere(() => createOpenAiStreamParser(true), sse);
    cutAnywhere(() => decoderStreamParser(openAiChatCodec.createStreamDecoder()), sse);
  });

  it('reads the plain events of a long stream from their bytes, not by parsing them', () => {
    const texts = Array.from({ length: 40 }, (_, i) => ` word${i}`);
    const parser = createOpenAiStreamParser();
    const { result: events, parsed } = watchingParses(() => parser.push(Buffer.from(openAiStream(texts))));
    expect(events.map((e) => e.text).slice(0, 40)).toEqual(texts);
    // The first chunk (parsed, then learnt with its probe), the cut one and the finish chunk.
    expect(parsed.length).toBeLessThanOrEqual(5);
  });

  it('gives an Anthropic stream the same reading as parsing every event', () => {
    const delta = (text: string, index = 0) =>
      event(
        `{"type":"content_block_delta","index":${index},"delta":{"type":"text_delta","text":${JSON.stringify(text)}}}`,
        'content_block_delta',
      );
    const sse =
      delta('Hi') +
      delta(' there') +
      delta('☀️ "x"') +
      delta(' next block', 1) +
      event(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"oops"}}`, 'error') +
      event('{"type":"message_stop"}', 'message_stop');
    const [learning, alone] = bothWays(() => anthropicCodec.createStreamDecoder(), sse);
    expect(learning).toEqual(alone);
    expect(learning.map((e) => e.text).slice(0, 4)).toEqual(['Hi', ' there', '☀️ "x"', ' next block']);
    expect(learning[4]?.error).toBeDefined();
    cutAnywhere(() => decoderStreamParser(anthropicCodec.createStreamDecoder()), sse);
  });

  it('keeps the newest templates of a dialect in its book, each once', () => {
    const book = new TemplateBook();
    // Chunks of five seconds (`created`), each learnt by a stream of its own; the fourth again last.
    const firsts = [1, 2, 3, 4, 5].map((second) =>
      chunk('"x"').replace('"created":1', `"created":${second}`),
    );
    for (const first of [...firsts, firsts[3] as string]) {
      new TextEventTemplate('content', plainChunkFields, book).learn(framed(event(first)), JSON.parse(first));
    }
    expect(book.templates).toHaveLength(4);
    expect(book.templates[0]?.segments.join('')).toContain('"created":4');
    const reads = (first: string) =>
      plainText(new TextEventTemplate('content', plainChunkFields, book), event(first.replace('"x"', '"y"')));
    // The oldest, the first second's, was dropped.
    expect(firsts.map(reads)).toEqual([undefined, 'y', 'y', 'y', 'y']);
  });

  it("reads a later Anthropic stream's text deltas with the template an earlier one learnt", () => {
    const delta = (text: string, index = 0) =>
      event(
        `{"type":"content_block_delta","index":${index},"delta":{"type":"text_delta","text":${JSON.stringify(text)}}}`,
        'content_block_delta',
      );
    const read = (sse: string) => {
      const parser = decoderStreamParser(anthropicCodec.createStreamDecoder());
      return [...parser.push(Buffer.from(sse)), ...parser.end()];
    };
    read(delta('first') + delta('second'));
    const { result: events, parsed } = watchingParses(() =>
      read(delta('Hello') + delta(' world') + delta('next block', 1) + delta(' again', 1)),
    );
    expect(events.map((e) => e.text)).toEqual(['Hello', ' world', 'next block', ' again']);
    // Index 0's template came from the book, not from parsing; a stream keeps one template, so the
    // deltas of the next block are parsed as they were before.
    expect(parsed.filter((text) => text.includes('"index":0'))).toEqual([]);
    expect(parsed.filter((text) => text.includes('"index":1'))).toHaveLength(2);
  });

  /** An OpenAI chunk as the API writes it; `id` and `created` are written as given (raw JSON). */
  const openAiChunk = (id: string, created: string, delta: string, finish = 'null') =>
    `{"id":"${id}","object":"chat.completion.chunk","created":${created},"model":"gpt-4o-mini",` +
    `"system_fingerprint":"fp_1","choices":[{"index":0,"delta":${delta},"logprobs":null,` +
    `"finish_reason":${finish}}],"obfuscation":"pad"}`;
  const role = '{"role":"assistant","content":""}';
  const content = (text: string) => `{"content":${JSON.stringify(text)}}`;

  it("reads a later OpenAI stream's content chunks with an earlier stream's template, its own id and time in it", () => {
    const stream = (id: string, created: string, texts: string[], textId = id) =>
      event(openAiChunk(id, created, role)) +
      texts.map((t) => event(openAiChunk(textId, created, content(t)))).join('') +
      event(openAiChunk(textId, created, '{}', '"stop"')) +
      event('[DONE]');
    const read = (sse: string) => {
      const parser = createOpenAiStreamParser(true);
      return [...parser.push(Buffer.from(sse)), ...parser.end()];
    };
    const parsedAlone = (sse: string) =>
      new SseDecoder().push(Buffer.from(sse)).map((e) => toOpenAiEvent(e, true));
    /** The stream's content chunks that were parsed (not the probe a template is checked with). */
    const contentParses = (parsed: string[]) =>
      parsed.filter((text) => /"content":"[^"]/.test(text) && !text.includes('probe'));

    read(stream('chatcmpl-first', '1700000000', ['one', 'two']));
    const later = stream('chatcmpl-later', '1700000042', ['Hello', ' wörld', ' "quoted"', '!']);
    const { result: events, parsed } = watchingParses(() => read(later));
    expect(events).toEqual(parsedAlone(later));
    expect(events.map((e) => e.text).slice(1, 5)).toEqual(['Hello', ' wörld', ' "quoted"', '!']);
    // The role chunk gave the stream's id and time; no content chunk was parsed.
    expect(contentParses(parsed)).toEqual([]);

    // Content chunks whose id is not the one the stream began with are parsed (and learnt from).
    const mixed = stream('chatcmpl-role', '1700000042', ['Hello', ' again'], 'chatcmpl-other');
    const second = watchingParses(() => read(mixed));
    expect(second.result).toEqual(parsedAlone(mixed));
    expect(contentParses(second.parsed)).toHaveLength(1);
  });

  it("keeps an OpenAI template once whatever its stream's id and time, and only where both can be filled in", () => {
    const fields = (chunk: unknown) =>
      isRecord(chunk)
        ? [
            { key: 'id', value: chunk.id },
            { key: 'created', value: chunk.created },
          ]
        : undefined;
    const book = new TemplateBook(fields);
    const template = () => new TextEventTemplate('content', plainChunkFields, book);
    const learnFrom = (data: string) => {
      const t = template();
      t.learn(framed(event(data)), JSON.parse(data));
      return t;
    };
    learnFrom(openAiChunk('chatcmpl-a', '1700000000', content('x')));
    learnFrom(openAiChunk('chatcmpl-bb', '1700000001', content('y')));
    expect(book.templates).toHaveLength(1);
    // Values written in a way the template cannot hold again are no holes: not kept (the stream
    // still reads with its own template).
    expect(learnFrom(openAiChunk('chatcmpl-\\u0063', '1700000002', content('x'))).settled).toBe(true);
    learnFrom(openAiChunk('chatcmpl-c', '1.7e9', content('x')));
    learnFrom(openAiChunk('chatcmpl-c', '-1', content('x')));
    expect(book.templates).toHaveLength(1);

    const began = (id: string, created: string) => {
      const t = template();
      t.learn(framed(event(openAiChunk(id, created, role))), JSON.parse(openAiChunk(id, created, role)));
      return t;
    };
    const text = (t: TextEventTemplate, id: string, created: string) =>
      plainText(t, event(openAiChunk(id, created, content('hi'))));
    expect(text(began('chatcmpl-z', '5'), 'chatcmpl-z', '5')).toBe('hi');
    // Another stream's id or time, or a stream not begun, is not read with the book's template.
    expect(text(began('chatcmpl-z', '5'), 'chatcmpl-y', '5')).toBeUndefined();
    expect(text(began('chatcmpl-z', '5'), 'chatcmpl-z', '55')).toBeUndefined();
    expect(text(template(), 'chatcmpl-z', '5')).toBeUndefined();
    // A stream whose id cannot be a hole's value takes none of the book's templates.
    expect(text(began('chatcmpl-\\u007a', '5'), 'chatcmpl-\\u007a', '5')).toBeUndefined();
  });
});
