import { describe, expect, it } from 'vitest';
import { callQuota } from '@sluice/shared';
import { decimalToNumber, imageUnits, orderPrice } from './image-price.js';

describe('image order price', () => {
  it('charges each image, and only dall-e-3 has size and quality steps', () => {
    expect(orderPrice(0.04, { model: 'dall-e-3', n: 1 })).toBe(0.04);
    expect(orderPrice(0.04, { model: 'dall-e-3', n: 1, size: '1024x1792' })).toBe(0.08);
    expect(orderPrice(0.04, { model: 'dall-e-3', n: 1, quality: 'hd' })).toBe(0.08);
    expect(orderPrice(0.04, { model: 'dall-e-3', n: 1, size: '1792x1024', quality: 'hd' })).toBe(0.12);
    expect(orderPrice(0.02, { model: 'dall-e-2', n: 3, size: '1792x1024', quality: 'hd' })).toBe(0.06);
  });

  it('multiplies exactly where binary floating point would not', () => {
    expect(0.1 * 3).not.toBe(0.3);
    expect(orderPrice(0.1, { model: 'flux', n: 3 })).toBe(0.3);
    expect(
      callQuota({
        billing: 'call',
        modelPrice: orderPrice(0.07, { model: 'x', n: 3 }),
        groupRatio: 1,
        quotaPerUnit: 500_000,
      }),
    ).toBe(105_000);
    expect(decimalToNumber(imageUnits({ model: 'dall-e-3', n: 7, size: '1024x1792', quality: 'hd' }))).toBe(
      21,
    );
  });
});
