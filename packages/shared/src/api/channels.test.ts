import { describe, expect, it } from 'vitest';
import { MSG } from '../messages.js';
import type { ChannelView } from './channels.js';
import {
  channelBatchTagSchema,
  channelFetchModelsSchema,
  groupChannelsByTag,
  isChannelTagRow,
} from './channels.js';

const channel = (id: number, over: Partial<ChannelView> = {}): ChannelView => ({
  id,
  type: 1,
  name: `c${id}`,
  status: 1,
  group: 'default',
  models: 'gpt-4o',
  test_models: ['gpt-4o'],
  test_model: '',
  openai_organization: '',
  max_input_tokens: 0,
  base_url: '',
  other: '',
  model_mapping: '',
  status_code_mapping: '',
  auto_ban: 1,
  priority: 0,
  weight: 0,
  tag: '',
  response_time: 0,
  test_time: 0,
  used_quota: 0,
  balance: 0,
  balance_updated_time: 0,
  created_time: 0,
  other_info: '{}',
  setting: '{}',
  ...over,
});

const firstMessage = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  result.success ? null : result.error?.issues[0]?.message;

describe('grouping channels by tag', () => {
  it('folds each tag into one row where its first channel stands, untagged channels as they are', () => {
    const rows = groupChannelsByTag([
      channel(1, { tag: 'a', priority: 5, weight: 1, group: 'vip', models: 'm1', used_quota: 10 }),
      channel(2),
      channel(3, { tag: 'b', status: 2 }),
      channel(4, {
        tag: 'a',
        priority: 5,
        weight: 2,
        status: 3,
        group: 'default,vip',
        models: 'm2,m1',
        used_quota: 5,
        response_time: 300,
        test_time: 9,
      }),
      channel(5, { tag: 'a', type: 14, response_time: 100, priority: 5, weight: 1 }),
    ]);
    expect(rows.map((r) => (isChannelTagRow(r) ? `tag:${r.tag}` : r.id))).toEqual(['tag:a', 2, 'tag:b']);
    const [a, , b] = rows;
    expect(a).toMatchObject({
      is_tag: true,
      name: 'a',
      type: 0,
      status: 0,
      enabled_count: 2,
      channel_count: 3,
      priority: 5,
      weight: null,
      group: 'vip,default',
      models: 'm1,m2,gpt-4o',
      used_quota: 15,
      response_time: 200,
      test_time: 9,
    });
    expect(isChannelTagRow(a!) && a.children.map((c) => c.id)).toEqual([1, 4, 5]);
    expect(b).toMatchObject({ status: 2, enabled_count: 0, channel_count: 1, type: 1, priority: 0 });
    expect(groupChannelsByTag([channel(7, { tag: 'x' })])[0]).toMatchObject({ status: 1 });
  });
});

describe('channel action payloads', () => {
  it('reads the create form model-list request: the key field trimmed, base_url trimmed, type 1 by default', () => {
    expect(
      channelFetchModelsSchema.parse({ key: '\n sk-a \nsk-b', base_url: ' https://x.example// ' }),
    ).toEqual({
      key: 'sk-a \nsk-b',
      base_url: 'https://x.example',
      type: 1,
    });
    expect(channelFetchModelsSchema.parse({ key: 'k', type: '8', base_url: null })).toEqual({
      key: 'k',
      base_url: '',
      type: 8,
    });
    expect(firstMessage(channelFetchModelsSchema.safeParse({ type: 1 }))).toBe(MSG.channelKeyRequired);
    expect(firstMessage(channelFetchModelsSchema.safeParse({ key: ' \n ' }))).toBe(MSG.channelKeyRequired);
    expect(firstMessage(channelFetchModelsSchema.safeParse({ key: 'k', type: 1000 }))).toBe(
      MSG.unknownChannelType,
    );
  });

  it('reads a batch tag: a trimmed tag, and empty or null clearing it', () => {
    expect(channelBatchTagSchema.parse({ ids: [1, '2'], tag: ' t ' })).toEqual({ ids: [1, 2], tag: 't' });
    expect(channelBatchTagSchema.parse({ ids: [1], tag: null })).toEqual({ ids: [1], tag: '' });
    expect(channelBatchTagSchema.parse({ ids: [1] })).toEqual({ ids: [1], tag: '' });
    expect(firstMessage(channelBatchTagSchema.safeParse({ ids: [], tag: 't' }))).toBe(
      MSG.selectChannelsFirst,
    );
    expect(firstMessage(channelBatchTagSchema.safeParse({ tag: 't' }))).toBe(MSG.selectChannelsFirst);
    expect(channelBatchTagSchema.safeParse({ ids: [0], tag: 't' }).success).toBe(false);
    expect(firstMessage(channelBatchTagSchema.safeParse({ ids: [1], tag: 'x'.repeat(256) }))).toBe(
      MSG.tagTooLong(255),
    );
    expect(channelBatchTagSchema.parse({ ids: [1], tag: ` ${'x'.repeat(255)} ` }).tag).toHaveLength(255);
  });
});
