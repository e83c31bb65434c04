// Channel management payloads (spec part 1 §3/§5, part 2 §3/§5/§7): the channel form, the tag edit,
// the list queries, and the shapes the server answers with. Server and console share these.
import { z } from 'zod';
import { CHANNEL_TYPE_BY_VALUE } from '../constants/channel-types.js';
import { CHANNEL_STATUS } from '../constants/statuses.js';
import { MSG } from '../messages.js';
import { idSchema } from './ids.js';
import { listPageNumber, listPageSize } from './list-page.js';

/** Splits comma lists (or arrays of them), trims, drops blanks and duplicates, keeps order. */
export function splitCommaList(value: string | readonly string[]): string[] {
  const parts = (typeof value === 'string' ? [value] : value).flatMap((v) => v.split(','));
  return [...new Set(parts.map((s) => s.trim()).filter((s) => s !== ''))];
}

// Absent and null both mean "not given": on update the stored value stays.
const optText = z
  .string()
  .nullish()
  .transform((v) => v ?? undefined);

const listField = z
  .union([z.array(z.string()), z.string()])
  .nullish()
  .transform((v) => (v == null ? undefined : splitCommaList(v)));

/**
 * Column sizes behind a channel's lists: each group and model is a key of the abilities table
 * (64 and 255 characters), and the groups are also stored joined by commas in 255 characters.
 */
export const CHANNEL_LIST_MAX_LENGTH = { group: 64, groups: 255, model: 255 } as const;

const groupsField = listField.superRefine((groups, ctx) => {
  if (groups === undefined) return;
  const long = groups.find((g) => g.length > CHANNEL_LIST_MAX_LENGTH.group);
  if (long !== undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `a group name must be at most ${CHANNEL_LIST_MAX_LENGTH.group} characters`,
    });
  } else if (groups.join(',').length > CHANNEL_LIST_MAX_LENGTH.groups) {
    ctx.addIssue({
      code: 'custom',
      message: `the groups together must be at most ${CHANNEL_LIST_MAX_LENGTH.groups} characters`,
    });
  }
});

const modelsField = listField.refine(
  (models) => models === undefined || models.every((m) => m.length <= CHANNEL_LIST_MAX_LENGTH.model),
  { error: `a model name must be at most ${CHANNEL_LIST_MAX_LENGTH.model} characters` },
);

/** An integer given as a number or a numeric string (form inputs send either). */
const intField = (message: string) =>
  z
    .union([z.number(), z.string()], { error: message })
    .nullish()
    .transform((v, ctx): number | undefined => {
      if (v == null || (typeof v === 'string' && v.trim() === '')) return undefined;
      const n = typeof v === 'number' ? v : Number(v.trim());
      if (!Number.isSafeInteger(n)) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return n;
    });

const priorityField = intField(MSG.priorityNotInteger).refine((n) => n === undefined || n >= -999, {
  error: MSG.priorityTooLow,
});

/** JSON text that must hold an object (empty text allowed); stored trimmed, as given. */
const jsonObjectText = (stringValues: boolean) =>
  z
    .string()
    .nullish()
    .transform((v, ctx): string | undefined => {
      if (v == null) return undefined;
      const text = v.trim();
      if (text === '') return '';
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        ctx.addIssue({ code: 'custom', message: MSG.notValidJson });
        return z.NEVER;
      }
      if (stringValues && Object.values(parsed).some((x) => typeof x !== 'string')) {
        ctx.addIssue({ code: 'custom', message: MSG.modelMappingNotStrings });
        return z.NEVER;
      }
      return text;
    });

const channelType = intField(MSG.unknownChannelType).refine(
  (n) => n === undefined || CHANNEL_TYPE_BY_VALUE.has(n),
  { error: MSG.unknownChannelType },
);

const autoBan = z
  .union([z.literal(0), z.literal(1), z.boolean()], { error: 'auto_ban must be 0 or 1' })
  .nullish()
  .transform((v) => (v == null ? undefined : Number(v)));

/** The channels table keeps at most 255 characters of a tag. */
export const CHANNEL_TAG_MAX_LENGTH = 255;
const tagText = optText
  .transform((v) => v?.trim())
  .refine((v) => v === undefined || v.length <= CHANNEL_TAG_MAX_LENGTH, {
    error: MSG.tagTooLong(CHANNEL_TAG_MAX_LENGTH),
  });

/** Column sizes of the channels table (varchar): longer text is refused, never cut or stored whole. */
export const CHANNEL_TEXT_MAX_LENGTH = {
  name: 255,
  openai_organization: 255,
  test_model: 255,
  base_url: 512,
} as const;
const boundedText = (field: keyof typeof CHANNEL_TEXT_MAX_LENGTH) =>
  optText
    .transform((v) => v?.trim())
    .refine((v) => v === undefined || v.length <= CHANNEL_TEXT_MAX_LENGTH[field], {
      error: `${field} must be at most ${CHANNEL_TEXT_MAX_LENGTH[field]} characters`,
    });

const formFields = z.object({
  name: boundedText('name'),
  type: channelType,
  key: optText.transform((v) => v?.trim()),
  openai_organization: boundedText('openai_organization'),
  max_input_tokens: intField('max_input_tokens must be a non-negative integer').refine(
    (n) => n === undefined || n >= 0,
    { error: 'max_input_tokens must be a non-negative integer' },
  ),
  base_url: boundedText('base_url').transform((v) => v?.replace(/\/+$/, '')),
  other: optText.transform((v) => v?.trim()),
  model_mapping: jsonObjectText(true),
  status_code_mapping: jsonObjectText(false),
  models: modelsField,
  /** The form's array; `group` (the wire's comma string) is accepted too. */
  groups: groupsField,
  group: groupsField,
  auto_ban: autoBan,
  test_model: boundedText('test_model'),
  priority: priorityField,
  // Spec part 2 §5: a single channel's weight below 0 becomes 0.
  weight: intField('weight must be an integer').transform((n) => (n === undefined ? n : Math.max(0, n))),
  tag: tagText,
});

const mergeGroups = <T extends { groups?: string[] | undefined; group?: string[] | undefined }>({
  group,
  ...rest
}: T): Omit<T, 'group'> => ({ ...rest, groups: rest.groups ?? group });

/**
 * POST /api/channel/ (create, and copy: the copied fields without id). A key with several lines
 * creates one channel per line; for Vertex (41) the key holds service-account JSON objects.
 * Absent fields take the defaults: type 1, group default, auto_ban 1, priority 0, weight 0.
 */
export const channelCreateSchema = formFields.transform(mergeGroups);
export type ChannelCreateInput = z.output<typeof channelCreateSchema>;

const channelId = idSchema('invalid channel id');

/**
 * PUT /api/channel/: fields given replace the stored ones, absent ones stay — so the full form
 * (an empty key keeps the stored key) and the list's inline edits {id, status | priority | weight}
 * use the same call. Status 1 enables, 2 disables.
 */
export const channelUpdateSchema = formFields
  .extend({
    id: channelId,
    status: z.union([z.literal(1), z.literal(2)], { error: MSG.channelStatusInvalid }).optional(),
  })
  .transform(mergeGroups);
export type ChannelUpdateInput = z.output<typeof channelUpdateSchema>;

/**
 * PUT /api/channel/tag: every channel with `tag` gets the given fields; newTag renames the tag.
 * Empty texts and lists count as not given (clear a mapping with "{}"); nothing given → 'no changes'.
 */
export const channelTagEditSchema = z.object({
  tag: z.string({ error: MSG.tagRequired }).trim().min(1, MSG.tagRequired),
  newTag: tagText,
  priority: priorityField,
  weight: intField(MSG.weightNotNonNegative).refine((n) => n === undefined || n >= 0, {
    error: MSG.weightNotNonNegative,
  }),
  model_mapping: jsonObjectText(true),
  groups: groupsField,
  models: modelsField,
});
export type ChannelTagEditInput = z.output<typeof channelTagEditSchema>;

export const channelTagSchema = z.object({
  tag: z.string({ error: MSG.tagRequired }).trim().min(1, MSG.tagRequired),
});

export const channelIdsSchema = z.object({
  ids: z.array(channelId, { error: MSG.selectChannelsToDelete }).min(1, MSG.selectChannelsToDelete),
});

/** POST /api/channel/batch/tag: sets the tag of the channels; an empty or null tag clears it. */
export const channelBatchTagSchema = z.object({
  ids: z.array(channelId, { error: MSG.selectChannelsFirst }).min(1, MSG.selectChannelsFirst),
  tag: tagText.transform((v) => v ?? ''),
});
export type ChannelBatchTagInput = z.output<typeof channelBatchTagSchema>;

/**
 * POST /api/channel/fetch_models: the model list of an upstream that is not stored yet (the create
 * form). An empty base_url means the type's public address. The key field is kept whole (trimmed): it
 * may hold several keys, one per line or, for Vertex, several service-account JSON objects, and the
 * server asks with the first key of the type's kind.
 */
export const channelFetchModelsSchema = z.object({
  base_url: optText.transform((v) => v?.trim().replace(/\/+$/, '') ?? ''),
  type: channelType.transform((n) => n ?? 1),
  key: z
    .string({ error: MSG.channelKeyRequired })
    .nullish()
    .transform((v, ctx) => {
      const text = (v ?? '').trim();
      if (text === '') {
        ctx.addIssue({ code: 'custom', message: MSG.channelKeyRequired });
        return z.NEVER;
      }
      return text;
    }),
});
export type ChannelFetchModelsInput = z.output<typeof channelFetchModelsSchema>;

const boolQuery = z
  .union([z.boolean(), z.string()])
  .optional()
  .transform((v) => v === true || v === 'true' || v === '1');

/**
 * GET /api/channel/: `p` counts from 0; as in every list (./list-page.ts), a `p` that does not parse
 * is the first page and a `page_size` that does not parse the default size; above 100 it is 100.
 */
export const channelListQuerySchema = z.object({
  p: listPageNumber,
  page_size: listPageSize,
  id_sort: boolQuery,
  tag_mode: boolQuery,
});

/** GET /api/channel/search: keyword matches the id exactly, name or key as a substring. */
export const channelSearchQuerySchema = z.object({
  keyword: z.string().trim().default(''),
  group: z.string().trim().default(''),
  model: z.string().trim().default(''),
  id_sort: boolQuery,
  tag_mode: boolQuery,
});

/** A channel as the server answers it: everything but the key. */
export const channelViewSchema = z.object({
  id: z.number(),
  type: z.number(),
  name: z.string(),
  status: z.number(),
  /** Comma-separated. */
  group: z.string(),
  /** Comma-separated. */
  models: z.string(),
  /** The models the list's per-model test menu offers (the channel's models). */
  test_models: z.array(z.string()),
  test_model: z.string(),
  openai_organization: z.string(),
  max_input_tokens: z.number(),
  base_url: z.string(),
  other: z.string(),
  model_mapping: z.string(),
  status_code_mapping: z.string(),
  auto_ban: z.number(),
  priority: z.number(),
  weight: z.number(),
  tag: z.string(),
  /** Milliseconds of the last test; 0 means untested. */
  response_time: z.number(),
  test_time: z.number(),
  used_quota: z.number(),
  balance: z.number(),
  balance_updated_time: z.number(),
  created_time: z.number(),
  /** JSON text as stored: status_reason and status_time when the channel was auto-disabled. */
  other_info: z.string(),
  setting: z.string(),
});
export type ChannelView = z.infer<typeof channelViewSchema>;

/**
 * A tag row of the console's tag mode. In tag mode (tag_mode=true) the server answers plain
 * channels: a page of entries (each tag with all its channels, each untagged channel alone), flat,
 * as new-api does; the console folds each tag's channels into one of these with `groupChannelsByTag`:
 * - status: 1 when every child is enabled, 2 when none is, 0 when mixed;
 * - priority / weight: the children's common value, or null when they differ;
 * - type: the common type, or 0 when they differ;
 * - group / models: the union of the children's lists (comma-separated);
 * - used_quota / balance: sums; response_time: average over tested children; test_time: latest.
 */
export const channelTagRowSchema = z.object({
  is_tag: z.literal(true),
  tag: z.string(),
  name: z.string(),
  type: z.number(),
  status: z.number(),
  enabled_count: z.number(),
  channel_count: z.number(),
  priority: z.number().nullable(),
  weight: z.number().nullable(),
  group: z.string(),
  models: z.string(),
  used_quota: z.number(),
  balance: z.number(),
  response_time: z.number(),
  test_time: z.number(),
  children: z.array(channelViewSchema),
});
export type ChannelTagRow = z.infer<typeof channelTagRowSchema>;

export const channelListItemSchema = z.union([channelTagRowSchema, channelViewSchema]);
export type ChannelListItem = ChannelView | ChannelTagRow;

export const isChannelTagRow = (row: ChannelListItem): row is ChannelTagRow => 'is_tag' in row && row.is_tag;

const commonValue = (values: readonly number[]): number | null =>
  values.every((v) => v === values[0]) ? (values[0] ?? null) : null;

/** The tag row of `children`, the channels sharing `tag`. */
function toTagRow(tag: string, children: ChannelView[]): ChannelTagRow {
  const enabled = children.filter((c) => c.status === CHANNEL_STATUS.enabled).length;
  const tested = children.filter((c) => c.response_time > 0);
  return {
    is_tag: true,
    tag,
    name: tag,
    type: commonValue(children.map((c) => c.type)) ?? 0,
    status:
      enabled === children.length
        ? CHANNEL_STATUS.enabled
        : enabled === 0
          ? CHANNEL_STATUS.manuallyDisabled
          : 0,
    enabled_count: enabled,
    channel_count: children.length,
    priority: commonValue(children.map((c) => c.priority)),
    weight: commonValue(children.map((c) => c.weight)),
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
export function groupChannelsByTag(channels: readonly ChannelView[]): ChannelListItem[] {
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

/** POST /api/channel/ answer. */
export interface ChannelCreateResult {
  ids: number[];
  count: number;
}

/** GET /api/channel/test/:id answer: seconds the test call took. */
export interface ChannelTestResult {
  time: number;
}

/** GET /api/channel/update_balance answer. */
export interface ChannelBalanceSummary {
  updated: number;
  failed: number;
}

/** GET /api/channel/models answer items. */
export interface ChannelModelEntry {
  id: string;
  object: 'model';
  owned_by: string;
}
