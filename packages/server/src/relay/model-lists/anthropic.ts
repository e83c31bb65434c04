// Anthropic's model list: GET {base}/v1/models with x-api-key and anthropic-version, in pages of up to
// 1000 (has_more, last_id → after_id), most recent models first.
import { z } from 'zod';
import { ANTHROPIC_VERSION, anthropicAdapter } from '../providers/anthropic/index.js';
import { joinUrl } from '../providers/openai/request.js';
import type { ModelListing } from './types.js';
import { parseAnswer } from './types.js';

/** Anthropic's largest page. */
export const ANTHROPIC_PAGE_SIZE = 1000;

const page = z.looseObject({
  data: z.array(z.looseObject({ id: z.string() })),
  has_more: z.boolean().optional(),
  last_id: z.string().nullish(),
});

export const anthropicModelListing: ModelListing = {
  sources: [
    {
      request(channel, cursor) {
        const query = new URLSearchParams({ limit: String(ANTHROPIC_PAGE_SIZE) });
        if (cursor !== undefined) query.set('after_id', cursor);
        return {
          url: `${joinUrl(channel.baseUrl || anthropicAdapter.defaultBaseUrl, '/v1/models')}?${query.toString()}`,
          method: 'GET',
          headers: {
            accept: 'application/json',
            'x-api-key': channel.key,
            'anthropic-version': ANTHROPIC_VERSION,
          },
          body: '',
        };
      },
      parse(body) {
        const { data, has_more: more, last_id: last } = parseAnswer(page, body);
        return {
          models: data.map((m) => m.id),
          ...(more === true && last ? { next: last } : {}),
        };
      },
    },
  ],
};
