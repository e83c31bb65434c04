// AWS Bedrock's model list: ListFoundationModels on the control plane (GET
// https://bedrock.{region}.amazonaws.com/foundation-models?byProvider=anthropic, signed with SigV4 for
// service "bedrock" by the adapter, or with a Bedrock API key as a bearer token). A channel serves
// Claude only, so only Anthropic's models are asked for; an id the built-in map knows is answered with
// its Anthropic name (what a client asks for), any other id as it is.
import { z } from 'zod';
import { readBedrockKey } from '../providers/bedrock/key.js';
import { anthropicModelName } from '../providers/bedrock/models.js';
import { bedrockHeaders } from '../providers/bedrock/request.js';
import type { ChannelTarget } from '../providers/types.js';
import type { ModelListing } from './types.js';
import { parseAnswer } from './types.js';

/** The region of a key that has none (the call is refused when it is signed). */
const FALLBACK_REGION = 'us-east-1';

/**
 * The control plane's origin: the channel's base URL's (a proxy, a test's fake), as for its calls,
 * else the region's bedrock endpoint.
 */
export function bedrockControlOrigin(channel: ChannelTarget, region: string): string {
  const base = channel.baseUrl.trim();
  return base === '' ? `https://bedrock.${region}.amazonaws.com` : new URL(base).origin;
}

const page = z.looseObject({
  modelSummaries: z.array(
    z.looseObject({
      modelId: z.string(),
      outputModalities: z.array(z.string()).optional(),
      inferenceTypesSupported: z.array(z.string()).optional(),
    }),
  ),
});

/** Ids that only a provisioned throughput can call (…:200k variants) are of no use to a channel. */
const callable = (types: readonly string[] | undefined): boolean =>
  types === undefined || types.some((type) => type === 'ON_DEMAND' || type === 'INFERENCE_PROFILE');

export const bedrockModelListing: ModelListing = {
  sources: [
    {
      request(channel) {
        const credentials = readBedrockKey(channel.key);
        const origin = bedrockControlOrigin(channel, credentials?.region ?? FALLBACK_REGION);
        const url = `${origin}/foundation-models?byProvider=anthropic`;
        // A GET has no body to describe; the rest (host to sign, or the API key) as the calls have it.
        const headers = bedrockHeaders(credentials, url);
        delete headers['content-type'];
        return { url, method: 'GET', headers, body: '' };
      },
      parse: (body) => ({
        models: parseAnswer(page, body)
          .modelSummaries.filter(
            (m) =>
              callable(m.inferenceTypesSupported) &&
              (m.outputModalities === undefined || m.outputModalities.includes('TEXT')),
          )
          .map((m) => anthropicModelName(m.modelId) ?? m.modelId),
      }),
    },
  ],
};
