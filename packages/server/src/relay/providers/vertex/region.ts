// Where a Vertex call goes: the region a model is served from (the channel's `other` field) and the
// URL of the model's method on that region's host, or on the channel's base URL when it has one.
import { joinUrl } from '../openai/request.js';

/** Spec part 1 §9: us-central1 by default, europe-west1 for a Claude-family model. */
export const VERTEX_DEFAULT_REGION = 'us-central1';
export const VERTEX_CLAUDE_REGION = 'europe-west1';

/** Claude-family models are served by Anthropic's publisher on Vertex, in Anthropic's dialect. */
export const isClaudeModel = (model: string): boolean => model.toLowerCase().startsWith('claude');

/** Region names as Google writes them (us-central1, europe-west4, global, the us / eu multi-regions). */
const REGION_NAME = /^[a-z][a-z0-9-]*[a-z0-9]$/;

const fallbackRegion = (model: string): string =>
  isClaudeModel(model) ? VERTEX_CLAUDE_REGION : VERTEX_DEFAULT_REGION;

function regionFromMap(text: string, models: readonly string[]): string | undefined {
  let map: unknown;
  try {
    map = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof map !== 'object' || map === null || Array.isArray(map)) return undefined;
  const entries = map as Record<string, unknown>;
  for (const name of [...models, 'default']) {
    const region = entries[name];
    if (typeof region === 'string' && REGION_NAME.test(region.trim())) return region.trim();
  }
  return undefined;
}

/**
 * The region serving `upstreamModel`: the channel's `other` is one region for every model, or a JSON
 * map of model → region with a "default" entry (the mapped model's entry first, then the requested
 * model's). Left empty, or holding nothing usable for the model, the spec's default applies: a
 * malformed value must not send the call to a host built from it.
 */
export function vertexRegion(other: string, upstreamModel: string, requestedModel = upstreamModel): string {
  const text = other.trim();
  if (text === '') return fallbackRegion(upstreamModel);
  if (text.startsWith('{')) {
    return regionFromMap(text, [upstreamModel, requestedModel]) ?? fallbackRegion(upstreamModel);
  }
  return REGION_NAME.test(text) ? text : fallbackRegion(upstreamModel);
}

/**
 * The host Google serves a region from: `global` and the `us` / `eu` multi-regions have their own,
 * every other region is `{region}-aiplatform.googleapis.com`.
 */
export function vertexOrigin(region: string): string {
  switch (region) {
    case 'global':
      return 'https://aiplatform.googleapis.com';
    case 'us':
    case 'eu':
      return `https://aiplatform.${region}.rep.googleapis.com`;
    default:
      return `https://${region}-aiplatform.googleapis.com`;
  }
}

export interface VertexTarget {
  baseUrl: string;
  project: string;
  region: string;
  publisher: 'google' | 'anthropic';
  model: string;
  /** The model method: generateContent, streamGenerateContent, rawPredict, streamRawPredict. */
  method: string;
}

/**
 * `{origin}/v1/projects/{project}/locations/{region}/publishers/{publisher}/models/{model}:{method}`;
 * a non-empty base URL replaces the regional origin (a proxy, a test fake), the path stays.
 */
export function vertexUrl(t: VertexTarget): string {
  const path = `/v1/projects/${t.project}/locations/${t.region}/publishers/${t.publisher}/models/${t.model}:${t.method}`;
  const url = joinUrl(t.baseUrl || vertexOrigin(t.region), path);
  return t.method === 'streamGenerateContent' ? `${url}?alt=sse` : url;
}
