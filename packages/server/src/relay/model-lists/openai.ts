// The model lists of OpenAI-compatible vendors (GET {base}/v1/models, the key as a bearer token) and
// of Azure OpenAI, whose resource lists the models it can deploy (GET {endpoint}/openai/models).
import { z } from 'zod';
import { joinUrl } from '../providers/openai/request.js';
import type { ChannelTarget } from '../providers/types.js';
import type { ModelListing } from './types.js';
import { parseAnswer } from './types.js';

function bearerHeaders(key: string): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (key !== '') headers.authorization = `Bearer ${key}`;
  return headers;
}

const openAiList = z.looseObject({ data: z.array(z.looseObject({ id: z.string() })) });

/** The list of an OpenAI-compatible channel, whose base URL (the channel's or the type's) is `baseUrl`. */
export const openAiModelListing = (baseUrl: (channel: ChannelTarget) => string): ModelListing => ({
  needsBaseUrl: true,
  sources: [
    {
      request: (channel) => ({
        url: joinUrl(baseUrl(channel), '/v1/models'),
        method: 'GET',
        headers: bearerHeaders(channel.key),
        body: '',
      }),
      parse: (body) => ({ models: parseAnswer(openAiList, body).data.map((m) => m.id) }),
    },
  ],
});

/**
 * The data-plane version the list is asked with, whatever version the channel's calls use: Azure's
 * REST reference documents "Models - List" under the GA versions 2024-06-01 and 2024-10-21.
 */
export const AZURE_MODELS_API_VERSION = '2024-10-21';

const azureModel = z.looseObject({
  id: z.string(),
  lifecycle_status: z.string().optional(),
  capabilities: z.looseObject({ inference: z.boolean().optional() }).optional(),
  /** Unix seconds after which the model serves no more calls. */
  deprecation: z.looseObject({ inference: z.number().nullish() }).optional(),
});
const azureList = z.looseObject({ data: z.array(azureModel) });

/** Whether calls can use the model now: it infers, and its inference end date, if any, is ahead. */
function servesCalls(model: z.infer<typeof azureModel>, nowSeconds: number): boolean {
  const end = model.deprecation?.inference;
  return (
    model.capabilities?.inference !== false &&
    model.lifecycle_status !== 'deprecated' &&
    (end === undefined || end === null || end > nowSeconds)
  );
}

/**
 * Azure OpenAI: the models the resource may deploy (base models and its fine-tuned ones), less those
 * that cannot serve calls (no inference capability, or retired: Azure's own example lists `curie`
 * past its inference end date). Azure has no data-plane list of deployments, and calls name a
 * deployment, so the answer says how the names are used.
 */
export const azureModelListing: ModelListing = {
  needsBaseUrl: true,
  sources: [
    {
      request: (channel) => ({
        url: `${joinUrl(channel.baseUrl.trim(), '/openai/models')}?api-version=${AZURE_MODELS_API_VERSION}`,
        method: 'GET',
        headers: { accept: 'application/json', 'api-key': channel.key },
        body: '',
      }),
      parse: (body, nowSeconds) => ({
        models: parseAnswer(azureList, body)
          .data.filter((m) => servesCalls(m, nowSeconds))
          .map((m) => m.id),
      }),
    },
  ],
  note:
    'Azure lists the models this resource can deploy, not its deployments: calls go to the ' +
    'deployment named like the model, so name deployments after these models or map each model to ' +
    'its deployment in the model mapping',
};
