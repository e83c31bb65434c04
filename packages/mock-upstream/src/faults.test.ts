import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { withMock, type MockDirective } from './directive.js';
import { startMockUpstream, type MockUpstream } from './server.js';

let mock: MockUpstream;
beforeAll(async () => {
  mock = await startMockUpstream();
});
afterAll(() => mock.close());
beforeEach(() => mock.reset());

const chat = (directive?: MockDirective, extra: Record<string, unknown> = {}) => ({
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: directive ? withMock('hello', directive) : 'hello' }],
  ...extra,
});
const streamed = { stream: true, stream_options: { include_usage: true } };

function send(body: unknown, key = 'sk-test', signal?: AbortSignal) {
  return request(`${mock.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  });
}

async function post(body: unknown, key?: string) {
  const res = await send(body, key);
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

/** Reads a body until it ends or fails; returns what arrived and whether it failed. */
async function readAll(body: AsyncIterable<Buffer>): Promise<{ text: string; failed: boolean }> {
  let text = '';
  try {
    for await (const chunk of body) text += chunk.toString('utf8');
    return { text, failed: false };
  } catch {
    return { text, failed: true };
  }
}

const dataLines = (text: string): string[] =>
  text.split('\n\n').filter((block) => block.startsWith('data: '));

describe('delays', () => {
  it('answers normally after a short delay', async () => {
    const res = await post(chat({ delay_ms: 20 }));
    expect(res.status).toBe(200);
  });

  it('sends nothing before the first-byte delay is over, and stops when the client leaves', async () => {
    const controller = new AbortController();
    const pending = send(chat({ delay_ms: 60_000 }), 'sk-test', controller.signal).catch(
      (error: unknown) => error,
    );
    await vi.waitFor(() => expect(mock.requests).toHaveLength(1));
    expect(mock.requests[0]).toMatchObject({ status: undefined, outcome: 'pending' });
    controller.abort();
    expect(await pending).toBeInstanceOf(Error);
    await vi.waitFor(() => expect(mock.requests[0]?.outcome).toBe('client-closed'));
    expect(mock.requests[0]?.status).toBeUndefined();
  });

  it('paces stream events and stops writing when the client disconnects mid-stream', async () => {
    const res = await send(chat({ chunk_delay_ms: 60_000, reply_tokens: 50 }, streamed));
    const iterator = res.body[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(dataLines(String(first.value))).toHaveLength(1);
    expect(mock.lastRequest()?.events).toBe(1);
    res.body.destroy();
    await vi.waitFor(() => expect(mock.lastRequest()?.outcome).toBe('client-closed'));
    expect(mock.lastRequest()?.events).toBe(1);
  });

  it('completes a paced stream with every event and [DONE]', async () => {
    const res = await post(chat({ chunk_delay_ms: 2, reply_tokens: 5 }, streamed));
    const lines = dataLines(res.text);
    expect(lines).toHaveLength(1 + 5 + 1 + 1 + 1);
    expect(lines.at(-1)).toBe('data: [DONE]');
  });
});

describe('error answers', () => {
  it('answers a 5xx with an OpenAI server_error body', async () => {
    const res = await post(chat({ status: 500 }));
    expect(res.status).toBe(500);
    expect(JSON.parse(res.text)).toEqual({
      error: { message: expect.any(String), type: 'server_error', param: null, code: null },
    });
  });

  it('answers any status with the error fields given', async () => {
    const res = await post(
      chat({ status: 403, error: { message: 'Region not allowed.', code: 'unsupported_country' } }),
    );
    expect(res.status).toBe(403);
    expect(JSON.parse(res.text)).toMatchObject({
      error: { message: 'Region not allowed.', type: 'invalid_request_error', code: 'unsupported_country' },
    });
  });

  it('answers 429 with a Retry-After header', async () => {
    const res = await post(chat({ status: 429, retry_after: 7 }));
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('7');
    expect(JSON.parse(res.text)).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
  });

  it('answers a raw non-JSON body when given one', async () => {
    const res = await post(chat({ status: 502, error_body: '<html>Bad Gateway</html>' }));
    expect(res.status).toBe(502);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toBe('<html>Bad Gateway</html>');
  });

  it('refuses an invalid directive with 400 naming the field', async () => {
    const res = await post(chat({ delay_ms: -1 }));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toMatchObject({ error: { message: expect.stringContaining('delay_ms') } });
    const broken = await post({ model: 'm', messages: [{ role: 'user', content: 'x [[mock:{oops}]]' }] });
    expect(broken.status).toBe(400);
  });
});

describe('broken connections', () => {
  it('resets the connection without answering', async () => {
    await expect(post(chat({ reset: true }))).rejects.toThrow();
    expect(mock.lastRequest()).toMatchObject({ outcome: 'reset', status: undefined });
  });

  it('cuts a stream after N events, without [DONE]', async () => {
    const res = await send(chat({ cut_after: 3 }, streamed));
    expect(res.statusCode).toBe(200);
    const { text, failed } = await readAll(res.body);
    expect(failed).toBe(true);
    expect(dataLines(text)).toHaveLength(3);
    expect(text).not.toContain('[DONE]');
    expect(mock.lastRequest()).toMatchObject({ outcome: 'cut', events: 3 });
  });

  it('cuts a paced stream after N events too', async () => {
    const res = await send(chat({ cut_after: 2, chunk_delay_ms: 1 }, streamed));
    const { text, failed } = await readAll(res.body);
    expect(failed).toBe(true);
    expect(dataLines(text)).toHaveLength(2);
  });

  it('cuts a JSON answer after N bytes', async () => {
    const res = await send(chat({ cut_after: 10 }));
    const { text, failed } = await readAll(res.body);
    expect(failed).toBe(true);
    expect(text).toHaveLength(10);
  });
});

describe('malformed and usage-less answers', () => {
  it('sends a truncated JSON body with status 200', async () => {
    const res = await post(chat({ malformed: true }));
    expect(res.status).toBe(200);
    expect(() => JSON.parse(res.text)).toThrow();
  });

  it('sends one malformed event in a stream that otherwise completes', async () => {
    const res = await post(chat({ malformed: true }, streamed));
    const lines = dataLines(res.text);
    expect(() => JSON.parse(lines[1]?.slice(6) ?? '')).toThrow();
    expect(() => JSON.parse(lines[2]?.slice(6) ?? '')).not.toThrow();
    expect(lines.at(-1)).toBe('data: [DONE]');
  });

  it('leaves usage out of a JSON answer', async () => {
    const json = JSON.parse((await post(chat({ no_usage: true }))).text) as Record<string, unknown>;
    expect(json.choices).toBeDefined();
    expect('usage' in json).toBe(false);
  });

  it('leaves the usage chunk out of a stream that asked for it', async () => {
    const lines = dataLines((await post(chat({ no_usage: true }, streamed))).text);
    expect(lines.at(-1)).toBe('data: [DONE]');
    const chunks = lines
      .slice(0, -1)
      .map((line) => JSON.parse(line.slice(6)) as { usage: unknown; choices: unknown[] });
    expect(chunks.every((chunk) => chunk.usage === null && chunk.choices.length === 1)).toBe(true);
  });
});

describe('server-level behaviour', () => {
  it('applies a standing directive to every request until removed', async () => {
    mock.setBehaviour({ status: 503 });
    expect((await post(chat())).status).toBe(503);
    expect((await post(chat())).status).toBe(503);
    mock.setBehaviour(null);
    expect((await post(chat())).status).toBe(200);
  });

  it('lets a key-scoped behaviour win over an unscoped one', async () => {
    mock.setBehaviour({ status: 500 });
    mock.setBehaviour({ reply: 'healthy' }, { key: 'sk-good' });
    expect((await post(chat(), 'sk-other')).status).toBe(500);
    const good = await post(chat(), 'sk-good');
    expect(good.status).toBe(200);
    expect(good.text).toContain('healthy');
  });

  it('applies a path-scoped behaviour only to that path', async () => {
    mock.setBehaviour({ status: 500 }, { path: '/v1/embeddings' });
    expect((await post(chat())).status).toBe(200);
    const res = await request(`${mock.url}/v1/embeddings`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'e', input: 'x' }),
    });
    await res.body.dump();
    expect(res.statusCode).toBe(500);
  });

  it('uses queued directives for the next requests, in order, then answers normally', async () => {
    mock.enqueue({ status: 500 }, { times: 2 });
    mock.enqueue({ status: 429, retry_after: 1 });
    expect(mock.pendingQueued).toBe(3);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await post(chat())).status);
    expect(statuses).toEqual([500, 500, 429, 200]);
    expect(mock.pendingQueued).toBe(0);
  });

  it('lets a marker in the body override the server-level directive field by field', async () => {
    mock.setBehaviour({ status: 500, error: { message: 'standing' } });
    const res = await post(chat({ status: 502 }));
    expect(res.status).toBe(502);
    expect(JSON.parse(res.text)).toMatchObject({ error: { message: 'standing' } });
    expect(mock.lastRequest()?.directive).toEqual({ status: 502, error: { message: 'standing' } });
  });

  it('goes back to the start-up behaviour on reset()', async () => {
    const other = await startMockUpstream({ behaviour: { reply: 'fixed' } });
    try {
      const ask = async () => {
        const res = await request(`${other.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: 'Bearer k' },
          body: JSON.stringify(chat()),
        });
        return ((await res.body.json()) as { choices: { message: { content: string } }[] }).choices[0]
          ?.message.content;
      };
      expect(await ask()).toBe('fixed');
      other.setBehaviour(null);
      expect(await ask()).toBe('You said: hello');
      other.reset();
      expect(await ask()).toBe('fixed');
      expect(other.requests).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});
