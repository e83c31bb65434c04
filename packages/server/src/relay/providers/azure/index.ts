// Type 3: Azure OpenAI, the OpenAI API under Azure's URLs. Every call goes to the channel's resource
// endpoint (its base_url, mandatory) at /openai/deployments/{deployment}/{path}?api-version={version},
// the deployment being the upstream model name and the version the channel's `other` field; the key
// travels in an `api-key` header. A Responses client goes to Azure's v1 API (/openai/v1/responses), where
// the deployment is named by the body's model. Bodies, answers and streams are OpenAI's.
import { RelayError } from '../../ir/errors.js';
import type { RelayMode } from '../../ir/request.js';
import { openAiCompatible } from '../openai/index.js';
import { buildConvertedRequest, buildOpenAiRequest, joinUrl } from '../openai/request.js';
import type { OpenAiOptions } from '../openai/request.js';
import type { ChannelTarget, ProviderAdapter } from '../types.js';

/** The API version of a channel whose `other` is empty (the channel form's default). */
export const AZURE_DEFAULT_API_VERSION = '2023-06-01-preview';
/**
 * Azure's v1 API needs no dated version; `preview` (what Azure's own REST examples send) also opens
 * its preview features. A dated version there is refused ("API version not supported").
 */
export const AZURE_V1_API_VERSION = 'preview';
/** The first API versions (previews from this date, GA 2024-10-21) that know stream_options and max_completion_tokens. */
const NEWER_FIELDS_SINCE = '2024-09-01';

/** The modes Azure serves under a deployment; it has no moderations or rerank endpoint. */
const AZURE_MODES: ReadonlySet<RelayMode> = new Set([
  'chat',
  'completions',
  'embeddings',
  'images',
  'speech',
  'transcriptions',
  'translations',
]);

/** The channel's API version: its `other` field, or the default when that is empty. */
export const azureApiVersion = (channel: ChannelTarget): string =>
  channel.other.trim() || AZURE_DEFAULT_API_VERSION;

/** Whether a version knows stream_options and max_completion_tokens (older ones refuse them as unknown). */
export function knowsNewerFields(version: string): boolean {
  const date = /^\d{4}-\d{2}-\d{2}/.exec(version)?.[0];
  return date === undefined || date >= NEWER_FIELDS_SINCE;
}

/**
 * The URL of a call to one of OpenAI's paths (`/v1/chat/completions`, `/v1/responses`, …). The
 * deployment is the upstream model name as it is: Azure deployment names may hold dots (gpt-4.1),
 * so a name that differs from the model's (gpt-35-turbo for gpt-3.5-turbo) is a model_mapping entry.
 */
export function azureUrl(channel: ChannelTarget, path: string, deployment: string): string {
  const base = channel.baseUrl.trim();
  if (base === '') {
    throw new RelayError(
      500,
      'this Azure OpenAI channel has no base URL: set it to the resource endpoint, e.g. https://<resource>.openai.azure.com',
      'channel_misconfigured',
    );
  }
  if (path === '/v1/responses') {
    return `${joinUrl(base, '/openai/v1/responses')}?api-version=${AZURE_V1_API_VERSION}`;
  }
  const endpoint = path.replace(/^\/v1\//, '');
  const version = encodeURIComponent(azureApiVersion(channel));
  return `${joinUrl(base, `/openai/deployments/${encodeURIComponent(deployment)}/${endpoint}`)}?api-version=${version}`;
}

const CURRENT: OpenAiOptions = {
  defaultBaseUrl: '',
  askStreamUsage: true,
  limitField: 'max_completion_tokens',
  speaksResponses: true,
  url: azureUrl,
  keyHeader: 'api-key',
};
/**
 * Versions before 2024-09-01 refuse stream_options and max_completion_tokens ("Unrecognized request
 * argument supplied"): their streams are billed by Sluice's own count and its limits go in max_tokens.
 */
const LEGACY: OpenAiOptions = Object.assign({}, CURRENT, {
  askStreamUsage: false,
  limitField: 'max_tokens' as const,
});

const openAiParts = openAiCompatible('azure', '', CURRENT);

export const azureAdapter: ProviderAdapter = {
  name: 'azure',
  // Azure serves the Responses API too, so a Responses client's bytes go through unchanged.
  dialects: ['openai', 'responses'],
  defaultBaseUrl: '',
  supports: (mode) => AZURE_MODES.has(mode),
  buildRequest(ir, channel, upstreamModel, chat) {
    const options = knowsNewerFields(azureApiVersion(channel)) ? CURRENT : LEGACY;
    return chat
      ? buildConvertedRequest(chat, ir, channel, upstreamModel, options)
      : buildOpenAiRequest(ir, channel, upstreamModel, options);
  },
  parseResponse: openAiParts.parseResponse,
  parseError: openAiParts.parseError,
  createStreamParser: openAiParts.createStreamParser,
};
