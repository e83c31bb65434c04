// Anthropic's refusals: bad bodies, authentication, and faults answered in its error shape.
import { describe, expect, it } from 'vitest';
import type { MockUpstream } from './server.js';
import {
  ANTHROPIC_HEADERS as HEADERS,
  anthropicEvents as events,
  json,
  messagesBody as body,
  useMockUpstream,
} from './test-support/test-kit.js';

let mock: MockUpstream;
const { post } = useMockUpstream((started) => (mock = started), HEADERS);

describe('request checks', () => {
  const refusal = async (request: unknown, headers?: Record<string, string>) => {
    const res = await post('/v1/messages', request, headers);
    expect(res.status).toBe(400);
    const answer = json(res.text);
    expect(answer).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error' },
      request_id: expect.any(String),
    });
    return (answer.error as { message: string }).message;
  };

  it('requires max_tokens and a non-empty messages list', async () => {
    const { max_tokens: _, ...noMax } = body();
    expect(await refusal(noMax)).toBe('max_tokens: Field required');
    expect(await refusal({ ...body(), messages: [] })).toBe('messages: at least one message is required');
    const { messages: __, ...noMessages } = body();
    expect(await refusal(noMessages)).toBe('messages: Field required');
  });

  it('refuses unknown top-level fields, beta ones unless a beta is asked for', async () => {
    expect(await refusal({ ...body(), n: 2 })).toBe('n: Extra inputs are not permitted');
    expect(await refusal({ ...body(), context_management: {} })).toBe(
      'context_management: Extra inputs are not permitted',
    );
    const beta = await post(
      '/v1/messages',
      { ...body(), context_management: {} },
      { ...HEADERS, 'anthropic-beta': 'x' },
    );
    expect(beta.status).toBe(200);
  });

  it('refuses temperature together with top_p', async () => {
    expect(await refusal(body(undefined, { temperature: 0.5, top_p: 0.9 }))).toMatch(
      /cannot both be specified/,
    );
    expect((await post('/v1/messages', body(undefined, { temperature: 0.5 }))).status).toBe(200);
  });

  it('refuses any sampling control under API version 2026-10-21, which removed them', async () => {
    const v2026 = { ...HEADERS, 'anthropic-version': '2026-10-21' };
    for (const field of ['temperature', 'top_p', 'top_k']) {
      expect(await refusal(body(undefined, { [field]: 1 }), v2026)).toBe(
        `${field}: Extra inputs are not permitted`,
      );
    }
    expect((await post('/v1/messages', body(undefined, { speed: 'standard' }), v2026)).status).toBe(200);
  });

  it("enforces extended thinking's budget and temperature rules", async () => {
    const thinking = (budget: number) => ({ type: 'enabled', budget_tokens: budget });
    expect(await refusal(body(undefined, { thinking: thinking(512), max_tokens: 4096 }))).toMatch(
      /budget_tokens: Input should be greater than or equal to 1024/,
    );
    expect(await refusal(body(undefined, { thinking: thinking(2048), max_tokens: 2048 }))).toMatch(
      /`max_tokens` must be greater than `thinking.budget_tokens`/,
    );
    expect(
      await refusal(body(undefined, { thinking: thinking(1024), max_tokens: 2048, temperature: 0.7 })),
    ).toMatch(/`temperature` may only be set to 1/);
    const fine = await post(
      '/v1/messages',
      body(undefined, { thinking: thinking(1024), max_tokens: 2048, temperature: 1 }),
    );
    expect(fine.status).toBe(200);
  });
});

describe('authentication', () => {
  it('requires x-api-key, with Anthropic’s exact 401', async () => {
    const res = await post('/v1/messages', body(), { 'anthropic-version': '2023-06-01' });
    expect(res.status).toBe(401);
    expect(json(res.text)).toEqual({
      type: 'error',
      error: { type: 'authentication_error', message: 'x-api-key header is required' },
      request_id: expect.any(String),
    });
  });

  it('takes the key as a bearer token too, as the 1.x SDKs send it', async () => {
    mock.setBehaviour({ reply: 'bearer ok' }, { key: 'sk-ant-bearer' });
    const res = await post('/v1/messages', body(), {
      authorization: 'Bearer sk-ant-bearer',
      'anthropic-version': '2026-10-21',
    });
    expect(res.status).toBe(200);
    expect(json(res.text).content).toEqual([{ type: 'text', text: 'bearer ok' }]);
    const bad = await post('/v1/messages', body(), {
      authorization: 'Bearer bad-key',
      'anthropic-version': '2026-10-21',
    });
    expect(bad.status).toBe(401);
  });

  it('refuses an anthropic-version it does not know', async () => {
    const res = await post('/v1/messages', body(), {
      ...HEADERS,
      'anthropic-version': '2023-06-01, 2023-06-01',
    });
    expect(res.status).toBe(400);
    expect(json(res.text).error).toEqual({
      type: 'invalid_request_error',
      message: 'anthropic-version: "2023-06-01, 2023-06-01" is not a valid version',
    });
  });

  it('refuses a revoked key, then a missing anthropic-version', async () => {
    const bad = await post('/v1/messages', body(), {
      'x-api-key': 'bad-key',
      'anthropic-version': '2023-06-01',
    });
    expect(bad.status).toBe(401);
    expect(json(bad.text).error).toEqual({ type: 'authentication_error', message: 'invalid x-api-key' });
    const noVersion = await post('/v1/messages', body(), { 'x-api-key': 'sk-ant' });
    expect(noVersion.status).toBe(400);
    expect(json(noVersion.text).error).toEqual({
      type: 'invalid_request_error',
      message: 'anthropic-version: header is required',
    });
  });

  it('applies a behaviour scoped to the x-api-key', async () => {
    mock.setBehaviour({ status: 529 }, { key: 'sk-ant-down' });
    const down = await post('/v1/messages', body(), { ...HEADERS, 'x-api-key': 'sk-ant-down' });
    expect(down.status).toBe(529);
    expect(json(down.text).error).toEqual({ type: 'overloaded_error', message: 'Overloaded' });
    expect((await post('/v1/messages', body())).status).toBe(200);
  });
});

describe('faults in Anthropic’s shape', () => {
  it('answers a status with the Anthropic error type for it, overrides and Retry-After', async () => {
    const limited = await post('/v1/messages', body({ status: 429, retry_after: 7 }));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(json(limited.text).error).toMatchObject({ type: 'rate_limit_error' });
    const server = await post('/v1/messages', body({ status: 500, error: { message: 'boom' } }));
    expect(json(server.text).error).toEqual({ type: 'api_error', message: 'boom' });
    const directive = await post('/v1/messages', body(undefined, { system: '[[mock:{"delay":1}]]' }));
    expect(directive.status).toBe(400);
    expect(json(directive.text).error).toMatchObject({ type: 'invalid_request_error' });
  });

  it('sends an overloaded error event after the first content delta, then ends the stream', async () => {
    const res = await post('/v1/messages', body({ stream_error: true }, { stream: true }));
    expect(res.status).toBe(200);
    const list = events(res.text);
    expect(list.map((e) => e.event)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'error',
    ]);
    expect(list[4]?.data).toEqual({
      type: 'error',
      error: { type: 'overloaded_error', message: 'Overloaded' },
    });
  });

  it('cuts a stream after N events, and breaks the first content delta when malformed', async () => {
    const cut = await post('/v1/messages', body({ cut_after: 3 }, { stream: true }));
    expect(events(cut.text).map((e) => e.event)).toEqual(['message_start', 'ping', 'content_block_start']);
    expect(mock.lastRequest()).toMatchObject({ outcome: 'cut', events: 3 });

    const broken = await post('/v1/messages', body({ malformed: true }, { stream: true }));
    const blocks = broken.text.split('\n\n');
    expect(blocks[3]).toMatch(/^event: content_block_delta\ndata: /);
    expect(() => JSON.parse(blocks[3]?.split('data: ')[1] ?? '')).toThrow();
    expect(blocks.at(-2)).toBe('event: message_stop\ndata: {"type":"message_stop"}');
  });

  it('paces stream events with chunk_delay_ms and still completes', async () => {
    const res = await post('/v1/messages', body({ chunk_delay_ms: 2 }, { stream: true }));
    expect(events(res.text).at(-1)?.event).toBe('message_stop');
    expect(mock.lastRequest()).toMatchObject({ outcome: 'completed', events: 14 });
  });
});
