// The tag drawer's rules (spec part 1 §3 tag edit payload, §5 "Tag edit"): only what the operator
// changed is sent, so every channel keeps its own values for the rest.
import { channelTagEditSchema, splitCommaList } from '@sluice/shared';
import type { ChannelTagRow } from '@sluice/shared';
import type { TagEditPayload } from './api';

export interface TagFormValues {
  newTag: string;
  model_mapping: string;
  groups: string[];
  models: string[];
}

/** The drawer starts from the tag's name and the union of its channels' groups and models. */
export const tagFormInitial = (row: Pick<ChannelTagRow, 'tag' | 'group' | 'models'>): TagFormValues => ({
  newTag: row.tag,
  model_mapping: '',
  groups: splitCommaList(row.group),
  models: splitCommaList(row.models),
});

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((v, i) => v === b[i]);

export type TagEditResult =
  | { ok: true; payload: TagEditPayload }
  | { ok: false; error: { key: 'msg.noChanges' | 'msg.notValidJson' } | { serverText: string } };

export function buildTagEdit(tag: string, initial: TagFormValues, values: TagFormValues): TagEditResult {
  const payload: TagEditPayload = { tag };
  const newTag = values.newTag.trim();
  if (newTag !== '' && newTag !== tag) payload.newTag = newTag;
  const mapping = values.model_mapping.trim();
  if (mapping !== '') {
    try {
      const parsed: unknown = JSON.parse(mapping);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        throw new Error('not an object');
    } catch {
      return { ok: false, error: { key: 'msg.notValidJson' } };
    }
    payload.model_mapping = mapping;
  }
  const groups = splitCommaList(values.groups);
  if (groups.length > 0 && !sameList(groups, initial.groups)) payload.groups = groups.join(',');
  const models = splitCommaList(values.models);
  if (models.length > 0 && !sameList(models, initial.models)) payload.models = models.join(',');
  if (Object.keys(payload).length === 1) return { ok: false, error: { key: 'msg.noChanges' } };
  const checked = channelTagEditSchema.safeParse(payload);
  if (!checked.success) return { ok: false, error: { serverText: checked.error.issues[0]?.message ?? '' } };
  return { ok: true, payload };
}
