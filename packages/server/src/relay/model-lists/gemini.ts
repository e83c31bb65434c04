// The Gemini API's model list: GET {base}/v1beta/models?pageSize=1000 with x-goog-api-key, following
// nextPageToken. Names lose their "models/" prefix; only models a Gemini channel can call are kept
// (those that generate content or embed it).
import { z } from 'zod';
import { GEMINI_BASE_URL } from '../providers/gemini/request.js';
import { joinUrl } from '../providers/openai/request.js';
import type { ModelListing } from './types.js';
import { parseAnswer } from './types.js';

/** The Gemini API's largest page. */
export const GEMINI_PAGE_SIZE = 1000;

/** The methods behind the relay's Gemini calls: chat, and embeddings (batchEmbedContents comes with embedContent). */
const SERVED_METHODS = new Set(['generateContent', 'embedContent']);

const page = z.looseObject({
  models: z
    .array(
      z.looseObject({
        name: z.string(),
        supportedGenerationMethods: z.array(z.string()).optional(),
      }),
    )
    .optional(),
  nextPageToken: z.string().optional(),
});

export const geminiModelListing: ModelListing = {
  sources: [
    {
      request(channel, cursor) {
        const query = new URLSearchParams({ pageSize: String(GEMINI_PAGE_SIZE) });
        if (cursor !== undefined) query.set('pageToken', cursor);
        return {
          url: `${joinUrl(channel.baseUrl || GEMINI_BASE_URL, '/v1beta/models')}?${query.toString()}`,
          method: 'GET',
          headers: { accept: 'application/json', 'x-goog-api-key': channel.key },
          body: '',
        };
      },
      parse(body) {
        const { models = [], nextPageToken: next } = parseAnswer(page, body);
        return {
          models: models
            .filter((m) => (m.supportedGenerationMethods ?? []).some((method) => SERVED_METHODS.has(method)))
            .map((m) => m.name.replace(/^models\//, '')),
          ...(next ? { next } : {}),
        };
      },
    },
  ],
};
