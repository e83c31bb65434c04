// The channel drawer's rules, apart from React: defaults, loading a channel into the form, what a
// type switch changes, custom models, and turning the form into the request body (spec part 1 §5
// "Channel submit"). The shared zod schema has the last word, as on the server.
import { channelCreateSchema, channelUpdateSchema, splitCommaList } from '@sluice/shared';
import type { ChannelView } from '@sluice/shared';
import type { ChannelPayload } from './api';
import { channelTypeOrDefault, defaultOther, prefilledModels } from './channel-type-table';
import type { ModelCatalog } from './channel-type-table';

export interface ChannelFormValues {
  name: string;
  type: number;
  key: string;
  openai_organization: string;
  max_input_tokens: number | null;
  base_url: string;
  other: string;
  model_mapping: string;
  status_code_mapping: string;
  models: string[];
  groups: string[];
  auto_ban: boolean;
  test_model: string;
  priority: number | null;
  weight: number | null;
  tag: string;
}

/** Spec part 1 §9: type 1, groups [default], auto_ban 1, priority 0, weight 0. */
export const NEW_CHANNEL_DEFAULTS: ChannelFormValues = {
  name: '',
  type: 1,
  key: '',
  openai_organization: '',
  max_input_tokens: 0,
  base_url: '',
  other: '',
  model_mapping: '',
  status_code_mapping: '',
  models: [],
  groups: ['default'],
  auto_ban: true,
  test_model: '',
  priority: 0,
  weight: 0,
  tag: '',
};

export const MODEL_MAPPING_TEMPLATE = JSON.stringify({ 'gpt-3.5-turbo': 'gpt-3.5-turbo-0125' }, null, 2);
export const STATUS_CODE_MAPPING_TEMPLATE = JSON.stringify({ '400': '500' }, null, 2);

/** A stored channel as the edit form shows it; the key stays empty (empty keeps the stored one). */
export function toFormValues(channel: ChannelView): ChannelFormValues {
  return {
    name: channel.name,
    type: channel.type,
    key: '',
    openai_organization: channel.openai_organization,
    max_input_tokens: channel.max_input_tokens,
    base_url: channel.base_url,
    other: channel.other,
    model_mapping: channel.model_mapping,
    status_code_mapping: channel.status_code_mapping,
    models: splitCommaList(channel.models),
    groups: splitCommaList(channel.group),
    auto_ban: channel.auto_ban === 1,
    test_model: channel.test_model,
    priority: channel.priority,
    weight: channel.weight,
    tag: channel.tag,
  };
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && new Set([...a, ...b]).size === a.length;

/**
 * A type switch prefills the new type's models (spec part 1 §4) unless the operator already chose
 * their own, and sets `other` to the new type's default (its meaning changes with the type).
 */
export function applyTypeChange(
  current: Pick<ChannelFormValues, 'type' | 'models'>,
  nextType: number,
  catalog: ModelCatalog | undefined,
): Pick<ChannelFormValues, 'models' | 'other'> {
  const untouched =
    current.models.length === 0 || sameSet(current.models, prefilledModels(current.type, catalog));
  const models = untouched ? prefilledModels(nextType, catalog) : current.models;
  return { models, other: defaultOther(nextType, models) };
}

/** Adds a comma list of custom models; names already present are reported, not added twice. */
export function addCustomModels(
  current: readonly string[],
  input: string,
): { models: string[]; added: string[]; duplicates: string[] } {
  const wanted = splitCommaList(input);
  const added = wanted.filter((m) => !current.includes(m));
  const duplicates = wanted.filter((m) => current.includes(m));
  return { models: [...current, ...added], added, duplicates };
}

/** How many channels a create makes: one per key line, or per service-account JSON object. */
export function countKeys(type: number, key: string): number {
  const text = key.trim();
  if (text === '') return 0;
  if (channelTypeOrDefault(type).keyInput === 'serviceAccountJson') {
    try {
      const parsed: unknown = JSON.parse(text);
      return Array.isArray(parsed) ? parsed.length : 1;
    } catch {
      // Objects one per line (as uploads are put) or written one after another.
      return Math.max(1, text.split(/\r?\n/).filter((line) => line.trim().startsWith('{')).length);
    }
  }
  return new Set(
    text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== ''),
  ).size;
}

/** Why a submit was refused: one of the drawer's own texts, or a shared (server) sentence. */
export type FormError =
  | {
      key:
        | 'msg.fillChannelNameAndKey'
        | 'msg.chooseAtLeastOneModel'
        | 'msg.notValidJson'
        | 'channels.form.submitTwice';
    }
  | { serverText: string };

export type PayloadResult = { ok: true; payload: ChannelPayload } | { ok: false; error: FormError };

const isJsonObjectText = (text: string) => {
  if (text.trim() === '') return true;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
};

const toInteger = (value: number | null | undefined): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : 0;

/**
 * The request body for create (no id) or update, or the first reason not to send it, in the
 * order the spec lists them.
 */
export function buildChannelPayload(values: ChannelFormValues, id?: number): PayloadResult {
  const isEdit = id !== undefined;
  const name = values.name.trim();
  const key = values.key.trim();
  if (name === '' || (!isEdit && key === ''))
    return { ok: false, error: { key: 'msg.fillChannelNameAndKey' } };
  // The form always holds a list; anything else means a second submit raced the first one.
  if (!Array.isArray(values.models)) return { ok: false, error: { key: 'channels.form.submitTwice' } };
  if (values.models.length === 0) return { ok: false, error: { key: 'msg.chooseAtLeastOneModel' } };
  if (!isJsonObjectText(values.model_mapping)) return { ok: false, error: { key: 'msg.notValidJson' } };
  const models = splitCommaList(values.models);
  const payload: ChannelPayload = {
    ...(isEdit ? { id } : {}),
    name,
    type: values.type,
    ...(key !== '' ? { key } : {}),
    openai_organization: values.openai_organization.trim(),
    max_input_tokens: toInteger(values.max_input_tokens),
    base_url: values.base_url.trim().replace(/\/+$/, ''),
    other: values.other.trim() || defaultOther(values.type, models),
    model_mapping: values.model_mapping.trim(),
    status_code_mapping: values.status_code_mapping.trim(),
    models: models.join(','),
    group: splitCommaList(values.groups).join(','),
    auto_ban: values.auto_ban ? 1 : 0,
    test_model: values.test_model.trim(),
    priority: toInteger(values.priority),
    weight: toInteger(values.weight),
    tag: values.tag.trim(),
  };
  // The server's own schema: JSON mappings, integers, the priority floor.
  const checked = (isEdit ? channelUpdateSchema : channelCreateSchema).safeParse(payload);
  if (!checked.success) return { ok: false, error: { serverText: checked.error.issues[0]?.message ?? '' } };
  return { ok: true, payload };
}

/** Suggested models for the select: the type's known ones plus whatever the form already holds. */
export function modelOptions(type: number, catalog: ModelCatalog | undefined, chosen: readonly string[]) {
  return [...new Set([...prefilledModels(type, catalog), ...chosen])];
}
