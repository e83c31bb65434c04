// Model names: the static catalog per channel type, the list of every known or configured model,
// and a channel's own upstream model list.
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

/** Channel types whose upstream lists its models at GET /v1/models (OpenAI format). */
const OPENAI_MODEL_LIST_TYPES = new Set([1, 4, 8, 25, 31, 40, 42]);

const modelListSchema = z.object({ data: z.array(z.object({ id: z.string() })) });

/** GET /api/channel/fetch_models/:id: asks the channel's upstream which models it serves. */
export async function fetchUpstreamModels(channel: ChannelRow): Promise<string[]> {
  if (!OPENAI_MODEL_LIST_TYPES.has(channel.type)) throw badRequest(MSG.onlyOpenAIFormat);
  const baseUrl = channelBaseUrl(channel.type, channel.base_url);
  if (baseUrl === '') throw badRequest(MSG.channelNoBaseUrl);
  try {
    const body = modelListSchema.safeParse(
      await getUpstreamJson(`${baseUrl}/v1/models`, bearer(channel.key)),
    );
    if (!body.success) throw new UpstreamError('upstream answered in an unexpected format');
    return [...new Set(body.data.data.map((m) => m.id))];
  } catch (error) {
    if (error instanceof UpstreamError) throw new ApiError(502, `${MSG.fetchModelsFailed}: ${error.message}`);
    throw error;
  }
}
