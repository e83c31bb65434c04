// The billing process an expanded log row shows: the formula text and the prices it implies.
import { LOG_TYPE } from '@sluice/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { i18n, loadSections } from '../../i18n';
import { billingFormula, billingProcess, quotaToUsd } from './billing-process';
import { parseLogOther } from './log-other';

const t = i18n.t.bind(i18n);
const row = (
  over: Partial<{ type: number; quota: number; prompt_tokens: number; completion_tokens: number }>,
) => ({
  type: LOG_TYPE.consume,
  quota: 14,
  prompt_tokens: 100,
  completion_tokens: 20,
  ...over,
});

beforeAll(() => loadSections());

describe('per-token billing', () => {
  const other = parseLogOther(
    JSON.stringify({ frt: 800, model_ratio: 0.075, model_price: -1, completion_ratio: 4, group_ratio: 1 }),
  );

  it('writes the formula with its rounding and the dollar amount', () => {
    const process = billingProcess(row({}), other, 500_000);
    expect(process).not.toBeNull();
    expect(billingFormula(process!, t)).toBe(
      '(prompt 100 + completion 20 × 4) × 0.075 × 1 = 13.5 → 14 quota = $0.000028',
    );
  });

  it('gives the prices per 1M tokens as ratio × 2 × group ratio', () => {
    const process = billingProcess(row({}), { ...other, group_ratio: 1.5 }, 500_000);
    expect(process?.kind).toBe('tokens');
    if (process?.kind !== 'tokens') return;
    expect(process.prices.prompt).toBeCloseTo(0.225);
    expect(process.prices.completion).toBeCloseTo(0.9);
    expect(process.prices.cached).toBeNull();
  });

  it('drops the arrow when the formula lands on a whole quota', () => {
    const process = billingProcess(
      row({ prompt_tokens: 4, completion_tokens: 5, quota: 19 }),
      parseLogOther('{"model_ratio":1,"completion_ratio":3,"group_ratio":1}'),
      500_000,
    );
    expect(billingFormula(process!, t)).toBe('(prompt 4 + completion 5 × 3) × 1 × 1 = 19 quota = $0.000038');
  });

  it('prices cached prompt tokens by the cache ratio', () => {
    const cached = parseLogOther(
      JSON.stringify({
        model_ratio: 1.25,
        completion_ratio: 4,
        group_ratio: 2,
        cache_ratio: 0.5,
        cache_tokens: 40,
      }),
    );
    const process = billingProcess(row({ quota: 550 }), cached, 500_000);
    // (60 + 40 × 0.5 + 20 × 4) × 1.25 × 2 = 400: the row says 550, and the text shows what was charged.
    expect(billingFormula(process!, t)).toBe(
      '(prompt 60 + cached 40 × 0.5 + completion 20 × 4) × 1.25 × 2 = 400 → 550 quota = $0.0011',
    );
    if (process?.kind !== 'tokens') throw new Error('per-token expected');
    expect(process.prices.prompt).toBe(5);
    expect(process.prices.cached).toBe(2.5);
  });
});

describe('prompt cache writes', () => {
  // A claude-sonnet-4-5 call as the relay logs it: 10000 prompt tokens of which 6000 read from the
  // cache and 2000 written to it, 500 completion: (2000 + 6000 × 0.1 + 2000 × 1.25 + 500 × 5) × 1.5.
  const claude = {
    model_ratio: 1.5,
    model_price: -1,
    completion_ratio: 5,
    group_ratio: 1,
    cache_ratio: 0.1,
    cache_tokens: 6000,
    cache_creation_ratio: 1.25,
    cache_creation_tokens: 2000,
  };
  const call = row({ prompt_tokens: 10000, completion_tokens: 500, quota: 11400 });

  it('bills them by their ratio in the formula, apart from the plain and cached prompt', () => {
    const process = billingProcess(call, parseLogOther(JSON.stringify(claude)), 500_000);
    expect(billingFormula(process!, t)).toBe(
      '(prompt 2000 + cached 6000 × 0.1 + cache write 2000 × 1.25 + completion 500 × 5) × 1.5 × 1 = 11400 quota = $0.0228',
    );
    expect(billingFormula(process!, i18n.getFixedT('zh-CN'))).toBe(
      '（提示 2000 + 缓存 6000 × 0.1 + 缓存写入 2000 × 1.25 + 补全 500 × 5）× 1.5 × 1 = 11400 额度 = $0.0228',
    );
  });

  it('prices a cache-write token at the prompt price times its ratio', () => {
    const process = billingProcess(call, parseLogOther(JSON.stringify(claude)), 500_000);
    if (process?.kind !== 'tokens') throw new Error('per-token expected');
    // $3 per 1M prompt tokens: reads $0.30, 5-minute writes $3.75.
    expect(process.prices.prompt).toBe(3);
    expect(process.prices.cached).toBeCloseTo(0.3);
    expect(process.prices.cacheWrite).toBe(3.75);
  });

  it('counts no more cache reads and writes than the prompt had', () => {
    const other = parseLogOther(JSON.stringify({ ...claude, cache_creation_tokens: 9000 }));
    const process = billingProcess(call, other, 500_000);
    if (process?.kind !== 'tokens') throw new Error('per-token expected');
    expect(process).toMatchObject({ uncachedTokens: 0, cachedTokens: 6000, cacheWriteTokens: 4000 });
  });

  it('leaves them out of a row without cache writes', () => {
    const other = parseLogOther(JSON.stringify({ ...claude, cache_creation_tokens: undefined }));
    const process = billingProcess(call, other, 500_000);
    expect(billingFormula(process!, t)).not.toContain('cache write');
    if (process?.kind !== 'tokens') throw new Error('per-token expected');
    expect(process.prices.cacheWrite).toBeNull();
  });
});

describe('per-call billing', () => {
  it('multiplies the model price by the group ratio and the quota per dollar', () => {
    const other = parseLogOther(
      '{"model_ratio":0,"model_price":0.04,"completion_ratio":0,"group_ratio":1.5}',
    );
    const process = billingProcess(row({ quota: 30_000 }), other, 500_000);
    expect(process?.kind).toBe('call');
    expect(billingFormula(process!, t)).toBe('$0.04 × 1.5 × 500000 = 30000 quota = $0.06');
  });
});

describe('rows without a billing process', () => {
  it('has none for top-ups, unreadable details or rows without prices', () => {
    const priced = parseLogOther('{"model_ratio":1}');
    expect(billingProcess(row({ type: LOG_TYPE.topup }), priced, 500_000)).toBeNull();
    expect(billingProcess(row({}), parseLogOther('not json'), 500_000)).toBeNull();
    expect(billingProcess(row({}), parseLogOther('{"frt":10}'), 500_000)).toBeNull();
  });

  it('keeps the readable fields when one has the wrong type', () => {
    expect(parseLogOther('{"model_ratio":"x","group_ratio":2,"frt":300}')).toEqual({
      group_ratio: 2,
      frt: 300,
    });
  });
});

describe('dollar amounts', () => {
  it('shows small amounts to the millionth of a dollar', () => {
    expect(quotaToUsd(1, 500_000)).toBe('0.000002');
    expect(quotaToUsd(750_000, 500_000)).toBe('1.5');
  });
});
