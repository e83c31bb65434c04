// Pure list logic: tag mode's paging (a page of tags, each answered with all its channels) and
// search matching.
import { splitCommaList } from '@sluice/shared';
import type { ChannelView } from '@sluice/shared';

/**
 * The entries tag mode pages over, in list order: each non-empty tag once, where its first channel
 * stands, holding every channel with that tag; each untagged channel as an entry of its own.
 */
export function tagModeEntries<T extends Pick<ChannelView, 'tag'>>(channels: readonly T[]): T[][] {
  const entries: T[][] = [];
  const byTag = new Map<string, T[]>();
  for (const channel of channels) {
    if (channel.tag === '') {
      entries.push([channel]);
      continue;
    }
    const members = byTag.get(channel.tag);
    if (members) {
      members.push(channel);
    } else {
      const entry = [channel];
      byTag.set(channel.tag, entry);
      entries.push(entry);
    }
  }
  return entries;
}

/**
 * One page of tag mode, answered as plain channels (the console groups them into tag rows):
 * `limit` entries from `offset`, so a tag is never split across two pages.
 */
export const tagModePage = <T extends Pick<ChannelView, 'tag'>>(
  channels: readonly T[],
  offset: number,
  limit: number,
): T[] =>
  tagModeEntries(channels)
    .slice(offset, offset + limit)
    .flat();

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

/**
 * Search in tag mode: every tag that has a matching channel comes whole (its figures and its
 * tag-wide actions cover all its channels), untagged channels only when they match themselves.
 */
export function searchTagMode<T extends Pick<ChannelView, 'tag'>>(
  channels: readonly T[],
  matches: (channel: T) => boolean,
): T[] {
  return tagModeEntries(channels)
    .filter((entry) => entry.some(matches))
    .flat();
}
