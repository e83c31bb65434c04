// Channel rows: reading, writing (always together with the abilities index) and the answer shape,
// which never carries the key.
import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';
import { splitCommaList } from '@sluice/shared';
import type { ChannelView } from '@sluice/shared';
import type { DialectName } from '../../db/create-db.js';
import { insertId } from '../../db/insert-id.js';
import type { ChannelRow, ChannelsTable, Database } from '../../db/tables.js';
import { removeAbilities, syncAbilities } from '../../db/abilities.js';

export type Executor = Kysely<Database> | Transaction<Database>;
export type NewChannel = Insertable<ChannelsTable>;
export type ChannelPatch = Updateable<ChannelsTable>;

/** Every column but the key: lists select these so keys never leave the database for them. */
export const VIEW_COLUMNS = [
  'id',
  'type',
  'name',
  'status',
  'group',
  'models',
  'test_model',
  'openai_organization',
  'max_input_tokens',
  'base_url',
  'other',
  'model_mapping',
  'status_code_mapping',
  'auto_ban',
  'priority',
  'weight',
  'tag',
  'response_time',
  'test_time',
  'used_quota',
  'balance',
  'balance_updated_time',
  'created_time',
  'other_info',
  'setting',
] as const;

export type ChannelViewRow = Pick<ChannelRow, (typeof VIEW_COLUMNS)[number]>;

export function toChannelView(row: ChannelViewRow): ChannelView {
  return {
    id: Number(row.id),
    type: Number(row.type),
    name: row.name,
    status: Number(row.status),
    group: row.group,
    models: row.models,
    test_models: splitCommaList(row.models),
    test_model: row.test_model,
    openai_organization: row.openai_organization,
    max_input_tokens: Number(row.max_input_tokens),
    base_url: row.base_url,
    other: row.other,
    model_mapping: row.model_mapping,
    status_code_mapping: row.status_code_mapping,
    auto_ban: Number(row.auto_ban),
    priority: Number(row.priority),
    weight: Number(row.weight),
    tag: row.tag,
    response_time: Number(row.response_time),
    test_time: Number(row.test_time),
    used_quota: Number(row.used_quota),
    balance: Number(row.balance),
    balance_updated_time: Number(row.balance_updated_time),
    created_time: Number(row.created_time),
    other_info: row.other_info,
    setting: row.setting,
  };
}

export const findChannel = (db: Executor, id: number): Promise<ChannelRow | undefined> =>
  db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();

/** All channels in list order: priority desc then id desc, or id desc when idSort. */
export function selectChannels(db: Executor, idSort: boolean) {
  const q = db.selectFrom('channels');
  return idSort ? q.orderBy('id', 'desc') : q.orderBy('priority', 'desc').orderBy('id', 'desc');
}

export async function listChannelPage(
  db: Executor,
  opts: { idSort: boolean; offset: number; limit: number },
): Promise<ChannelView[]> {
  const rows = await selectChannels(db, opts.idSort)
    .select(VIEW_COLUMNS)
    .limit(opts.limit)
    .offset(opts.offset)
    .execute();
  return rows.map(toChannelView);
}

export const listChannelViews = async (db: Executor, idSort: boolean): Promise<ChannelView[]> =>
  (await selectChannels(db, idSort).select(VIEW_COLUMNS).execute()).map(toChannelView);

export async function insertChannel(db: Executor, dialect: DialectName, values: NewChannel): Promise<number> {
  const id = await insertId(db.insertInto('channels').values(values), dialect);
  const row = await findChannel(db, id);
  if (!row) throw new Error(`channel ${id} vanished right after its insert`);
  await syncAbilities(db, row);
  return id;
}

/** Updates one channel and rebuilds its abilities; undefined when the channel does not exist. */
export async function patchChannel(
  db: Executor,
  id: number,
  patch: ChannelPatch,
): Promise<ChannelRow | undefined> {
  if (Object.keys(patch).length > 0) {
    await db.updateTable('channels').set(patch).where('id', '=', id).execute();
  }
  const row = await findChannel(db, id);
  if (row) await syncAbilities(db, row);
  return row;
}

export async function deleteChannelRows(db: Executor, ids: readonly number[]): Promise<number> {
  let count = 0;
  for (const id of ids) {
    await removeAbilities(db, id);
    const result = await db.deleteFrom('channels').where('id', '=', id).executeTakeFirst();
    count += Number(result.numDeletedRows);
  }
  return count;
}

export const channelIdsByTag = async (db: Executor, tag: string): Promise<number[]> =>
  (await db.selectFrom('channels').select('id').where('tag', '=', tag).orderBy('id').execute()).map((r) =>
    Number(r.id),
  );

export const channelIdsByStatus = async (db: Executor, statuses: readonly number[]): Promise<number[]> =>
  (await db.selectFrom('channels').select('id').where('status', 'in', statuses).orderBy('id').execute()).map(
    (r) => Number(r.id),
  );
