import { describe, expect, it } from 'vitest';
import type { ChannelRow } from '../../db/tables.js';
import {
  buildChannelIndex,
  parseModelMapping,
  parseStatusCodeMapping,
  pickChannel,
  unservedChannelsError,
} from './channel-index.js';
import type { AbilityEntry } from './channel-index.js';

const row = (id: number, over: Partial<ChannelRow> = {}): ChannelRow =>
  ({
    id,
    type: 1,
    key: `k${id}`,
    openai_organization: '',
    test_model: '',
    status: 1,
    name: `c${id}`,
    weight: 0,
    created_time: 0,
    test_time: 0,
    response_time: 0,
    base_url: 'http://upstream',
    other: '',
    balance: 0,
    balance_updated_time: 0,
    models: 'm',
    group: 'default',
    used_quota: 0,
    model_mapping: '',
    status_code_mapping: '',
    priority: 0,
    auto_ban: 1,
    other_info: '',
    tag: '',
    setting: '',
    max_input_tokens: 0,
    ...over,
  }) as ChannelRow;

const ability = (
  channel_id: number,
  priority: number,
  weight: number,
  over: Partial<AbilityEntry> = {},
): AbilityEntry => ({
  group: 'default',
  model: 'm',
  channel_id,
  enabled: 1,
  priority,
  weight,
  ...over,
});

const pick = (index: ReturnType<typeof buildChannelIndex>, exclude: number[] = [], random = Math.random) =>
  pickChannel(index, { group: 'default', model: 'm', mode: 'chat', exclude: new Set(exclude), random })?.id;

describe('channel index', () => {
  const index = buildChannelIndex(
    [row(1), row(2), row(3), row(4)],
    [ability(1, 10, 1), ability(2, 10, 3), ability(3, 0, 0), ability(4, 0, 0)],
  );

  it('picks from the highest priority tier first', () => {
    for (let i = 0; i < 20; i++) expect([1, 2]).toContain(pick(index));
  });

  it('weights the pick inside a tier', () => {
    // Weights 1 and 3: the first quarter of the range is channel 1, the rest channel 2.
    expect(pick(index, [], () => 0.2)).toBe(1);
    expect(pick(index, [], () => 0.3)).toBe(2);
    expect(pick(index, [], () => 0.99)).toBe(2);
  });

  it('picks uniformly when every weight in the tier is zero', () => {
    expect(pick(index, [1, 2], () => 0.1)).toBe(3);
    expect(pick(index, [1, 2], () => 0.9)).toBe(4);
  });

  it('moves to the next tier only when every channel of a tier is excluded, and never repeats one', () => {
    expect(pick(index, [2], () => 0.99)).toBe(1);
    expect(pick(index, [1, 2, 3])).toBe(4);
    expect(pick(index, [1, 2, 3, 4])).toBeUndefined();
  });

  it('leaves out disabled channels, disabled abilities, other groups and unsupported types', () => {
    const other = buildChannelIndex(
      // Baidu (15) has no adapter: the relay cannot call it.
      [row(1, { status: 3 }), row(2), row(3, { type: 15 }), row(4)],
      [
        ability(1, 5, 0),
        ability(2, 5, 0, { enabled: 0 }),
        ability(3, 5, 0),
        ability(4, 5, 0, { group: 'vip' }),
      ],
    );
    expect(pick(other)).toBeUndefined();
    expect(pickChannel(other, { group: 'vip', model: 'm', mode: 'chat', exclude: new Set() })?.id).toBe(4);
  });

  it('reads model and status-code mappings, ignoring what does not parse', () => {
    expect([...parseModelMapping('{"gpt-3.5-turbo":"gpt-3.5-turbo-0125","x":3}')]).toEqual([
      ['gpt-3.5-turbo', 'gpt-3.5-turbo-0125'],
    ]);
    expect([...parseStatusCodeMapping('{"400":"500","429":503,"x":"y","401":"900"}')]).toEqual([
      [400, 500],
      [429, 503],
    ]);
    expect(parseModelMapping('not json').size).toBe(0);
  });
});

describe('a model only channels of unserved types list', () => {
  const unserved = (index: ReturnType<typeof buildChannelIndex>, mode: 'chat' | 'embeddings' = 'chat') =>
    unservedChannelsError(index, 'default', 'm', mode);

  it('is a 501 naming the type, not an outage', () => {
    const error = unserved(buildChannelIndex([row(1, { type: 15 })], [ability(1, 0, 0)]));
    expect(error?.status).toBe(501);
    expect(error?.code).toBe('channel_type_unsupported');
    expect(error?.message).toBe(
      'model m in group default has no channel the relay can serve: channels of type Baidu Wenxin (15) cannot be served yet',
    );
  });

  it('names every such type once, and says which endpoint a served type lacks', () => {
    const index = buildChannelIndex(
      [
        row(1, { type: 17 }),
        row(2, { type: 15 }),
        row(3, { type: 15 }),
        row(4, { type: 14 }),
        row(5, { type: 99 }),
      ],
      [ability(1, 5, 0), ability(2, 5, 0), ability(3, 0, 0), ability(4, 0, 0), ability(5, 0, 0)],
    );
    expect(unserved(index, 'embeddings')?.message).toBe(
      'model m in group default has no channel the relay can serve: channels of types Baidu Wenxin (15), ' +
        'Alibaba Qwen (17), 99 cannot be served yet; channels of type Anthropic Claude (14) cannot serve ' +
        'embeddings calls yet',
    );
  });

  it('is nothing when one channel can serve the call, or when the listed channels are all disabled', () => {
    expect(
      unserved(buildChannelIndex([row(1, { type: 15 }), row(2)], [ability(1, 9, 0), ability(2, 0, 0)])),
    ).toBeUndefined();
    expect(unserved(buildChannelIndex([row(1, { status: 2 })], [ability(1, 0, 0)]))).toBeUndefined();
    expect(
      unserved(buildChannelIndex([row(1, { type: 15 })], [ability(1, 0, 0, { enabled: 0 })])),
    ).toBeUndefined();
  });
});
