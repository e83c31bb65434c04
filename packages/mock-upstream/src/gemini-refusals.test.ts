// Gemini's refusals: authentication and faults answered in Google's error shape.
import { describe, expect, it } from 'vitest';
import type { MockUpstream } from './server.js';
import {
  GEMINI_HEADERS,
  GEMINI_MODEL as MODEL,
  generateRequest as request,
  json,
  useMockUpstream,
} from './test-support/test-kit.js';

let mock: MockUpstream;
const { call } = useMockUpstream((started) => (mock = started), GEMINI_HEADERS);

describe('authentication', () => {
  it('refuses a caller without a key with 403 PERMISSION_DENIED', async () => {
    const res = await call('POST', `${MODEL}:generateContent`, request(), {});
    expect(res.status).toBe(403);
    expect(json(res.text)).toEqual({
      error: {
        code: 403,
        message:
          "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
        status: 'PERMISSION_DENIED',
      },
    });
  });

  it('refuses an invalid key with 400 API_KEY_INVALID, from the header or the query', async () => {
    for (const [path, headers] of [
      [`${MODEL}:generateContent`, { 'x-goog-api-key': 'bad-key' }],
      [`${MODEL}:generateContent?key=bad-key`, {}],
    ] as const) {
      const res = await call('POST', path, request(), headers);
      expect(res.status).toBe(400);
      expect(json(res.text).error).toMatchObject({
        code: 400,
        message: 'API key not valid. Please pass a valid API key.',
        status: 'INVALID_ARGUMENT',
        details: [
          expect.objectContaining({
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'API_KEY_INVALID',
          }),
          expect.objectContaining({ '@type': 'type.googleapis.com/google.rpc.LocalizedMessage' }),
        ],
      });
    }
    expect((await call('POST', `${MODEL}:generateContent?key=AIza-ok`, request(), {})).status).toBe(200);
  });

  it('applies a behaviour scoped to the key, and records the query', async () => {
    mock.setBehaviour({ status: 503 }, { key: 'AIza-down' });
    const down = await call('POST', `${MODEL}:generateContent?key=AIza-down`, request(), {});
    expect(down.status).toBe(503);
    expect(json(down.text).error).toMatchObject({ code: 503, status: 'UNAVAILABLE' });
    expect(mock.lastRequest()).toMatchObject({ query: { key: 'AIza-down' }, status: 503 });
    expect((await call('POST', `${MODEL}:generateContent`, request())).status).toBe(200);
  });
});

describe('faults in Google’s shape', () => {
  it('answers 429 RESOURCE_EXHAUSTED with a RetryInfo detail, and lets the directive override fields', async () => {
    const limited = await call('POST', `${MODEL}:generateContent`, request({ status: 429, retry_after: 17 }));
    expect(limited.status).toBe(429);
    expect(json(limited.text).error).toMatchObject({
      code: 429,
      status: 'RESOURCE_EXHAUSTED',
      details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '17s' }],
    });
    const custom = await call(
      'POST',
      `${MODEL}:generateContent`,
      request({ status: 500, error: { message: 'boom' } }),
    );
    expect(json(custom.text).error).toEqual({ code: 500, message: 'boom', status: 'INTERNAL' });
  });

  it('wraps errors in a JSON array on the streaming route without alt=sse', async () => {
    const res = await call('POST', `${MODEL}:streamGenerateContent`, request({ status: 503 }));
    expect(res.status).toBe(503);
    expect(JSON.parse(res.text)).toEqual([
      { error: expect.objectContaining({ code: 503, status: 'UNAVAILABLE' }) },
    ]);
    const sse = await call('POST', `${MODEL}:streamGenerateContent?alt=sse`, request({ status: 503 }));
    expect(json(sse.text)).toHaveProperty('error.status', 'UNAVAILABLE');
  });

  it('answers a body that is not JSON with INVALID_ARGUMENT', async () => {
    const res = await fetch(`${mock.url}${MODEL}:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': 'AIza-test' },
      body: '{"contents":',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { status: 'INVALID_ARGUMENT' } });
  });
});
