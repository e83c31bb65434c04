// What the channel routes share: the auth level and reading the :id parameter.
import { z } from 'zod';
import { MSG } from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import type { ChannelRow } from '../../db/tables.js';
import { notFound, parseInput } from '../../http/envelope.js';
import { findChannel } from './channels.repository.js';

export const admin = { config: { auth: 'admin' as const } };

const idParams = z.object({
  id: z.coerce.number({ error: 'invalid channel id' }).int().positive('invalid channel id'),
});

export const channelIdParam = (params: unknown): number => parseInput(idParams, params).id;

/** The channel named by the route's :id, with its key (for server-side use only). */
export async function requireChannel(ctx: AppContext, params: unknown): Promise<ChannelRow> {
  const channel = await findChannel(ctx.db, channelIdParam(params));
  if (!channel) throw notFound(MSG.channelNotFound);
  return channel;
}
