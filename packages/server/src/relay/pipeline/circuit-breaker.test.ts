import { describe, expect, it } from 'vitest';
import { createCircuitBreaker } from './circuit-breaker.js';

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
});
