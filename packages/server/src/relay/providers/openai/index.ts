// The default adapter: any upstream that speaks the OpenAI API (type 1 and the many compatible
// vendors). Other vendors are this plus small overrides.
import type { ProviderAdapter } from '../types.js';
import { buildOpenAiRequest } from './request.js';
import type { OpenAiOptions } from './request.js';
import { parseOpenAiError, parseOpenAiResponse } from './response.js';
import { createOpenAiStreamParser } from './stream.js';
import { parseEndpointResponse } from './endpoint-responses.js';

export function openAiCompatible(
  name: string,
  defaultBaseUrl: string,
  overrides: Partial<Omit<OpenAiOptions, 'defaultBaseUrl'>> = {},
): ProviderAdapter {
  const options: OpenAiOptions = {
    defaultBaseUrl,
    askStreamUsage: true,
    limitField: 'max_tokens',
    ...overrides,
  };
  return {
    name,
    wireFormat: 'openai',
    defaultBaseUrl,
    // Every OpenAI endpoint; which models a channel serves is the operator's choice (its model list).
    supports: () => true,
    buildRequest: (ir, channel, upstreamModel) => buildOpenAiRequest(ir, channel, upstreamModel, options),
    parseResponse: (ir, body) => parseEndpointResponse(ir, body) ?? parseOpenAiResponse(body),
    parseError: parseOpenAiError,
    createStreamParser: () => createOpenAiStreamParser(),
  };
}

export const openaiAdapter = openAiCompatible('openai', 'https://api.openai.com', {
  limitField: 'max_completion_tokens',
});
