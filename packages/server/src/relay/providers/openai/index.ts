// The default adapter: any upstream that speaks the OpenAI API (type 1 and the many compatible
// vendors). Other vendors are this plus small overrides.
import type { ProviderAdapter } from '../types.js';
import { buildConvertedRequest, buildOpenAiRequest } from './request.js';
import type { OpenAiOptions } from './request.js';
import { parseOpenAiError, parseOpenAiResponse } from './response.js';
import { createOpenAiStreamParser } from './stream.js';
import { parseEndpointResponse } from './endpoint-responses.js';
import { parseResponsesResponse, responsesStreamParser } from './responses.js';

export function openAiCompatible(
  name: string,
  defaultBaseUrl: string,
  overrides: Partial<Omit<OpenAiOptions, 'defaultBaseUrl'>> = {},
): ProviderAdapter {
  const options: OpenAiOptions = {
    defaultBaseUrl,
    askStreamUsage: true,
    limitField: 'max_tokens',
    speaksResponses: false,
    ...overrides,
  };
  return {
    name,
    // Clients of another dialect are converted to chat completions, which every such vendor serves.
    dialects: options.speaksResponses ? ['openai', 'responses'] : ['openai'],
    defaultBaseUrl,
    // Every OpenAI endpoint; which models a channel serves is the operator's choice (its model list).
    supports: () => true,
    buildRequest: (ir, channel, upstreamModel, chat) =>
      chat
        ? buildConvertedRequest(chat, ir, channel, upstreamModel, options)
        : buildOpenAiRequest(ir, channel, upstreamModel, options),
    parseResponse: (ir, body, chat) =>
      ir.wire === 'responses' && !chat
        ? parseResponsesResponse(body)
        : (parseEndpointResponse(ir, body) ?? parseOpenAiResponse(body, chat !== undefined)),
    parseError: parseOpenAiError,
    createStreamParser: (ir, chat) =>
      ir.wire === 'responses' && !chat
        ? responsesStreamParser()
        : createOpenAiStreamParser(chat !== undefined),
  };
}

export const openaiAdapter = openAiCompatible('openai', 'https://api.openai.com', {
  limitField: 'max_completion_tokens',
  speaksResponses: true,
});
