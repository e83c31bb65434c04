import { describe, expect, it } from 'vitest';
import { channelListQuerySchema } from './channels.js';
import { logListQuery } from './logs.js';
import { redemptionListQuery } from './redemptions.js';
import { mjListQuery } from './tasks.js';
import { tokenListQuery } from './tokens.js';

describe('list paging', () => {
  it('reads a page number that does not parse as the first page (0), never as a refusal', () => {
    for (const p of [undefined, '', 'x', 'NaN', '-1', '2.5', '1e20', '0x1', ['1', '2']]) {
      expect(tokenListQuery.parse({ p }).p).toBe(0);
      expect(redemptionListQuery.parse({ p }).p).toBe(0);
      expect(channelListQuerySchema.parse({ p }).p).toBe(0);
      expect(mjListQuery.parse({ p }).p).toBe(0);
      expect(logListQuery.parse({ p }).p).toBe(1);
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

  it('ignores a log filter that does not parse, one rule with the drawing list', () => {
    for (const bad of ['NaN', '', ' ', 'abc', '0x10', '1e3', '2.5', '+', ['1', '2']]) {
      const logs = logListQuery.parse({ start_timestamp: bad, end_timestamp: bad, channel: bad, type: bad });
      expect(logs).toMatchObject({ type: 0, start_timestamp: undefined, end_timestamp: undefined });
      expect(logs.channel).toBeUndefined();
      expect(mjListQuery.parse({ start_timestamp: bad, channel_id: bad })).toMatchObject({
        start_timestamp: undefined,
        channel_id: undefined,
      });
    }
    expect(logListQuery.parse({ start_timestamp: ' 1700000000 ', channel: '+7', p: '3' })).toMatchObject({
      start_timestamp: 1_700_000_000,
      channel: 7,
      p: 3,
    });
    expect(channelListQuerySchema.parse({ page_size: 'abc' }).page_size).toBe(10);
    expect(channelListQuerySchema.parse({ p: '2', page_size: '500' })).toMatchObject({
      p: 2,
      page_size: 100,
    });
  });
});
