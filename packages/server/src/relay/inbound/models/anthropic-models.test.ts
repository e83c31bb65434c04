import { describe, expect, it } from 'vitest';
import { RelayError } from '../../ir/errors.js';
import { anthropicModelOf, anthropicModelPage } from './anthropic-models.js';

const ids = ['a', 'b', 'c', 'd', 'e'];

describe("the model list in Anthropic's shape", () => {
  it('pages forward by limit and after_id, as the SDK pager asks', () => {
    const first = anthropicModelPage(ids, { limit: '2' });
    expect(first).toEqual({
      data: [
        { type: 'model', id: 'a', display_name: 'a', created_at: '2021-07-20T10:40:00.000Z' },
        { type: 'model', id: 'b', display_name: 'b', created_at: '2021-07-20T10:40:00.000Z' },
      ],
      has_more: true,
      first_id: 'a',
      last_id: 'b',
    });
    const last = anthropicModelPage(ids, { limit: '2', after_id: 'd' });
    expect(last).toMatchObject({ has_more: false, first_id: 'e', last_id: 'e' });
    expect(anthropicModelPage(ids, {}).data).toHaveLength(5);
  });

  it('pages backward from before_id', () => {
    expect(anthropicModelPage(ids, { limit: '2', before_id: 'd' })).toMatchObject({
      first_id: 'b',
      last_id: 'c',
      has_more: true,
    });
    expect(anthropicModelPage(ids, { limit: '5', before_id: 'c' })).toMatchObject({
      first_id: 'a',
      has_more: false,
    });
  });

  it('refuses a limit out of range and names an unknown model', () => {
    expect(() => anthropicModelPage(ids, { limit: '0' })).toThrow(RelayError);
    expect(() => anthropicModelPage(ids, { limit: '1001' })).toThrow(/between 1 and 1000/);
    expect(anthropicModelOf(ids, 'c').id).toBe('c');
    expect(() => anthropicModelOf(ids, 'z')).toThrow(RelayError);
  });

  it('gives an empty page nulls for its ends', () => {
    expect(anthropicModelPage([], {})).toEqual({ data: [], has_more: false, first_id: null, last_id: null });
  });
});
