// Random prices and counts, ordinary and absurd, through the billing formula: every charge must be a
// whole number from 0 to MAX_SAFE_INTEGER. Seeded, so a failure replays exactly.
import { describe, expect, it } from 'vitest';
import { callQuota, decimalTokenQuota, tokenQuota } from './quota.js';

/** mulberry32: a small seeded generator, so every run draws the same cases. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const ABSURD = [
  -1,
  -0.5,
  0,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  1e300,
  -1e300,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  Number.MIN_VALUE,
  1e-12,
];

function drawer(random: () => number) {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
  return {
    /** Mostly typical ratios (0–100, up to 6 decimals), sometimes an absurd value. */
    ratio: (): number => (random() < 0.15 ? pick(ABSURD) : Math.round(random() * 100 * 10 ** 6) / 10 ** 6),
    /** Mostly typical counts (up to 2M tokens), sometimes fractional or absurd. */
    count: (): number => {
      const roll = random();
      if (roll < 0.1) return pick(ABSURD);
      if (roll < 0.2) return random() * 1000;
      return Math.floor(random() * 2_000_000);
    },
  };
}

function expectSafeQuota(quota: number, context: unknown): void {
  const ok = Number.isSafeInteger(quota) && quota >= 0;
  if (!ok) expect.fail(`unsafe quota ${quota} for ${JSON.stringify(context)}`);
}

describe('the billing formula under random and absurd inputs', () => {
  const CASES = 5_000;

  it('charges tokens as a whole number from 0 to MAX_SAFE_INTEGER', () => {
    const draw = drawer(seeded(20261125));
    for (let i = 0; i < CASES; i++) {
      const counts = {
        promptTokens: draw.count(),
        completionTokens: draw.count(),
        cachedTokens: draw.count(),
        cacheWriteTokens: draw.count(),
      };
      const pricing = {
        billing: 'tokens' as const,
        modelRatio: draw.ratio(),
        completionRatio: draw.ratio(),
        groupRatio: draw.ratio(),
        cacheRatio: draw.ratio(),
        cacheWriteRatio: draw.ratio(),
      };
      expectSafeQuota(tokenQuota(counts, pricing), { counts, pricing });
    }
  });

  it('charges what the BigInt formula charges, to the last unit, on the plain-number path and past it', () => {
    // Typical prices and counts take the plain-number path; large counts, many decimals and absurd
    // ratios leave it part-way. Either way the charge is the exact decimal formula's.
    const random = seeded(20261128);
    const draw = drawer(random);
    const below = (n: number) => Math.floor(random() * n);
    const sizes = [1, 1_000, 2_000_000, 1e9, 1e12, 2 ** 40, Number.MAX_SAFE_INTEGER];
    const price = (): number => {
      if (random() < 0.2) return draw.ratio();
      const places = [0, 1, 2, 3, 6, 9][below(6)] as number;
      return Math.round(random() * 100 * 10 ** places) / 10 ** places;
    };
    const count = (): number =>
      random() < 0.3 ? Math.max(0, (sizes[below(sizes.length)] as number) - below(3)) : below(2_000_000);
    for (let i = 0; i < 20_000; i++) {
      const prompt = count();
      const cached = Math.min(count() % (prompt + 1), prompt);
      const cacheWrite = Math.min(count() % (prompt - cached + 1), prompt - cached);
      const completion = count();
      const pricing = {
        billing: 'tokens' as const,
        modelRatio: price(),
        completionRatio: price(),
        groupRatio: price(),
        cacheRatio: price(),
        cacheWriteRatio: price(),
      };
      const counts = {
        promptTokens: prompt,
        completionTokens: completion,
        cachedTokens: cached,
        cacheWriteTokens: cacheWrite,
      };
      const exact = decimalTokenQuota(prompt, cached, cacheWrite, completion, pricing);
      const quota = tokenQuota(counts, pricing);
      if (quota !== exact)
        expect.fail(`charge ${quota}, exactly ${exact}, for ${JSON.stringify({ counts, pricing })}`);
    }
  });

  it('rounds halves away from zero on the plain-number path as the decimal formula does', () => {
    const pricing = (modelRatio: number) => ({
      billing: 'tokens' as const,
      modelRatio,
      completionRatio: 1,
      groupRatio: 1,
      cacheRatio: 1,
      cacheWriteRatio: 1,
    });
    // 5 × 0.1 = 0.5 → 1; 25 × 0.1 = 2.5 → 3; 24 × 0.1 = 2.4 → 2; 1 × 0.0001 = 0.0001 → at least 1.
    expect(tokenQuota({ promptTokens: 5, completionTokens: 0 }, pricing(0.1))).toBe(1);
    expect(tokenQuota({ promptTokens: 25, completionTokens: 0 }, pricing(0.1))).toBe(3);
    expect(tokenQuota({ promptTokens: 24, completionTokens: 0 }, pricing(0.1))).toBe(2);
    expect(tokenQuota({ promptTokens: 1, completionTokens: 0 }, pricing(0.0001))).toBe(1);
    expect(tokenQuota({ promptTokens: 7, completionTokens: 8 }, pricing(0))).toBe(0);
  });

  it('never bills cache reads and writes beyond the prompt they are part of', () => {
    // Whatever counts the upstream reports, the charge is at most that of every prompt token billed
    // at the dearest of the plain, cache-read and cache-write prices.
    const draw = drawer(seeded(1250));
    const usable = (r: number) => (Number.isFinite(r) && r > 0 ? r : 0);
    for (let i = 0; i < CASES; i++) {
      const counts = {
        promptTokens: draw.count(),
        completionTokens: draw.count(),
        cachedTokens: draw.count(),
        cacheWriteTokens: draw.count(),
      };
      const pricing = {
        billing: 'tokens' as const,
        modelRatio: draw.ratio(),
        completionRatio: draw.ratio(),
        groupRatio: draw.ratio(),
        cacheRatio: draw.ratio(),
        cacheWriteRatio: draw.ratio(),
      };
      const dearest = Math.max(1, usable(pricing.cacheRatio), usable(pricing.cacheWriteRatio));
      const bound = tokenQuota(
        {
          promptTokens: counts.promptTokens,
          completionTokens: counts.completionTokens,
          cacheWriteTokens: counts.promptTokens,
        },
        { ...pricing, cacheWriteRatio: dearest },
      );
      const quota = tokenQuota(counts, pricing);
      if (quota > bound)
        expect.fail(`charge ${quota} above ${bound} for ${JSON.stringify({ counts, pricing })}`);
    }
  });

  it('charges per call as a whole number from 0 to MAX_SAFE_INTEGER', () => {
    const draw = drawer(seeded(7));
    for (let i = 0; i < CASES; i++) {
      const pricing = {
        billing: 'call' as const,
        modelPrice: draw.ratio(),
        groupRatio: draw.ratio(),
        quotaPerUnit: random500k(draw.ratio),
      };
      expectSafeQuota(callQuota(pricing), pricing);
    }
  });

  it('caps a charge past the safe range instead of losing precision', () => {
    const pricing = {
      billing: 'tokens' as const,
      modelRatio: 1e300,
      completionRatio: 1,
      groupRatio: 1,
      cacheRatio: 1,
      cacheWriteRatio: 1.25,
    };
    expect(tokenQuota({ promptTokens: 10, completionTokens: 0 }, pricing)).toBe(Number.MAX_SAFE_INTEGER);
    expect(callQuota({ billing: 'call', modelPrice: 1e300, groupRatio: 1, quotaPerUnit: 500_000 })).toBe(
      Number.MAX_SAFE_INTEGER,
    );
  });

  it('reads negative, fractional and non-finite inputs as nothing rather than a credit', () => {
    const pricing = {
      billing: 'tokens' as const,
      modelRatio: 1,
      completionRatio: 1,
      groupRatio: 1,
      cacheRatio: 1,
      cacheWriteRatio: 1.25,
    };
    expect(tokenQuota({ promptTokens: -1000, completionTokens: 0 }, pricing)).toBe(0);
    expect(tokenQuota({ promptTokens: Number.NaN, completionTokens: 10 }, pricing)).toBe(10);
    expect(tokenQuota({ promptTokens: 10.9, completionTokens: 0 }, pricing)).toBe(10);
    expect(tokenQuota({ promptTokens: 100, completionTokens: 0 }, { ...pricing, groupRatio: -2 })).toBe(0);
    expect(callQuota({ billing: 'call', modelPrice: -1, groupRatio: 1, quotaPerUnit: 500_000 })).toBe(0);
  });
});

/** QuotaPerUnit is usually 500000; sometimes another drawn value. */
function random500k(ratio: () => number): number {
  const value = ratio();
  return value > 50 ? 500_000 : value;
}
