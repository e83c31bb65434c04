// The pricing page's figures (spec part 2 §9): per 1M tokens or per call, times the group ratio, in
// dollars or quota units as the site displays.
import { describe, expect, it } from 'vitest';
import { displayedPrice, groupRatioOf, isAvailable, shownGroup } from './price';
import { filterModels, pageOf, servedGroups } from './pricing-filter';
import type { PricingEntry } from '@sluice/shared';

const currency = { displayInCurrency: true, quotaPerUnit: 500_000 };
const quota = { displayInCurrency: false, quotaPerUnit: 500_000 };

const mini: PricingEntry = {
  model_name: 'gpt-4o-mini',
  quota_type: 0,
  model_ratio: 0.075,
  model_price: 0,
  completion_ratio: 4,
  enable_groups: ['default', 'vip'],
};
const dalle: PricingEntry = {
  model_name: 'dall-e-3',
  quota_type: 1,
  model_ratio: 0,
  model_price: 0.04,
  completion_ratio: 1,
  enable_groups: ['vip'],
};

describe('displayed prices', () => {
  it('prices per-usage models per 1M tokens: ratio × 2 for prompts, × the completion ratio for answers', () => {
    expect(displayedPrice(mini, 1, currency)).toEqual({ type: 'usage', prompt: '$0.15', completion: '$0.6' });
  });

  it('multiplies by the group ratio without floating-point noise', () => {
    expect(displayedPrice(mini, 2, currency)).toEqual({ type: 'usage', prompt: '$0.3', completion: '$1.2' });
    const tenth = { ...mini, model_ratio: 0.05, completion_ratio: 1 };
    // 0.05 × 2 × 3 is 0.30000000000000004 in binary floating point.
    expect(displayedPrice(tenth, 3, currency)).toEqual({ type: 'usage', prompt: '$0.3', completion: '$0.3' });
  });

  it('prices per-call models per call times the group ratio', () => {
    expect(displayedPrice(dalle, 1, currency)).toEqual({ type: 'call', perCall: '$0.04' });
    expect(displayedPrice(dalle, 1.5, currency)).toEqual({ type: 'call', perCall: '$0.06' });
  });

  it('shows quota units when the site does not display currency', () => {
    // 1M tokens at ratio 0.075 are billed 75 000 quota; answers 4 × that.
    expect(displayedPrice(mini, 1, quota)).toEqual({ type: 'usage', prompt: '75k', completion: '300k' });
    expect(displayedPrice(mini, 2, quota)).toEqual({ type: 'usage', prompt: '150k', completion: '600k' });
    // A call is billed ModelPrice × QuotaPerUnit × GroupRatio.
    expect(displayedPrice(dalle, 1, quota)).toEqual({ type: 'call', perCall: '20k' });
    expect(displayedPrice(dalle, 2, { displayInCurrency: false, quotaPerUnit: 100_000 })).toEqual({
      type: 'call',
      perCall: '8000',
    });
  });
});

describe('groups', () => {
  it('takes a missing group ratio as 1', () => {
    expect(groupRatioOf({ vip: 2 }, 'vip')).toBe(2);
    expect(groupRatioOf({ vip: 2 }, 'default')).toBe(1);
  });

  it('marks a model available when it is served in the group', () => {
    expect(isAvailable(mini, 'default')).toBe(true);
    expect(isAvailable(dalle, 'default')).toBe(false);
  });

  it('shows the chosen group, else the own group, else the first usable one', () => {
    const usable = { default: 'Default', vip: 'VIP' };
    expect(shownGroup(usable, 'vip', 'default')).toBe('vip');
    expect(shownGroup(usable, null, 'default')).toBe('default');
    expect(shownGroup(usable, 'gone', 'default')).toBe('default');
    expect(shownGroup({ vip: 'VIP' }, null, 'default')).toBe('vip');
  });
});

describe('filtering the price list', () => {
  const models = [mini, dalle, { ...mini, model_name: 'gpt-4o', enable_groups: ['svip'] }];

  it('searches names without regard to case, and filters by group and billing type', () => {
    expect(filterModels(models, { keyword: 'GPT-4O' }).map((m) => m.model_name)).toEqual([
      'gpt-4o-mini',
      'gpt-4o',
    ]);
    expect(filterModels(models, { group: 'vip' }).map((m) => m.model_name)).toEqual([
      'gpt-4o-mini',
      'dall-e-3',
    ]);
    expect(filterModels(models, { type: 'call' }).map((m) => m.model_name)).toEqual(['dall-e-3']);
    expect(filterModels(models, { type: 'usage', group: 'svip' }).map((m) => m.model_name)).toEqual([
      'gpt-4o',
    ]);
  });

  it('lists the groups models are served in and pages the rows', () => {
    expect(servedGroups(models)).toEqual(['default', 'svip', 'vip']);
    expect(pageOf([1, 2, 3, 4, 5], 1, 2)).toEqual([3, 4]);
  });
});
