// Model names: the static catalog per channel type, the list of every known or configured model,
// the models of enabled channels, and an upstream's own model list.
import { CHANNEL_MODELS, MSG, channelTypeLabel } from '@sluice/shared';
import type { ChannelModelEntry } from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import type { ChannelRow } from '../../db/tables.js';
import { ApiError, badRequest } from '../../http/envelope.js';
import { ModelListRefusal, listChannelModels } from '../../relay/model-lists/index.js';
import type { ModelListResult } from '../../relay/model-lists/index.js';

let typeModels: Record<string, string[]> | undefined;

/** GET /api/models: channel type → known models. Static, so built once. */
export function channelTypeModelMap(): Record<string, string[]> {
  typeModels ??= Object.fromEntries(
    Object.entries(CHANNEL_MODELS).map(([type, models]) => [type, [...models]]),
  );
  return typeModels;
}

/** GET /api/channel/models: the catalog's models (owned by their first type) plus configured ones. */
export async function listKnownModels(ctx: AppContext): Promise<ChannelModelEntry[]> {
  const entries = new Map<string, ChannelModelEntry>();
  for (const [type, models] of Object.entries(CHANNEL_MODELS)) {
    const owner = channelTypeLabel(Number(type));
    for (const id of models) if (!entries.has(id)) entries.set(id, { id, object: 'model', owned_by: owner });
  }
  const configured = await ctx.db
    .selectFrom('abilities')
    .select('model')
    .distinct()
    .orderBy('model')
    .execute();
  for (const { model } of configured) {
    if (!entries.has(model)) entries.set(model, { id: model, object: 'model', owned_by: 'custom' });
  }
  return [...entries.values()];
}

/** GET /api/channel/models_enabled: the distinct model names enabled channels serve, sorted. */
export async function listEnabledModels(ctx: AppContext): Promise<string[]> {
  // The abilities index holds each channel's models with its enabled flag, kept in step on every write.
  const rows = await ctx.db
    .selectFrom('abilities')
    .select('model')
    .distinct()
    .where('enabled', '=', 1)
    .orderBy('model')
    .execute();
  return rows.map((r) => r.model);
}

/** A channel as "fetch models" asks for its list: a stored one, or what the create form holds. */
export interface ModelListChannel {
  type: number;
  base_url: string;
  key: string;
  other?: string;
  openai_organization?: string | null;
}

/**
 * Asks the channel's upstream which models it serves, in its vendor's way (relay/model-lists). A
 * refusal is a 400 (the type has no list, no base URL) or a 502 with the upstream's reason.
 */
export async function fetchModelList(ctx: AppContext, channel: ModelListChannel): Promise<ModelListResult> {
  try {
    return await listChannelModels(ctx, {
      type: channel.type,
      key: channel.key,
      baseUrl: channel.base_url,
      organization: channel.openai_organization ?? '',
      other: channel.other ?? '',
    });
  } catch (error) {
    if (!(error instanceof ModelListRefusal)) throw error;
    if (error.reason !== 'upstream') throw badRequest(error.message);
    throw new ApiError(502, `${MSG.fetchModelsFailed}: ${error.message}`);
  }
}

/** GET /api/channel/fetch_models/:id: a stored channel's upstream list, asked with its stored key. */
export const fetchUpstreamModels = (ctx: AppContext, channel: ChannelRow): Promise<ModelListResult> =>
  fetchModelList(ctx, channel);
