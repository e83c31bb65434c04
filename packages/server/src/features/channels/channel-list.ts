// Pure list logic: tag-mode aggregation (one row per tag) and search matching.
import { CHANNEL_STATUS, splitCommaList } from '@sluice/shared';
import type { ChannelListItem, ChannelTagRow, ChannelView } from '@sluice/shared';

const common = (values: readonly number[]): number | null =>
  values.every((v) => v === values[0]) ? (values[0] ?? null) : null;

export function toTagRow(tag: string, children: ChannelView[]): ChannelTagRow {
  const enabled = children.filter((c) => c.status === CHANNEL_STATUS.enabled).length;
  const tested = children.filter((c) => c.response_time > 0);
  return {
    is_tag: true,
    tag,
    name: tag,
    type: common(children.map((c) => c.type)) ?? 0,
    status:
      enabled === children.length
        ? CHANNEL_STATUS.enabled
        : enabled === 0
          ? CHANNEL_STATUS.manuallyDisabled
          : 0,
    enabled_count: enabled,
    channel_count: children.length,
    priority: common(children.map((c) => c.priority)),
    weight: common(children.map((c) => c.weight)),
    group: splitCommaList(children.map((c) => c.group)).join(','),
    models: splitCommaList(children.map((c) => c.models)).join(','),
    used_quota: children.reduce((sum, c) => sum + c.used_quota, 0),
    balance: children.reduce((sum, c) => sum + c.balance, 0),
    response_time:
      tested.length === 0
        ? 0
        : Math.round(tested.reduce((sum, c) => sum + c.response_time, 0) / tested.length),
    test_time: Math.max(0, ...children.map((c) => c.test_time)),
    children,
  };
}

/**
 * Folds channels sharing a non-empty tag into one row, placed where its first channel stands in
 * the given order; untagged channels stay as they are.
 */
export function aggregateByTag(channels: readonly ChannelView[]): ChannelListItem[] {
  const groups = new Map<string, ChannelView[]>();
  const order: (ChannelView | string)[] = [];
  for (const channel of channels) {
    if (channel.tag === '') {
      order.push(channel);
      continue;
    }
    const members = groups.get(channel.tag);
    if (members) {
      members.push(channel);
    } else {
      groups.set(channel.tag, [channel]);
      order.push(channel.tag);
    }
  }
  return order.map((item) => (typeof item === 'string' ? toTagRow(item, groups.get(item) ?? []) : item));
}

export interface ChannelSearch {
  keyword: string;
  group: string;
  model: string;
}

/** Keyword: the id exactly (when numeric), or a substring of the name (any case) or of the key. */
export function matchesSearch(channel: ChannelView & { key: string }, search: ChannelSearch): boolean {
  const { keyword, group, model } = search;
  if (keyword !== '') {
    const byId = /^\d+$/.test(keyword) && channel.id === Number(keyword);
    const byName = channel.name.toLowerCase().includes(keyword.toLowerCase());
    const byKey = channel.key.includes(keyword);
    if (!byId && !byName && !byKey) return false;
  }
  if (group !== '' && !splitCommaList(channel.group).includes(group)) return false;
  if (model !== '' && !channel.models.toLowerCase().includes(model.toLowerCase())) return false;
  return true;
}
