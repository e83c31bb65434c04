import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import type { IrRequest } from '../../ir/request.js';
import { runProviderContract } from '../contract.case.js';
import { openaiAdapter } from './index.js';
import { adapterFor } from '../registry.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const channel = {
  type: 1,
  key: 'sk-upstream',
  baseUrl: 'https://relay.example.com/',
  organization: 'org-1',
  other: '',
};

runProviderContract('openai', {
  adapter: openaiAdapter,
  channel,
  chatUrl: 'https://relay.example.com/v1/chat/completions',
  response: {
    body: fixture('chat.json'),
    usage: { promptTokens: 1117, completionTokens: 46, cachedTokens: 1024 },
    text: 'The image shows a wooden boardwalk path running through a lush green field.',
  },
  stream: {
    body: fixture('chat-stream.sse'),
    usage: { promptTokens: 9, completionTokens: 3, cachedTokens: 0 },
    text: 'Hello wörld!',
  },
  error: {
    status: 401,
    body: fixture('error-401.json'),
    message: /^Incorrect API key provided/,
    code: 'invalid_api_key',
  },
});

describe('openai adapter specifics', () => {
  const ir = (body: Record<string, unknown>): IrRequest => ({
    mode: 'chat',
    model: 'gpt-4o',
    stream: body.stream === true,
    clientWantsUsage:
      (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true,
    body,
    raw: Buffer.from(JSON.stringify(body)),
  });

  it("forwards the client's bytes untouched when nothing needs to change", () => {
    const plain = ir({ model: 'gpt-4o', messages: [] });
    expect(openaiAdapter.buildRequest(plain, channel, 'gpt-4o').body).toBe(plain.raw);
    const asked = ir({
      model: 'gpt-4o',
      stream: true,
      stream_options: { include_usage: true },
      messages: [],
    });
    expect(openaiAdapter.buildRequest(asked, channel, 'gpt-4o').body).toBe(asked.raw);
  });

  it('adds include_usage to a stream, keeping the other stream options', () => {
    const req = openaiAdapter.buildRequest(
      ir({ model: 'gpt-4o', stream: true, stream_options: { x: 1 }, messages: [] }),
      channel,
      'gpt-4o',
    );
    expect(JSON.parse(req.body.toString()).stream_options).toEqual({ x: 1, include_usage: true });
  });

  it('sends the key as a bearer token, the organization, and the default base URL when none is set', () => {
    const req = openaiAdapter.buildRequest(
      ir({ model: 'gpt-4o', messages: [] }),
      { ...channel, baseUrl: '' },
      'gpt-4o',
    );
    expect(req.url).toBe('https://api.openai.com/v1/chat/completions');
    expect(req.headers).toMatchObject({
      authorization: 'Bearer sk-upstream',
      'openai-organization': 'org-1',
    });
  });

  it('writes an output limit of its own in the field each vendor accepts', () => {
    const limited = Object.assign(ir({ model: 'gpt-4o', messages: [] }), { outputLimit: 64 });
    const sent = (type: number) =>
      JSON.parse(String(adapterFor(type)?.buildRequest(limited, channel, 'gpt-4o').body)) as Record<
        string,
        unknown
      >;
    // OpenAI's reasoning models refuse max_tokens; Mistral refuses unknown fields.
    expect(sent(1)).toMatchObject({ max_completion_tokens: 64 });
    expect(sent(1).max_tokens).toBeUndefined();
    for (const type of [4, 42]) {
      expect(sent(type)).toMatchObject({ max_tokens: 64 });
      expect(sent(type).max_completion_tokens).toBeUndefined();
    }
    const legacy = Object.assign(ir({ model: 'gpt-3.5-turbo-instruct', prompt: 'x' }), {
      mode: 'completions' as const,
      outputLimit: 8,
    });
    expect(JSON.parse(String(openaiAdapter.buildRequest(legacy, channel, 'x').body))).toMatchObject({
      max_tokens: 8,
    });
  });

  it("adds its own limit in front of the client's bytes, and re-encodes only when it cannot", () => {
    const text = '  {"model":"gpt-4o",  "messages":[{"role":"user","content":"héllo"}],"max_tokens":null}';
    const limited: IrRequest = Object.assign(ir(JSON.parse(text) as Record<string, unknown>), {
      raw: Buffer.from(text),
      outputLimit: 32,
    });
    const body = String(openaiAdapter.buildRequest(limited, channel, 'gpt-4o').body);
    expect(body.startsWith('{"max_completion_tokens":32,"model":"gpt-4o",  "messages"')).toBe(true);
    expect(JSON.parse(body)).toEqual({ ...limited.body, max_completion_tokens: 32 });
    // The field present as null, an empty object: re-encoded, the limit still set once.
    for (const given of [{ model: 'gpt-4o', max_completion_tokens: null }, {}]) {
      const other = Object.assign(ir(given), { outputLimit: 5 });
      const sent = JSON.parse(String(openaiAdapter.buildRequest(other, channel, 'gpt-4o').body));
      expect(sent.max_completion_tokens).toBe(5);
    }
  });

  it("asks a stream for its usage in front of the client's bytes, with the limit when there is one", () => {
    const text = ' {"model":"gpt-4o","stream":true, "messages":[{"role":"user","content":"wörld"}]}';
    const streamed = (outputLimit?: number): IrRequest =>
      Object.assign(ir(JSON.parse(text) as Record<string, unknown>), {
        raw: Buffer.from(text),
        ...(outputLimit === undefined ? {} : { outputLimit }),
      });
    const usage = { include_usage: true };
    const plain = String(openaiAdapter.buildRequest(streamed(), channel, 'gpt-4o').body);
    expect(plain).toBe(`{"stream_options":{"include_usage":true},${text.slice(2)}`);
    expect(JSON.parse(plain)).toEqual({ ...streamed().body, stream_options: usage });
    const limited = String(openaiAdapter.buildRequest(streamed(48), channel, 'gpt-4o').body);
    expect(
      limited.startsWith('{"max_completion_tokens":48,"stream_options":{"include_usage":true},"model"'),
    ).toBe(true);
    expect(JSON.parse(limited)).toEqual({
      ...streamed().body,
      max_completion_tokens: 48,
      stream_options: usage,
    });
    // stream_options present, even as null, or a limit of the client's to lower: re-encoded.
    for (const given of [{ stream_options: null }, { max_tokens: 500 }]) {
      const other = Object.assign(ir({ model: 'gpt-4o', stream: true, messages: [], ...given }), {
        outputLimit: 40,
      });
      const sent = JSON.parse(String(openaiAdapter.buildRequest(other, channel, 'gpt-4o').body));
      expect(sent.stream_options).toEqual(usage);
      expect(sent.max_tokens ?? sent.max_completion_tokens).toBe(40);
    }
  });

  it('leaves stream_options alone for vendors that refuse it', () => {
    const mistral = adapterFor(42);
    const req = mistral?.buildRequest(ir({ model: 'm', stream: true, messages: [] }), channel, 'm');
    expect(JSON.parse(String(req?.body)).stream_options).toBeUndefined();
  });

  it('flags the usage-only event, an error event and an event that is not JSON', () => {
    const parser = openaiAdapter.createStreamParser(ir({ model: 'gpt-4o', stream: true, messages: [] }));
    const events = parser.push(
      Buffer.from(
        'data: {"choices":[],"usage":{"prompt_tokens":1,"completion_tokens":2}}\n\n' +
          'data: {"error":{"message":"overloaded"}}\n\n' +
          'data: {"choices":[{"delta":{"content":"x"}\n\n',
      ),
    );
    expect(events.map((e) => [e.usageOnly, e.error])).toEqual([
      [true, undefined],
      [false, 'overloaded'],
      [false, 'the upstream sent an event that is not valid JSON'],
    ]);
  });

  it('counts tool-call arguments and reasoning as generated text', () => {
    const answer = {
      choices: [
        {
          message: {
            content: null,
            reasoning_content: 'think',
            tool_calls: [{ function: { name: 'f', arguments: '{"a":1}' } }],
          },
        },
      ],
    };
    expect(openaiAdapter.parseResponse(ir({}), Buffer.from(JSON.stringify(answer))).text).toBe(
      'thinkf{"a":1}',
    );
  });

  it('gives every stream event and every parsed answer one hidden class, whatever they carry', () => {
    // A shape per kind of event would make V8 build new hidden classes per call in the old generation.
    setFlagsFromString('--allow-natives-syntax');
    const sameShape = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (
      a: unknown,
      b: unknown,
    ) => boolean;
    const events = openaiAdapter
      .createStreamParser(ir({ stream: true }))
      .push(
        Buffer.from(
          'data: {"choices":[{"delta":{"content":"x"}}]}\n\n' +
            'data: {"choices":[],"usage":{"prompt_tokens":1,"completion_tokens":2}}\n\n' +
            'data: {"error":{"message":"overloaded"}}\n\n' +
            'data: not json\n\n' +
            'data: [DONE]\n\n',
        ),
      );
    expect(events).toHaveLength(5);
    for (const event of events.slice(1)) expect(sameShape(events[0], event)).toBe(true);
    const answer = (usage?: object) =>
      openaiAdapter.parseResponse(
        ir({}),
        Buffer.from(
          JSON.stringify({ choices: [{ message: { content: 'hi' } }], ...(usage ? { usage } : {}) }),
        ),
      );
    expect(sameShape(answer(), answer({ prompt_tokens: 1, completion_tokens: 1 }))).toBe(true);
  });
});
