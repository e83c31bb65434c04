// Hold sizing and the atomic reserve step: a call holds its worst case, shrinks to what the balance
// affords when it can still give a useful reply, and holds in flight count against the balance.
import { describe, expect, it } from 'vitest';
import { tokenQuota } from '@sluice/shared';
import type { Pricing, TokenPricing } from '@sluice/shared';
import { createBalanceBook } from './balance-book.js';
import { MIN_USEFUL_OUTPUT_TOKENS, affordableOutputTokens, defaultMaxTokens, planHold } from './pricing.js';

const tokens: TokenPricing = {
  billing: 'tokens',
  modelRatio: 0.145,
  completionRatio: 3.3,
  groupRatio: 1.1,
  cacheRatio: 1,
  cacheWriteRatio: 1.25,
};
const perCall: Pricing = { billing: 'call', modelPrice: 0.02, groupRatio: 1, quotaPerUnit: 500_000 };

describe('hold size', () => {
  it('holds the prompt plus the client limit, or the model default when none is set', () => {
    expect(planHold(tokens, 100, 1000, 4096).amount).toBe(
      tokenQuota({ promptTokens: 100, completionTokens: 1000 }, tokens),
    );
    expect(planHold(tokens, 100, undefined, 4096)).toMatchObject({
      amount: tokenQuota({ promptTokens: 100, completionTokens: 4096 }, tokens),
      outputTokens: 4096,
    });
    expect(planHold(tokens, 100, 0, 300).outputTokens).toBe(300);
  });

  it('holds the price itself for a per-call model, never shrunk', () => {
    const plan = planHold(perCall, 100, 1000, 4096);
    expect(plan).toEqual({ amount: 10_000, outputTokens: undefined });
  });

  it('reads the per-model default, then "*", then 4096', () => {
    expect(defaultMaxTokens({ '*': 1000, big: 32_000 }, 'big')).toBe(32_000);
    expect(defaultMaxTokens({ '*': 1000, big: 32_000 }, 'small')).toBe(1000);
    expect(defaultMaxTokens({}, 'small')).toBe(4096);
  });

  it('finds the most output a quota pays for, exactly', () => {
    for (const quota of [50, 123, 999, 10_007]) {
      const output = affordableOutputTokens(tokens, 40, quota, 1_000_000);
      expect(tokenQuota({ promptTokens: 40, completionTokens: output }, tokens)).toBeLessThanOrEqual(quota);
      expect(tokenQuota({ promptTokens: 40, completionTokens: output + 1 }, tokens)).toBeGreaterThan(quota);
    }
    expect(affordableOutputTokens(tokens, 40, 5, 1000)).toBe(0);
    expect(affordableOutputTokens(tokens, 40, 10_000_000, 1000)).toBe(1000);
  });

  it('shrinks to what the balance affords, and refuses below a useful reply', () => {
    const plan = planHold(tokens, 40, 5000, 4096);
    const fitted = plan.fit?.(500);
    expect(fitted).toBeLessThanOrEqual(500);
    expect(fitted).toBeGreaterThan(0);
    const tooLittle = tokenQuota(
      { promptTokens: 40, completionTokens: MIN_USEFUL_OUTPUT_TOKENS - 1 },
      tokens,
    );
    expect(plan.fit?.(tooLittle)).toBeUndefined();
  });
});

describe('balance book reserve', () => {
  const loaded = (user: number, token: number) => {
    const book = createBalanceBook();
    book.committed(
      [],
      {
        users: new Map([[1, user]]),
        tokens: new Map([[2, token]]),
      },
      { users: [1], tokens: [2] },
    );
    return book;
  };
  const fitHalf = (available: number) => (available >= 10 ? available : undefined);

  it('counts holds in flight, so parallel calls cannot all pass on one balance', () => {
    const book = loaded(1_000_000, 500);
    const req = { userId: 1, tokenId: 2, unlimitedToken: false, amount: 100, fit: fitHalf };
    const taken = Array.from({ length: 50 }, () => book.reserve(req));
    const held = taken.filter((t): t is number => typeof t === 'number');
    expect(held).toHaveLength(5);
    expect(held.reduce((a, b) => a + b, 0)).toBe(500);
    expect(taken.filter((t) => t === 'token')).toHaveLength(45);
    expect(book.available('tokens', 2)).toBe(0);
  });

  it('takes a smaller hold when the fit allows it, and names the short account otherwise', () => {
    const book = loaded(1_000, 130);
    const req = { userId: 1, tokenId: 2, unlimitedToken: false, amount: 100, fit: fitHalf };
    expect(book.reserve(req)).toBe(100);
    expect(book.reserve(req)).toBe(30);
    expect(book.reserve(req)).toBe('token');
    expect(book.reserve({ ...req, tokenId: 2, unlimitedToken: true, amount: 2000 })).toBe(870);
    expect(book.reserve({ ...req, unlimitedToken: true, amount: 50 })).toBe('user');
  });
});
