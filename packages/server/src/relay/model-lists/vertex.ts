// Vertex AI's model list: Model Garden's publisher models (GET {regional host}/v1beta1/publishers/
// google/models, as @google/genai lists Vertex base models, with the service account's access token),
// keeping the Gemini models a channel calls through generateContent. Claude models on Vertex are not
// confirmed to be listed the same way, so the Claude names of the type's catalog are added and the
// answer says so.
import { z } from 'zod';
import { channelTypeModels } from '@sluice/shared';
import { joinUrl } from '../providers/openai/request.js';
import { isClaudeModel, vertexOrigin, vertexRegion } from '../providers/vertex/region.js';
import type { ModelListing } from './types.js';
import { parseAnswer } from './types.js';

const VERTEX_TYPE = 41;
export const VERTEX_PAGE_SIZE = 100;

const page = z.looseObject({
  publisherModels: z.array(z.looseObject({ name: z.string() })).optional(),
  nextPageToken: z.string().optional(),
});

/** Gemini chat models; Vertex serves Gemini embeddings through another method (predict). */
const isGeminiChat = (id: string): boolean => id.startsWith('gemini') && !id.includes('embedding');

export const vertexModelListing: ModelListing = {
  sources: [
    {
      request(channel, cursor) {
        if (channel.credential === undefined) {
          // A programming error: the runner exchanges the key (the adapter's credentials) first.
          throw new Error('the Vertex access token is missing: the key was not exchanged');
        }
        // The region Gemini calls go to (the `other` field; us-central1 by default).
        const region = vertexRegion(channel.other, 'gemini');
        const query = new URLSearchParams({ pageSize: String(VERTEX_PAGE_SIZE) });
        if (cursor !== undefined) query.set('pageToken', cursor);
        return {
          url: `${joinUrl(channel.baseUrl || vertexOrigin(region), '/v1beta1/publishers/google/models')}?${query.toString()}`,
          method: 'GET',
          headers: { accept: 'application/json', authorization: `Bearer ${channel.credential}` },
          body: '',
        };
      },
      parse(body) {
        const { publisherModels = [], nextPageToken: next } = parseAnswer(page, body);
        return {
          models: publisherModels.map((m) => m.name.slice(m.name.lastIndexOf('/') + 1)).filter(isGeminiChat),
          ...(next ? { next } : {}),
        };
      },
    },
  ],
  unlisted: {
    models: channelTypeModels(VERTEX_TYPE).filter(isClaudeModel),
    note:
      "Vertex lists Google's Gemini models; its Claude models are not listed, so the Claude names " +
      "of Sluice's catalog for Vertex were added: check that your project has them enabled",
  },
};
