import { Client, request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { withMock } from './directive.js';
import { startMockUpstream, type MockUpstream } from './server.js';
import { expectedChatReply, expectedChatUsage, expectedCompletionUsage } from './usage.js';

let mock: MockUpstream;
beforeAll(async () => {
  mock = await startMockUpstream();
});
afterAll(() => mock.close());
beforeEach(() => mock.reset());

async function post(path: string, body: unknown) {
  const res = await request(`${mock.url}${path}`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

/** Splits an event stream strictly: every block must be one `data: ` line. */
function events(text: string): { data: unknown[]; done: boolean } {
  expect(text.endsWith('\n\n')).toBe(true);
  const blocks = text.slice(0, -2).split('\n\n');
  for (const block of blocks) expect(block).toMatch(/^data: [^\n]+$/);
  const payloads = blocks.map((block) => block.slice('data: '.length));
  const done = payloads[payloads.length - 1] === '[DONE]';
  return { data: (done ? payloads.slice(0, -1) : payloads).map((p) => JSON.parse(p) as unknown), done };
}

interface Chunk {
  id: string;
  object: string;
  model: string;
  choices: {
    index: number;
    delta: { role?: string; content?: string | null; tool_calls?: { function: { arguments: string } }[] };
    finish_reason: string | null;
  }[];
  usage?: unknown;
}

const chatBody = {
  model: 'gpt-4o-mini',
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'What is the capital of France?' },
  ],
};

describe('POST /v1/chat/completions', () => {
  it('answers JSON with the echo reply and usage from the documented rule', async () => {
    const { status, headers, text } = await post('/v1/chat/completions', chatBody);
    expect(status).toBe(200);
    expect(headers['content-type']).toBe('application/json');
    const json = JSON.parse(text) as Record<string, unknown>;
    expect(json).toMatchObject({
      object: 'chat.completion',
      model: 'gpt-4o-mini',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'You said: What is the capital of France?' },
          finish_reason: 'stop',
        },
      ],
    });
    // system: 1 + 2 words, user: 1 + 6 words; reply: 8 words.
    expect(json.usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 8, total_tokens: 18 });
    expect(json.usage).toEqual(expectedChatUsage(chatBody));
  });

  it('streams one chunk per word, a finish chunk, a usage chunk with empty choices, then [DONE]', async () => {
    const body = { ...chatBody, stream: true, stream_options: { include_usage: true } };
    const { status, headers, text } = await post('/v1/chat/completions', body);
    expect(status).toBe(200);
    expect(headers['content-type']).toBe('text/event-stream; charset=utf-8');
    const { data, done } = events(text);
    expect(done).toBe(true);
    const chunks = data as Chunk[];
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: 'assistant', content: '', refusal: null });
    const content = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    expect(content).toBe(expectedChatReply(body));
    expect(chunks.slice(1, -2)).toHaveLength(8);
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('stop');
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage).toEqual(expectedChatUsage(body));
    // Every other chunk carries "usage": null, as the real API does with include_usage.
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
  });

  it('pads every chunk with an obfuscation field of varying length unless include_obfuscation is false', async () => {
    const streamed = { ...chatBody, stream: true, stream_options: { include_usage: true } };
    const padded = events((await post('/v1/chat/completions', streamed)).text).data as Record<
      string,
      unknown
    >[];
    const pads = padded.slice(0, -1).map((c) => c.obfuscation);
    expect(pads.every((pad) => typeof pad === 'string' && /^[A-Za-z0-9]{1,16}$/.test(pad))).toBe(true);
    expect(new Set(pads.map((pad) => (pad as string).length)).size).toBeGreaterThan(1);
    // The field comes last, after usage, as the real API writes it.
    expect(Object.keys(padded[1] ?? {}).at(-1)).toBe('obfuscation');
    expect(padded.at(-1)).not.toHaveProperty('obfuscation');

    const plain = { ...chatBody, stream: true, stream_options: { include_obfuscation: false } };
    const chunks = events((await post('/v1/chat/completions', plain)).text).data as Record<string, unknown>[];
    expect(chunks.some((c) => 'obfuscation' in c)).toBe(false);
  });

  it('sends no usage at all in a stream that did not ask for it', async () => {
    const { text } = await post('/v1/chat/completions', { ...chatBody, stream: true });
    const chunks = events(text).data as Chunk[];
    expect(chunks.some((c) => 'usage' in c)).toBe(false);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
  });

  it('cuts the reply at max_tokens with finish_reason "length"', async () => {
    const body = { ...chatBody, max_tokens: 3 };
    const json = JSON.parse((await post('/v1/chat/completions', body)).text) as {
      choices: { message: { content: string }; finish_reason: string }[];
      usage: { completion_tokens: number };
    };
    expect(json.choices[0]).toMatchObject({
      message: { content: 'You said: What' },
      finish_reason: 'length',
    });
    expect(json.usage.completion_tokens).toBe(3);

    // An upstream that disregards the limit sends the whole reply.
    const ignoring = {
      ...chatBody,
      max_tokens: 3,
      messages: [{ role: 'user', content: withMock('one two three four', { ignore_limit: true }) }],
    };
    const whole = JSON.parse((await post('/v1/chat/completions', ignoring)).text) as typeof json;
    expect(whole.choices[0]).toMatchObject({
      message: { content: 'You said: one two three four' },
      finish_reason: 'stop',
    });
    expect(whole.usage.completion_tokens).toBe(6);
  });

  it('ignores the directive marker when counting and echoing, and honours reply, cached and reasoning tokens', async () => {
    const body = {
      model: 'gpt-4o',
      messages: [
        {
          role: 'user',
          content: withMock('hi', { reply: 'Bonjour !', cached_tokens: 1, reasoning_tokens: 4 }),
        },
      ],
    };
    const json = JSON.parse((await post('/v1/chat/completions', body)).text) as Record<string, unknown>;
    expect(json.choices).toMatchObject([{ message: { content: 'Bonjour !' } }]);
    expect(json.usage).toMatchObject({
      prompt_tokens: 2,
      completion_tokens: 6,
      prompt_tokens_details: { cached_tokens: 1 },
      completion_tokens_details: { reasoning_tokens: 4 },
    });
    expect(json.usage).toEqual(expectedChatUsage(body));
  });

  it('streams a long reply of reply_tokens words', async () => {
    const body = {
      ...chatBody,
      stream: true,
      messages: [{ role: 'user', content: withMock('go', { reply_tokens: 500 }) }],
    };
    const chunks = events((await post('/v1/chat/completions', body)).text).data as Chunk[];
    expect(chunks).toHaveLength(1 + 500 + 1);
    expect(mock.lastRequest()?.events).toBe(502);
  });

  it('answers with a tool call when asked to, streamed as argument pieces', async () => {
    const call = { name: 'get_weather', arguments: '{"city":"Paris","unit":"c"}' };
    const body = {
      ...chatBody,
      messages: [{ role: 'user', content: withMock('weather?', { tool_call: call }) }],
    };
    const json = JSON.parse((await post('/v1/chat/completions', body)).text) as Record<string, unknown>;
    expect(json.choices).toMatchObject([
      {
        message: { content: null, tool_calls: [{ type: 'function', function: call }] },
        finish_reason: 'tool_calls',
      },
    ]);
    const stream = events((await post('/v1/chat/completions', { ...body, stream: true })).text)
      .data as Chunk[];
    const args = stream.map((c) => c.choices[0]?.delta.tool_calls?.[0]?.function.arguments ?? '').join('');
    expect(args).toBe(call.arguments);
    expect(stream.at(-1)?.choices[0]?.finish_reason).toBe('tool_calls');
    expect(expectedChatUsage(body).completion_tokens).toBe(1 + Math.ceil(call.arguments.length / 8));
  });

  it('refuses a request without messages', async () => {
    const { status, text } = await post('/v1/chat/completions', { model: 'gpt-4o' });
    expect(status).toBe(400);
    expect(JSON.parse(text)).toMatchObject({ error: { type: 'invalid_request_error' } });
  });

  it('counts TCP connections, so tests can check that a client keeps them alive', async () => {
    mock.reset();
    const ask = async (client: Client) => {
      const res = await client.request({
        path: '/v1/models',
        method: 'GET',
        headers: { authorization: 'Bearer k' },
      });
      await res.body.dump();
    };
    const reused = new Client(mock.url);
    for (let i = 0; i < 3; i++) await ask(reused);
    await reused.close();
    expect(mock.connectionCount).toBe(1);
    for (let i = 0; i < 2; i++) {
      const fresh = new Client(mock.url);
      await ask(fresh);
      await fresh.close();
    }
    expect(mock.connectionCount).toBe(3);
  });

  it('records what it received', async () => {
    await post('/v1/chat/completions', chatBody);
    const seen = mock.lastRequest('/v1/chat/completions');
    expect(seen).toMatchObject({ method: 'POST', body: chatBody, status: 200, outcome: 'completed' });
    expect(seen?.headers.authorization).toBe('Bearer sk-test');
  });
});

describe('POST /v1/completions (legacy)', () => {
  const body = { model: 'gpt-3.5-turbo-instruct', prompt: 'Say this is a test' };

  it('answers JSON with text choices and usage', async () => {
    const json = JSON.parse((await post('/v1/completions', body)).text) as Record<string, unknown>;
    expect(json).toMatchObject({
      object: 'text_completion',
      choices: [{ text: 'You said: Say this is a test', index: 0, finish_reason: 'stop' }],
      usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 },
    });
    expect(json.usage).toEqual(expectedCompletionUsage(body));
  });

  it('streams text chunks, then usage when asked for, then [DONE]', async () => {
    const streamed = { ...body, stream: true, stream_options: { include_usage: true } };
    const { data, done } = events((await post('/v1/completions', streamed)).text);
    const chunks = data as {
      object: string;
      choices: { text: string; finish_reason: string | null }[];
      usage: unknown;
    }[];
    expect(done).toBe(true);
    expect(chunks.map((c) => c.choices[0]?.text ?? '').join('')).toBe('You said: Say this is a test');
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({
      object: 'text_completion',
      choices: [],
      usage: expectedCompletionUsage(body),
    });
  });

  it('counts pre-tokenised prompts by their length', () => {
    expect(expectedCompletionUsage({ model: 'm', prompt: [1, 2, 3] }).prompt_tokens).toBe(3);
    expect(expectedCompletionUsage({ model: 'm', prompt: [[1, 2], [3]] }).prompt_tokens).toBe(3);
  });
});
