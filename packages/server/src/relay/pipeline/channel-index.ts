// The channel index the relay selects from: group → model → priority tiers of enabled channels,
// built from the abilities and channels tables. Pure: building and picking do no I/O.
import { CHANNEL_STATUS, CHANNEL_TYPE_BY_VALUE } from '@sluice/shared';
import type { ChannelRow } from '../../db/tables.js';
import { RelayError } from '../ir/errors.js';
import type { RelayMode } from '../ir/request.js';
import { taskPlatformOf } from '../tasks/platforms.js';
import type { TaskPlatform } from '../tasks/platforms.js';
import { adapterFor, canServe } from '../providers/registry.js';
import type { ChatWire } from '../wire/types.js';
import type { ChannelTarget } from '../providers/types.js';

/** The longest model name the relay looks up: a longer one is a malformed call, not a missing model. */
export const MODEL_NAME_MAX_LENGTH = 256;

/** Refuses a model name no channel can list: one with a NUL byte (no database stores it) or over-long. */
export function checkModelName(model: string): void {
  if (model.includes('\u0000'))
    throw new RelayError(400, 'the model name must not contain a NUL character', 'invalid_request');
  if (model.length > MODEL_NAME_MAX_LENGTH)
    throw new RelayError(
      400,
      `the model name must be at most ${MODEL_NAME_MAX_LENGTH} characters`,
      'invalid_request',
    );
}

export interface RelayChannel extends ChannelTarget {
  id: number;
  name: string;
  status: number;
  priority: number;
  weight: number;
  autoBan: boolean;
  /** Requested model → upstream model (the channel's model_mapping). */
  modelMapping: ReadonlyMap<string, string>;
  /** Upstream status → status the client sees (the channel's status_code_mapping). */
  statusCodeMapping: ReadonlyMap<number, number>;
  otherInfo: string;
}

export interface AbilityEntry {
  group: string;
  model: string;
  channel_id: number;
  enabled: number;
  priority: number;
  weight: number;
}

interface TierMember {
  channel: RelayChannel;
  weight: number;
}

/** Channels of one priority; a retry leaves a tier only when every member has failed. */
export interface Tier {
  priority: number;
  members: TierMember[];
}

export interface ChannelIndex {
  byId: ReadonlyMap<number, RelayChannel>;
  tiers(group: string, model: string): readonly Tier[];
  /** Whether any channel, enabled or not, lists the model for the group. */
  listed(group: string, model: string): boolean;
}

function parseJsonObject(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

export function parseModelMapping(text: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const [from, to] of Object.entries(parseJsonObject(text))) {
    if (typeof to === 'string' && to !== '') map.set(from, to);
  }
  return map;
}

export function parseStatusCodeMapping(text: string): Map<number, number> {
  const map = new Map<number, number>();
  for (const [from, to] of Object.entries(parseJsonObject(text))) {
    const source = Number(from);
    const target = Number(to);
    if (Number.isInteger(source) && Number.isInteger(target) && target >= 100 && target <= 599) {
      map.set(source, target);
    }
  }
  return map;
}

export function toRelayChannel(row: ChannelRow): RelayChannel {
  return {
    id: Number(row.id),
    name: row.name,
    type: row.type,
    key: row.key,
    baseUrl: row.base_url,
    organization: row.openai_organization,
    other: row.other,
    status: row.status,
    priority: Number(row.priority),
    weight: Number(row.weight),
    autoBan: row.auto_ban === 1,
    modelMapping: parseModelMapping(row.model_mapping),
    statusCodeMapping: parseStatusCodeMapping(row.status_code_mapping),
    otherInfo: row.other_info,
  };
}

export function buildChannelIndex(
  channels: readonly ChannelRow[],
  abilities: readonly AbilityEntry[],
): ChannelIndex {
  const byId = new Map<number, RelayChannel>();
  for (const row of channels) byId.set(Number(row.id), toRelayChannel(row));
  const groups = new Map<string, Map<string, Tier[]>>();
  const listed = new Set<string>();
  for (const ability of abilities) {
    listed.add(`${ability.group}\n${ability.model}`);
    const channel = byId.get(Number(ability.channel_id));
    if (!channel || ability.enabled !== 1 || channel.status !== CHANNEL_STATUS.enabled) continue;
    let models = groups.get(ability.group);
    if (!models) groups.set(ability.group, (models = new Map()));
    let tiers = models.get(ability.model);
    if (!tiers) models.set(ability.model, (tiers = []));
    const priority = Number(ability.priority);
    let tier = tiers.find((t) => t.priority === priority);
    if (!tier) tiers.push((tier = { priority, members: [] }));
    tier.members.push({ channel, weight: Math.max(0, Number(ability.weight)) });
  }
  for (const models of groups.values()) {
    for (const tiers of models.values()) tiers.sort((a, b) => b.priority - a.priority);
  }
  return {
    byId,
    tiers: (group, model) => groups.get(group)?.get(model) ?? [],
    listed: (group, model) => listed.has(`${group}\n${model}`),
  };
}

export interface PickOptions {
  group: string;
  model: string;
  mode: RelayMode | TaskPlatform;
  /** Channels already tried in this request. */
  exclude: ReadonlySet<number>;
  /** Only upstreams speaking this dialect: the client's format cannot be converted (Gemini embeddings). */
  wire?: ChatWire;
  /** In [0, 1); Math.random unless a test fixes it. */
  random?: () => number;
}

/** Highest tier that still has an untried channel; weighted random inside it (all zero = uniform). */
export function pickChannel(index: ChannelIndex, opts: PickOptions): RelayChannel | undefined {
  const random = opts.random ?? Math.random;
  const eligible = (m: TierMember) =>
    !opts.exclude.has(m.channel.id) && canServe(m.channel.type, opts.mode, opts.wire);
  // Two passes over a tier instead of a filtered copy: this runs on every call.
  for (const tier of index.tiers(opts.group, opts.model)) {
    let count = 0;
    let total = 0;
    for (const m of tier.members) {
      if (!eligible(m)) continue;
      count++;
      total += m.weight;
    }
    if (count === 0) continue;
    let last: RelayChannel | undefined;
    if (total === 0) {
      let nth = Math.floor(random() * count);
      for (const m of tier.members) {
        if (!eligible(m)) continue;
        if (nth-- === 0) return m.channel;
        last = m.channel;
      }
      return last;
    }
    let point = random() * total;
    for (const m of tier.members) {
      if (!eligible(m)) continue;
      point -= m.weight;
      if (point < 0) return m.channel;
      last = m.channel;
    }
    return last;
  }
  return undefined;
}

const NOTHING_TRIED: ReadonlySet<number> = new Set();
const FIRST = () => 0;

/** Whether any channel could serve this group and model (for a clear 503 before any reservation). */
export const hasChannel = (
  index: ChannelIndex,
  group: string,
  model: string,
  mode: RelayMode,
  wire?: ChatWire,
): boolean =>
  pickChannel(index, {
    group,
    model,
    mode,
    exclude: NOTHING_TRIED,
    random: FIRST,
    wire,
  }) !== undefined;

/** "type Baidu Wenxin (15)", "types Baidu Wenxin (15), 99" (a number the type table does not know). */
function typeNames(types: readonly number[]): string {
  const names = types.map((t) => {
    const label = CHANNEL_TYPE_BY_VALUE.get(t)?.label;
    return label ? `${label} (${t})` : String(t);
  });
  return `${types.length > 1 ? 'types' : 'type'} ${names.join(', ')}`;
}

/**
 * The 501 for a call only channels of unserved types could take: types without an adapter "cannot be
 * served yet", types whose adapter lacks the endpoint (or that run tasks) "cannot serve <mode> calls
 * yet". `subject` opens
 * the sentence (which call or channel this is about).
 */
export function unservedTypeError(types: readonly number[], mode: RelayMode, subject: string): RelayError {
  // A task channel (Midjourney, Suno) is served, for its tasks only.
  const servedAtAll = (t: number) => adapterFor(t) !== undefined || taskPlatformOf(t) !== undefined;
  const unknown = types.filter((t) => !servedAtAll(t));
  const partial = types.filter(servedAtAll);
  const reasons = [
    ...(unknown.length > 0 ? [`channels of ${typeNames(unknown)} cannot be served yet`] : []),
    ...(partial.length > 0 ? [`channels of ${typeNames(partial)} cannot serve ${mode} calls yet`] : []),
  ];
  return new RelayError(501, `${subject}: ${reasons.join('; ')}`, 'channel_type_unsupported');
}

/**
 * When no channel can take a call although enabled channels list its model, and every one of them is
 * of a type that cannot serve the call: the 501 naming those types, so an operator's prepared channel
 * reads as "not supported yet", never as an outage. Undefined when no enabled channel lists the model
 * (all disabled: a 503) or one of them could serve it.
 */
export function unservedChannelsError(
  index: ChannelIndex,
  group: string,
  model: string,
  mode: RelayMode,
): RelayError | undefined {
  const types = new Set<number>();
  for (const tier of index.tiers(group, model)) {
    for (const member of tier.members) {
      if (canServe(member.channel.type, mode)) return undefined;
      types.add(member.channel.type);
    }
  }
  if (types.size === 0) return undefined;
  const sorted = [...types].sort((a, b) => a - b);
  return unservedTypeError(
    sorted,
    mode,
    `model ${model} in group ${group} has no channel the relay can serve`,
  );
}
