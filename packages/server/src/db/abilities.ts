// Abilities: one row per (group, model, channel), the index the relay selects channels from.
// Rebuilt from the channel row on every channel write.
import type { Kysely, Transaction } from 'kysely';
import { CHANNEL_STATUS } from '@sluice/shared';
import type { ChannelRow, Database } from './tables.js';

type Executor = Kysely<Database> | Transaction<Database>;

export const splitList = (value: string): string[] => [
  ...new Set(
    value
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  ),
];

export type AbilitySource = Pick<
  ChannelRow,
  'id' | 'group' | 'models' | 'status' | 'priority' | 'weight' | 'tag'
>;

export async function syncAbilities(db: Executor, channel: AbilitySource): Promise<void> {
  const channelId = Number(channel.id);
  await db.deleteFrom('abilities').where('channel_id', '=', channelId).execute();
  const rows = splitList(channel.group).flatMap((group) =>
    splitList(channel.models).map((model) => ({
      group,
      model,
      channel_id: channelId,
      enabled: channel.status === CHANNEL_STATUS.enabled ? 1 : 0,
      priority: Number(channel.priority),
      weight: Number(channel.weight),
      tag: channel.tag,
    })),
  );
  // Chunked so a channel with hundreds of models stays under every driver's parameter limit.
  for (let i = 0; i < rows.length; i += 200) {
    await db
      .insertInto('abilities')
      .values(rows.slice(i, i + 200))
      .execute();
  }
}

export async function removeAbilities(db: Executor, channelId: number): Promise<void> {
  await db.deleteFrom('abilities').where('channel_id', '=', channelId).execute();
}
