import { describe, expect, it } from 'vitest';
import { pricePerMillion, usageFeeUsd } from './price-display.js';

describe('price display', () => {
  it('shows prompt price = ratio × 2 × group ratio and completion price × completion ratio', () => {
    expect(pricePerMillion(0.075, 4)).toEqual({ prompt: 0.15, completion: 0.6 });
    expect(pricePerMillion(1, 4, 2)).toEqual({ prompt: 4, completion: 16 });
  });

  it('shows the fee of a call in US dollars', () => {
    const ratios = { modelRatio: 1, completionRatio: 2, groupRatio: 1 };
    expect(usageFeeUsd({ promptTokens: 1000, completionTokens: 500 }, ratios)).toBe(0.004);
  });
});
