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
