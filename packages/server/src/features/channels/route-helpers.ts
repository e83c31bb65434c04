// What the channel routes share: the auth level and reading the :id parameter.
import { MSG } from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import type { ChannelRow } from '../../db/tables.js';
import { notFound } from '../../http/envelope.js';
import { findChannel } from './channels.repository.js';

export const admin = { config: { auth: 'admin' as const } };

/**
 * The :id of a channel route. Ids are decimal integers; any other word under /api/channel/ (a
 * misspelt action, a route this server does not have) is a resource that does not exist, as
 * new-api's router answers it — not a malformed id.
 */
export function channelIdParam(params: unknown): number {
  const raw = typeof params === 'object' && params !== null ? (params as { id?: unknown }).id : undefined;
  const id = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id)) throw notFound(MSG.notFound);
  return id;
}

/** The channel named by the route's :id, with its key (for server-side use only). */
export async function requireChannel(ctx: AppContext, params: unknown): Promise<ChannelRow> {
  const channel = await findChannel(ctx.db, channelIdParam(params));
  if (!channel) throw notFound(MSG.channelNotFound);
  return channel;
}
