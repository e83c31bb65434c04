import { describe, expect, it } from 'vitest';
import { createCircuitBreaker, disableKeywordIn } from './circuit-breaker.js';

const settings = { windowMs: 60_000, minCalls: 10, errorRate: 0.5 };
const fail = { ok: false as const, definitive: false, reason: 'upstream answered 500' };

describe('circuit breaker', () => {
  it('trips at once on a definitive error', () => {
    const breaker = createCircuitBreaker(settings);
    expect(breaker.record(1, { ok: false, definitive: true, reason: 'bad key' }, 0)).toBe('bad key');
  });

  it('trips when half of at least ten calls in the window failed', () => {
    const breaker = createCircuitBreaker(settings);
    for (let i = 0; i < 5; i++) expect(breaker.record(1, { ok: true }, 1000 + i)).toBeUndefined();
    for (let i = 0; i < 4; i++) expect(breaker.record(1, fail, 2000 + i)).toBeUndefined();
    expect(breaker.record(1, fail, 3000)).toMatch(/5 of the last 10 calls failed/);
  });

  it('does not trip on few calls, on neutral outcomes, or on failures that left the window', () => {
    const breaker = createCircuitBreaker(settings);
    for (let i = 0; i < 9; i++) expect(breaker.record(1, fail, 1000)).toBeUndefined();
    for (let i = 0; i < 50; i++) expect(breaker.record(2, { ok: null }, 1000)).toBeUndefined();
    // Channel 1's nine failures are two minutes old; ten fresh successes then one failure stay far below half.
    for (let i = 0; i < 10; i++) breaker.record(1, { ok: true }, 121_000);
    expect(breaker.record(1, fail, 121_500)).toBeUndefined();
  });

  it('starts afresh for a channel it forgot', () => {
    const breaker = createCircuitBreaker(settings);
    for (let i = 0; i < 9; i++) breaker.record(1, fail, 1000);
    breaker.forget(1);
    expect(breaker.record(1, fail, 1001)).toBeUndefined();
  });

  it('trips at once when what the upstream said names a disable keyword, whatever the status', () => {
    let keywords = ['Your credit balance is too low'];
    const breaker = createCircuitBreaker(settings, () => keywords);
    const lowBalance = {
      ok: null,
      reason: 'upstream answered 400: Your credit balance is too low to access the API.',
      upstreamMessage: 'Your credit balance is too low to access the API.',
    } as const;
    expect(breaker.record(1, lowBalance, 0)).toMatch(
      /credit balance.*keyword "Your credit balance is too low"/,
    );
    // Case does not matter; a 5xx that names a keyword trips without waiting for the error rate.
    expect(
      breaker.record(2, { ...fail, upstreamMessage: 'YOUR CREDIT BALANCE IS TOO LOW' }, 0),
    ).toBeDefined();
    // Other messages stay what they were: neutral, or one failure among many.
    expect(
      breaker.record(3, { ...lowBalance, upstreamMessage: 'max_tokens is too large' }, 0),
    ).toBeUndefined();
    expect(breaker.record(4, fail, 0)).toBeUndefined();
    // The list is read at each failure: a saved change applies at once.
    keywords = [];
    expect(breaker.record(5, lowBalance, 0)).toBeUndefined();
  });

  it('matches keywords ignoring case and blank lines', () => {
    expect(disableKeywordIn('Permission denied on resource', ['', ' permission DENIED '])).toBe(
      ' permission DENIED ',
    );
    expect(disableKeywordIn('anything', ['', '  '])).toBeUndefined();
    expect(disableKeywordIn('', ['x'])).toBeUndefined();
  });
});
