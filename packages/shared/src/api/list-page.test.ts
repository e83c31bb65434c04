import { describe, expect, it } from 'vitest';
import { redemptionListQuery } from './redemptions.js';
import { tokenListQuery } from './tokens.js';

describe('list paging', () => {
  it('reads a page number that does not parse as the first page (0), never as a refusal', () => {
    for (const p of [undefined, '', 'x', '-1', '2.5', '1e20', ['1', '2']]) {
      expect(tokenListQuery.parse({ p }).p).toBe(0);
      expect(redemptionListQuery.parse({ p }).p).toBe(0);
    }
    expect(tokenListQuery.parse({ p: '7' }).p).toBe(7);
  });

  it('keeps the plain-array size when page_size is absent, and caps both sizes at 100', () => {
    expect(tokenListQuery.parse({})).toEqual({ p: 0, size: 10 });
    expect(tokenListQuery.parse({ size: '1000' })).toEqual({ p: 0, size: 100 });
    expect(tokenListQuery.parse({ size: 'abc' })).toEqual({ p: 0, size: 10 });
    expect(redemptionListQuery.parse({ p: '2', page_size: '20' })).toEqual({ p: 2, size: 10, page_size: 20 });
    expect(redemptionListQuery.parse({ page_size: '500' }).page_size).toBe(100);
    expect(redemptionListQuery.parse({ page_size: 'many' }).page_size).toBe(10);
  });
});
