// Channel writes. Each runs in one transaction with its abilities rebuild, then tells every node
// (and the relay's in-memory index) to reload channels.
import { CHANNEL_STATUS, CHANNEL_TYPE_BY_VALUE, MSG } from '@sluice/shared';
import type {
  ChannelCreateInput,
  ChannelCreateResult,
  ChannelTagEditInput,
  ChannelUpdateInput,
  ChannelView,
} from '@sluice/shared';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../app-context.js';
import type { ChannelRow, Database } from '../../db/tables.js';
import { badRequest, notFound } from '../../http/envelope.js';
import { syncAbilities } from '../../db/abilities.js';
import { normalizeUpdateKey, splitChannelKeys } from './channel-keys.js';
import {
  channelIdsByStatus,
  channelIdsByTag,
  deleteChannelRows,
  findChannel,
  insertChannel,
  patchChannel,
  toChannelView,
} from './channels.repository.js';
import type { ChannelPatch, NewChannel } from './channels.repository.js';

/** Runs `work` in a transaction, then invalidates every node's channel cache. */
export async function writeChannels<T>(
  ctx: AppContext,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  const result = await ctx.db.transaction().execute(work);
  ctx.bus.publish('channels');
  return result;
}

const defaultOther = (type: number): string => CHANNEL_TYPE_BY_VALUE.get(type)?.defaultOther ?? '';

export async function createChannels(
  ctx: AppContext,
  input: ChannelCreateInput,
): Promise<ChannelCreateResult> {
  const type = input.type ?? 1;
  const name = input.name ?? '';
  const keys = splitChannelKeys(type, input.key ?? '');
  if (name === '' || keys.length === 0) throw badRequest(MSG.fillChannelNameAndKey);
  const models = input.models ?? [];
  if (models.length === 0) throw badRequest(MSG.chooseAtLeastOneModel);
  const groups = input.groups?.length ? input.groups : ['default'];
  const now = ctx.clock.now();
  const base: Omit<NewChannel, 'key'> = {
    type,
    name,
    status: CHANNEL_STATUS.enabled,
    openai_organization: input.openai_organization ?? '',
    max_input_tokens: input.max_input_tokens ?? 0,
    base_url: input.base_url ?? '',
    other: input.other || defaultOther(type),
    model_mapping: input.model_mapping ?? '',
    status_code_mapping: input.status_code_mapping ?? '',
    models: models.join(','),
    group: groups.join(','),
    auto_ban: input.auto_ban ?? 1,
    test_model: input.test_model ?? '',
    priority: input.priority ?? 0,
    weight: input.weight ?? 0,
    tag: input.tag ?? '',
    created_time: now,
    other_info: '{}',
    setting: '{}',
  };
  const ids = await writeChannels(ctx, async (trx) => {
    const created: number[] = [];
    for (const key of keys) created.push(await insertChannel(trx, ctx.dialect, { ...base, key }));
    return created;
  });
  return { ids, count: ids.length };
}

/** Fields given replace the stored ones; an empty key keeps the stored key. */
export async function updateChannel(ctx: AppContext, input: ChannelUpdateInput): Promise<ChannelView> {
  if (input.name !== undefined && input.name === '') throw badRequest(MSG.fillChannelNameAndKey);
  if (input.models !== undefined && input.models.length === 0) throw badRequest(MSG.chooseAtLeastOneModel);
  const row = await writeChannels(ctx, async (trx) => {
    const current = await findChannel(trx, input.id);
    if (!current) throw notFound(MSG.channelNotFound);
    const type = input.type ?? current.type;
    const patch: ChannelPatch = {};
    const copy = <K extends keyof ChannelPatch & keyof ChannelUpdateInput>(field: K) => {
      const value = input[field];
      if (value !== undefined) patch[field] = value as ChannelPatch[K];
    };
    for (const field of [
      'name',
      'type',
      'openai_organization',
      'max_input_tokens',
      'base_url',
      'other',
      'model_mapping',
      'status_code_mapping',
      'auto_ban',
      'test_model',
      'priority',
      'weight',
      'tag',
      'status',
    ] as const) {
      copy(field);
    }
    if (input.models !== undefined) patch.models = input.models.join(',');
    if (input.groups !== undefined)
      patch.group = (input.groups.length ? input.groups : ['default']).join(',');
    if (input.key) patch.key = normalizeUpdateKey(type, input.key);
    if ((patch.other ?? current.other) === '' && defaultOther(type) !== '') patch.other = defaultOther(type);
    return patchChannel(trx, input.id, patch);
  });
  return toChannelView(row as ChannelRow);
}

/** Server-side copy: the key travels without ever reaching the browser. */
export async function copyChannel(
  ctx: AppContext,
  id: number,
  opts: { suffix: string; resetBalance: boolean },
): Promise<number> {
  return writeChannels(ctx, async (trx) => {
    const source = await findChannel(trx, id);
    if (!source) throw notFound(MSG.channelNotFound);
    const { id: _id, ...fields } = source;
    return insertChannel(trx, ctx.dialect, {
      ...fields,
      name: `${source.name}${opts.suffix}`,
      created_time: ctx.clock.now(),
      test_time: 0,
      response_time: 0,
      ...(opts.resetBalance ? { balance: 0, balance_updated_time: 0, used_quota: 0 } : {}),
    });
  });
}

export async function deleteChannel(ctx: AppContext, id: number): Promise<void> {
  const count = await writeChannels(ctx, (trx) => deleteChannelRows(trx, [id]));
  if (count === 0) throw notFound(MSG.channelNotFound);
}

export const deleteChannels = (ctx: AppContext, ids: readonly number[]): Promise<number> =>
  writeChannels(ctx, (trx) => deleteChannelRows(trx, [...new Set(ids)]));

/** Deletes every channel disabled by hand or automatically. */
export const deleteDisabledChannels = (ctx: AppContext): Promise<number> =>
  writeChannels(ctx, async (trx) =>
    deleteChannelRows(
      trx,
      await channelIdsByStatus(trx, [CHANNEL_STATUS.manuallyDisabled, CHANNEL_STATUS.autoDisabled]),
    ),
  );

/** Rebuilds the whole abilities index from the channels table; answers how many channels it covers. */
export const rebuildAbilities = (ctx: AppContext): Promise<number> =>
  writeChannels(ctx, async (trx) => {
    await trx.deleteFrom('abilities').execute();
    const channels = await trx.selectFrom('channels').selectAll().orderBy('id').execute();
    for (const channel of channels) await syncAbilities(trx, channel);
    return channels.length;
  });

async function patchTag(trx: Transaction<Database>, tag: string, patch: ChannelPatch): Promise<number> {
  const ids = await channelIdsByTag(trx, tag);
  if (ids.length === 0) throw notFound(MSG.tagNotFound);
  await trx.updateTable('channels').set(patch).where('tag', '=', tag).execute();
  for (const id of ids) await patchChannel(trx, id, {});
  return ids.length;
}

/**
 * Sets the tag of the given channels ('' clears it); ids of channels that do not exist are
 * skipped. Answers how many channels now carry the tag.
 */
export const setChannelsTag = (ctx: AppContext, ids: readonly number[], tag: string): Promise<number> =>
  writeChannels(ctx, async (trx) => {
    let count = 0;
    // One by one, as every channel write: each channel's abilities carry its tag too.
    for (const id of new Set(ids)) if (await patchChannel(trx, id, { tag })) count++;
    return count;
  });

export const setTagStatus = (ctx: AppContext, tag: string, status: number): Promise<number> =>
  writeChannels(ctx, (trx) => patchTag(trx, tag, { status }));

/**
 * Applies the tag edit to every channel with the tag. Empty texts and lists count as "not given"
 * (a tag's mapping is cleared with "{}"), so an untouched form field never wipes the channels.
 */
export async function editTag(ctx: AppContext, input: ChannelTagEditInput): Promise<number> {
  const patch: ChannelPatch = {};
  if (input.newTag && input.newTag !== input.tag) patch.tag = input.newTag;
  if (input.priority !== undefined) patch.priority = input.priority;
  if (input.weight !== undefined) patch.weight = input.weight;
  if (input.model_mapping) patch.model_mapping = input.model_mapping;
  if (input.groups?.length) patch.group = input.groups.join(',');
  if (input.models?.length) patch.models = input.models.join(',');
  if (Object.keys(patch).length === 0) throw badRequest(MSG.noChanges);
  return writeChannels(ctx, (trx) => patchTag(trx, input.tag, patch));
}
