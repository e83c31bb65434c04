// Channel management payloads (spec part 1 §3/§5, part 2 §3/§5/§7): the channel form, the tag edit,
// the list queries, and the shapes the server answers with. Server and console share these.
import { z } from 'zod';
import { CHANNEL_TYPE_BY_VALUE } from '../constants/channel-types.js';
import { MSG } from '../messages.js';

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

const formFields = z.object({
  name: optText.transform((v) => v?.trim()),
  type: channelType,
  key: optText.transform((v) => v?.trim()),
  openai_organization: optText,
  max_input_tokens: intField('max_input_tokens must be a non-negative integer').refine(
    (n) => n === undefined || n >= 0,
    { error: 'max_input_tokens must be a non-negative integer' },
  ),
  base_url: optText.transform((v) => v?.trim().replace(/\/+$/, '')),
  other: optText.transform((v) => v?.trim()),
  model_mapping: jsonObjectText(true),
  status_code_mapping: jsonObjectText(false),
  models: listField,
  /** The form's array; `group` (the wire's comma string) is accepted too. */
  groups: listField,
  group: listField,
  auto_ban: autoBan,
  test_model: optText.transform((v) => v?.trim()),
  priority: priorityField,
  // Spec part 2 §5: a single channel's weight below 0 becomes 0.
  weight: intField('weight must be an integer').transform((n) => (n === undefined ? n : Math.max(0, n))),
  tag: optText.transform((v) => v?.trim()),
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

const channelId = z.coerce.number({ error: 'invalid channel id' }).int().positive('invalid channel id');

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
  newTag: optText.transform((v) => v?.trim()),
  priority: priorityField,
  weight: intField(MSG.weightNotNonNegative).refine((n) => n === undefined || n >= 0, {
    error: MSG.weightNotNonNegative,
  }),
  model_mapping: jsonObjectText(true),
  groups: listField,
  models: listField,
});
export type ChannelTagEditInput = z.output<typeof channelTagEditSchema>;

export const channelTagSchema = z.object({
  tag: z.string({ error: MSG.tagRequired }).trim().min(1, MSG.tagRequired),
});

export const channelIdsSchema = z.object({
  ids: z.array(channelId, { error: MSG.selectChannelsToDelete }).min(1, MSG.selectChannelsToDelete),
});

const boolQuery = z
  .union([z.boolean(), z.string()])
  .optional()
  .transform((v) => v === true || v === 'true' || v === '1');

export const CHANNEL_PAGE_SIZE_DEFAULT = 10;
export const CHANNEL_PAGE_SIZE_MAX = 100;

/** GET /api/channel/: p is 0-based; page_size above the maximum is lowered to it. */
export const channelListQuerySchema = z.object({
  p: z.coerce.number().int().min(0).default(0),
  page_size: z.coerce
    .number()
    .int()
    .min(1)
    .default(CHANNEL_PAGE_SIZE_DEFAULT)
    .transform((n) => Math.min(n, CHANNEL_PAGE_SIZE_MAX)),
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
 * In tag mode (tag_mode=true) the channels sharing a non-empty tag come as one row:
 * - status: 1 when every child is enabled, 2 when none is, 0 when mixed;
 * - priority / weight: the children's common value, or null when they differ;
 * - type: the common type, or 0 when they differ;
 * - group / models: the union of the children's lists (comma-separated);
 * - used_quota / balance: sums; response_time: average over tested children; test_time: latest.
 * Untagged channels stay plain rows; paging counts tag rows and plain rows alike.
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
