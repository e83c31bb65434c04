import { describe, expect, it } from 'vitest';
import { callQuota, quotaFor, tokenQuota } from './quota.js';
import type { TokenPricing } from './quota.js';
import { roundDecimal, toDecimal } from './exact-decimal.js';

const ratios = (p: Partial<TokenPricing> = {}): TokenPricing => ({
  billing: 'tokens',
  modelRatio: 1,
  completionRatio: 1,
  groupRatio: 1,
  cacheRatio: 1,
  cacheWriteRatio: 1.25,
  ...p,
});

describe('quota formula', () => {
  it('charges (prompt + completion × completion ratio) × model ratio × group ratio', () => {
    // gpt-4o-mini: ratio 0.075, completion ratio 4 → 1000 prompt + 500 completion = 3000 × 0.075 = 225
    expect(
      tokenQuota(
        { promptTokens: 1000, completionTokens: 500 },
        ratios({ modelRatio: 0.075, completionRatio: 4 }),
      ),
    ).toBe(225);
    expect(
      tokenQuota({ promptTokens: 10, completionTokens: 20 }, ratios({ modelRatio: 2, groupRatio: 1.5 })),
    ).toBe(90);
  });

  it('multiplies the decimals the operator typed, not their binary approximations', () => {
    // In floating point 100 × 0.145 = 14.499999999999998, which would round down to 14.
    expect(100 * 0.145).toBeLessThan(14.5);
    expect(tokenQuota({ promptTokens: 100, completionTokens: 0 }, ratios({ modelRatio: 0.145 }))).toBe(15);
    expect(
      tokenQuota(
        { promptTokens: 2000, completionTokens: 0 },
        ratios({ modelRatio: 0.0725, groupRatio: 0.1 }),
      ),
    ).toBe(15);
    expect(
      tokenQuota({ promptTokens: 100, completionTokens: 0 }, ratios({ modelRatio: 0.35, groupRatio: 0.5 })),
    ).toBe(18);
  });

  it('rounds halves up and charges at least 1 for a priced call that used tokens', () => {
    expect(tokenQuota({ promptTokens: 5, completionTokens: 0 }, ratios({ modelRatio: 0.5 }))).toBe(3);
    expect(tokenQuota({ promptTokens: 1, completionTokens: 0 }, ratios({ modelRatio: 0.01 }))).toBe(1);
    expect(tokenQuota({ promptTokens: 0, completionTokens: 0 }, ratios({ modelRatio: 0.01 }))).toBe(0);
    expect(tokenQuota({ promptTokens: 100, completionTokens: 100 }, ratios({ modelRatio: 0 }))).toBe(0);
    expect(tokenQuota({ promptTokens: 100, completionTokens: 100 }, ratios({ groupRatio: 0 }))).toBe(0);
  });

  it('prices cached prompt tokens by the cache ratio', () => {
    // 1000 prompt of which 800 cached at 0.5 → 200 + 400 = 600, + 100 completion × 4 = 1000 × 1.25
    const p = ratios({ modelRatio: 1.25, completionRatio: 4, cacheRatio: 0.5 });
    expect(tokenQuota({ promptTokens: 1000, completionTokens: 100, cachedTokens: 800 }, p)).toBe(1250);
    // cached tokens above the prompt count are capped at the prompt count
    expect(
      tokenQuota({ promptTokens: 10, completionTokens: 0, cachedTokens: 50 }, ratios({ cacheRatio: 0 })),
    ).toBe(1);
  });

  it('prices prompt tokens written to the cache by the cache-write ratio', () => {
    // claude-sonnet-4-5 ($3 / $15 per 1M: ratio 1.5, completion 5; reads 0.1×, 5-minute writes 1.25×):
    // 10000 prompt = 2000 plain + 6000 read + 2000 written, 500 completion
    // → (2000 + 6000 × 0.1 + 2000 × 1.25 + 500 × 5) × 1.5 = 7600 × 1.5 = 11400 quota = $0.0228,
    // which is $0.006 + $0.0018 + $0.0075 + $0.0075 at the list prices.
    const sonnet = ratios({ modelRatio: 1.5, completionRatio: 5, cacheRatio: 0.1, cacheWriteRatio: 1.25 });
    const counts = { promptTokens: 10000, completionTokens: 500, cachedTokens: 6000 };
    expect(tokenQuota({ ...counts, cacheWriteTokens: 2000 }, sonnet)).toBe(11400);
    // The same call without cache writes costs the 2000 tokens at the plain prompt price.
    expect(tokenQuota(counts, sonnet)).toBe(10650);
    // A ratio of 1 bills a cache write like any prompt token; the group ratio applies to it too.
    expect(tokenQuota({ ...counts, cacheWriteTokens: 2000 }, { ...sonnet, cacheWriteRatio: 1 })).toBe(10650);
    expect(tokenQuota({ ...counts, cacheWriteTokens: 2000 }, { ...sonnet, groupRatio: 0.5 })).toBe(5700);
  });

  it('multiplies the cache-write ratio exactly', () => {
    // In floating point 40 × 1.25 × 0.29 = 14.499999999999998, which would round down to 14.
    expect(40 * 1.25 * 0.29).toBeLessThan(14.5);
    expect(
      tokenQuota(
        { promptTokens: 40, completionTokens: 0, cacheWriteTokens: 40 },
        ratios({ modelRatio: 0.29, cacheWriteRatio: 1.25 }),
      ),
    ).toBe(15);
  });

  it('never bills more cache reads and writes than the prompt had', () => {
    // 800 read + 500 written of a 1000-token prompt: the writes are cut to the 200 left.
    const p = ratios({ cacheRatio: 0, cacheWriteRatio: 2 });
    expect(
      tokenQuota({ promptTokens: 1000, completionTokens: 0, cachedTokens: 800, cacheWriteTokens: 500 }, p),
    ).toBe(400);
    expect(tokenQuota({ promptTokens: 100, completionTokens: 0, cacheWriteTokens: 5000 }, p)).toBe(200);
    // A cache write priced at 0 is free, but a priced call that used tokens still costs 1.
    expect(
      tokenQuota(
        { promptTokens: 10, completionTokens: 0, cacheWriteTokens: 10 },
        ratios({ cacheWriteRatio: 0 }),
      ),
    ).toBe(1);
  });

  it('charges per call ModelPrice × QuotaPerUnit × GroupRatio', () => {
    expect(callQuota({ billing: 'call', modelPrice: 0.04, quotaPerUnit: 500000, groupRatio: 1 })).toBe(20000);
    expect(callQuota({ billing: 'call', modelPrice: 0.1, quotaPerUnit: 500000, groupRatio: 0.3 })).toBe(
      15000,
    );
    const pricing = { billing: 'call' as const, modelPrice: 0.02, quotaPerUnit: 500000, groupRatio: 1 };
    expect(quotaFor({ promptTokens: 99999, completionTokens: 99999 }, pricing)).toBe(10000);
  });

  it('reads decimals exactly, including exponent forms', () => {
    expect(toDecimal(0.075)).toEqual({ units: 75n, scale: 3 });
    expect(toDecimal(1e-7)).toEqual({ units: 1n, scale: 7 });
    expect(toDecimal(2e21)).toEqual({ units: 2000000000000000000000n, scale: 0 });
    expect(roundDecimal(toDecimal('2.5'))).toBe(3);
    expect(roundDecimal(toDecimal('-2.5'))).toBe(-3);
    expect(roundDecimal(toDecimal('2.4999'))).toBe(2);
    expect(() => toDecimal(Number.NaN)).toThrow();
  });
});
