// The console's one table of channel types: everything the list and the drawer do differently per
// type (extra input in `other`, key hint and input, prefilled models, upstream model list, balance
// currency, whether the relay serves it yet) is read from here, so no component tests a type number
// itself.
import { CHANNEL_TYPES, channelTypeModels, isRelayServedType, taskEndpointOf } from '@sluice/shared';

/** What the `other` field means for a type; absent when the type has no extra input. */
export interface OtherInput {
  /** Names the label, placeholder and help texts (channels.other.<kind>). */
  kind: 'apiVersion' | 'sparkVersion' | 'region';
  /** The value a new channel gets when the field is left empty (may depend on its models). */
  defaultFor(models: readonly string[]): string;
  /** Several lines (a region may be a JSON map of model → region). */
  multiline?: boolean;
}

/** Names the key's explanation beside the key field (channels.keyHint.<kind>). */
export type KeyHint = 'azure' | 'anthropic' | 'gemini' | 'bedrock' | 'vertex';

export interface ChannelTypeUi {
  value: number;
  /** The relay can call channels of this type (@sluice/shared RELAY_SUPPORT); others are only stored. */
  served: boolean;
  /** The vendor's name, as the shared table spells it (translated in i18n when it has words). */
  label: string;
  color: string;
  /** Spec part 1 §9 key formats (shared table); shown beside the key field. */
  keyFormat?: string;
  /** What the key is and how it is written, in words; shown instead of the bare key format. */
  keyHint?: KeyHint;
  /** An example of the key's shape, for the empty key field. */
  keyPlaceholder?: string;
  /** 'serviceAccountJson': the key is JSON and may be uploaded as files (one channel per file). */
  keyInput: 'lines' | 'serviceAccountJson';
  other?: OtherInput;
  /** Models a type switch fills in instead of the catalog's (GET /api/models). */
  fixedModels?: readonly string[];
  /** "Fetch models" works: the server asks the upstream for its list in the vendor's way. */
  fetchModels: boolean;
  /** Shows the OpenAI organization field. */
  organization: boolean;
  /** The vendor's public address, shown as the base URL placeholder. */
  baseUrlPlaceholder?: string;
  /** Currency of the balance its upstream reports; absent when it reports none. */
  balanceCurrency?: '$' | '¥';
}

export const VERTEX_DEFAULT_REGION = 'us-central1';
export const VERTEX_CLAUDE_REGION = 'europe-west1';

const isClaudeModel = (model: string): boolean => model.toLowerCase().startsWith('claude');

/**
 * Vertex region default (spec part 1 §9): us-central1, europe-west1 for a Claude-family model. A
 * channel serving both kinds gets a JSON map of model → region with a "default" entry.
 */
export function vertexRegionFor(models: readonly string[]): string {
  const claude = models.filter(isClaudeModel);
  if (claude.length === 0) return VERTEX_DEFAULT_REGION;
  if (claude.length === models.length) return VERTEX_CLAUDE_REGION;
  const map: Record<string, string> = { default: VERTEX_DEFAULT_REGION };
  for (const model of claude) map[model] = VERTEX_CLAUDE_REGION;
  return JSON.stringify(map, null, 2);
}

const fixed =
  (value: string): OtherInput['defaultFor'] =>
  () =>
    value;

/** Per-type differences; types not listed behave as a plain OpenAI-compatible channel. */
const DIFFERENCES: Record<number, Partial<Omit<ChannelTypeUi, 'value' | 'label' | 'served'>>> = {
  1: { color: 'green', organization: true, balanceCurrency: '$' },
  2: { color: 'blue', fixedModels: channelTypeModels(2) },
  5: { color: 'geekblue', fixedModels: channelTypeModels(5) },
  36: { color: 'purple', fixedModels: channelTypeModels(36) },
  3: {
    color: 'cyan',
    keyHint: 'azure',
    other: { kind: 'apiVersion', defaultFor: fixed('2023-06-01-preview') },
  },
  14: { keyHint: 'anthropic', keyPlaceholder: 'sk-ant-…' },
  24: { keyHint: 'gemini', keyPlaceholder: 'AIza…' },
  33: { keyHint: 'bedrock', keyPlaceholder: 'AccessKeyId|SecretAccessKey|us-east-1' },
  18: { color: 'blue', other: { kind: 'sparkVersion', defaultFor: fixed('v2.1') } },
  41: {
    color: 'orange',
    keyInput: 'serviceAccountJson',
    keyHint: 'vertex',
    keyPlaceholder: '{"type": "service_account", "project_id": …}',
    other: { kind: 'region', defaultFor: vertexRegionFor, multiline: true },
  },
  8: { balanceCurrency: '$' },
  25: { balanceCurrency: '¥' },
  40: { balanceCurrency: '¥' },
};

const PALETTE = [
  'blue',
  'cyan',
  'geekblue',
  'green',
  'gold',
  'lime',
  'magenta',
  'orange',
  'purple',
  'volcano',
];

export const CHANNEL_TYPE_TABLE: readonly ChannelTypeUi[] = CHANNEL_TYPES.map((shared, index) => ({
  value: shared.value,
  served: isRelayServedType(shared.value),
  label: shared.label,
  color: PALETTE[index % PALETTE.length] ?? 'default',
  keyFormat: shared.keyFormat,
  keyInput: 'lines' as const,
  // Every type the relay serves calls with has its vendor's model list on the server (relay/model-lists);
  // task types (Midjourney, Suno) list no models: theirs are the fixed action models.
  fetchModels: isRelayServedType(shared.value) && taskEndpointOf(shared.value) === undefined,
  organization: false,
  baseUrlPlaceholder: shared.baseUrl,
  ...DIFFERENCES[shared.value],
}));

const BY_VALUE = new Map(CHANNEL_TYPE_TABLE.map((t) => [t.value, t]));

/** The type's row; undefined for a number the table does not know ('unknown type'). */
export const channelTypeUi = (type: number): ChannelTypeUi | undefined => BY_VALUE.get(type);

/** The type's row, or the default type's (1) so a form always has something to go by. */
export const channelTypeOrDefault = (type: number): ChannelTypeUi =>
  BY_VALUE.get(type) ?? (BY_VALUE.get(1) as ChannelTypeUi);

/** Whether the relay can call channels of this type; false for a number the table does not know. */
export const isServedType = (type: number): boolean => BY_VALUE.get(type)?.served ?? false;

/** GET /api/models answer: channel type (as a string key) → known models. */
export type ModelCatalog = Record<string, string[]>;

/** The models a type switch prefills: the type's fixed list, else the catalog's. */
export function prefilledModels(type: number, catalog: ModelCatalog | undefined): string[] {
  const row = channelTypeUi(type);
  if (row?.fixedModels) return [...row.fixedModels];
  return [...(catalog?.[String(type)] ?? [])];
}

/** `other` for a new channel of this type when the field is empty ('' for a type without one). */
export const defaultOther = (type: number, models: readonly string[]): string =>
  channelTypeUi(type)?.other?.defaultFor(models) ?? '';
