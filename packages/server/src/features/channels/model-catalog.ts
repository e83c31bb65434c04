// Model names: the static catalog per channel type, the list of every known or configured model,
// the models of enabled channels, and an upstream's own model list.
import { z } from 'zod';
import { CHANNEL_MODELS, MSG, channelBaseUrl, channelTypeLabel } from '@sluice/shared';
import type { ChannelModelEntry } from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import type { ChannelRow } from '../../db/tables.js';
import { ApiError, badRequest } from '../../http/envelope.js';
import { UpstreamError, bearer, getUpstreamJson } from './upstream-http.js';

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

/** Channel types whose upstream lists its models at GET /v1/models (OpenAI format). */
const OPENAI_MODEL_LIST_TYPES = new Set([1, 4, 8, 25, 31, 40, 42]);

const modelListSchema = z.object({ data: z.array(z.object({ id: z.string() })) });

/**
 * Asks an upstream which models it serves: GET {base}/v1/models with the key as bearer, the base
 * being the given base_url or the type's public address. Refuses types without that list.
 */
export async function fetchModelList(type: number, baseUrlGiven: string, key: string): Promise<string[]> {
  if (!OPENAI_MODEL_LIST_TYPES.has(type)) throw badRequest(MSG.onlyOpenAIFormat);
  const baseUrl = channelBaseUrl(type, baseUrlGiven);
  if (baseUrl === '') throw badRequest(MSG.channelNoBaseUrl);
  try {
    const body = modelListSchema.safeParse(await getUpstreamJson(`${baseUrl}/v1/models`, bearer(key)));
    if (!body.success) throw new UpstreamError('upstream answered in an unexpected format');
    return [...new Set(body.data.data.map((m) => m.id))];
  } catch (error) {
    if (error instanceof UpstreamError) throw new ApiError(502, `${MSG.fetchModelsFailed}: ${error.message}`);
    throw error;
  }
}

/** GET /api/channel/fetch_models/:id: a stored channel's upstream list, asked with its stored key. */
export const fetchUpstreamModels = (channel: ChannelRow): Promise<string[]> =>
  fetchModelList(channel.type, channel.base_url, channel.key);
