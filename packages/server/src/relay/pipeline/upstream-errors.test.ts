import { describe, expect, it } from 'vitest';
import { judgeHttpError, redactUpstreamMessage } from './upstream-errors.js';

describe('redactUpstreamMessage', () => {
  it.each([
    ['connect ECONNREFUSED 10.0.0.5:8080', '10.0.0.5'],
    ['request to https://internal.example.net/v1/chat failed', 'internal.example.net'],
    ['upstream api.vendor.io:443 is down', 'api.vendor.io'],
    ['connect ECONNREFUSED [::1]:8080', '::1'],
    ['getaddrinfo ENOTFOUND llm-gateway', 'llm-gateway'],
    ['Incorrect API key provided: sk-abcdefghijklmnop1234', 'sk-abcdefghijklmnop1234'],
  ])('hides what "%s" reveals', (message, hidden) => {
    expect(redactUpstreamMessage(message)).not.toContain(hidden);
  });

  it("hides the channel's own key, every line of a multi-key channel", () => {
    const text = redactUpstreamMessage(
      'key one-secret-key and two-secret-key rejected',
      'one-secret-key\ntwo-secret-key',
    );
    expect(text).toBe('key [redacted] and [redacted] rejected');
  });

  it('keeps ordinary words and model names', () => {
    const message = 'The model gpt-4.1-mini does not exist or you do not have access to it.';
    expect(redactUpstreamMessage(message)).toBe(message);
  });
});

describe('judgeHttpError', () => {
  it("turns the channel's rejected key into a retried 503 upstream_unavailable, not the caller's 401", () => {
    const judged = judgeHttpError(
      401,
      {
        message: 'Incorrect API key provided: chan-key-123456.',
        type: 'invalid_request_error',
        code: 'invalid_api_key',
      },
      new Map(),
      'chan-key-123456',
    );
    expect(judged.error).toMatchObject({ status: 503, code: 'upstream_unavailable' });
    expect(judged.error.message).not.toContain('chan-key-123456');
    expect(judged.retry).toBe(true);
    expect(judged.outcome).toMatchObject({ ok: false, definitive: true });
  });

  it('treats vendor quota and billing codes as the channel failing, whatever the status', () => {
    for (const code of ['insufficient_quota', 'billing_not_active', 'account_deactivated']) {
      const judged = judgeHttpError(429, { message: 'no', type: 'requests', code }, new Map());
      expect(judged.error.status).toBe(503);
      expect(judged.outcome).toMatchObject({ definitive: true });
    }
  });

  it('keeps Retry-After only for a 429 or 503 the caller is told', () => {
    const info = { message: 'slow down', type: 'requests', code: 'rate_limit_exceeded' };
    expect(judgeHttpError(429, info, new Map(), '', '7').retryAfter).toBe('7');
    expect(judgeHttpError(429, info, new Map([[429, 500]]), '', '7').retryAfter).toBeUndefined();
  });
});
