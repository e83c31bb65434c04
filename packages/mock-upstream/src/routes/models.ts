// GET /v1/models, /v1/models/:id and the legacy billing endpoints a gateway reads a channel's balance from.
import { sendError, sendJson, type Exchange } from '../exchange.js';

/** Models listed by GET /v1/models unless the mock is started with its own list. */
export const DEFAULT_MODELS = [
  'gpt-4o-mini',
  'gpt-4o',
  'gpt-3.5-turbo-instruct',
  'text-embedding-3-small',
  'dall-e-3',
  'gpt-image-1',
  'tts-1',
  'whisper-1',
  'gpt-4o-mini-transcribe',
  'omni-moderation-latest',
  'jina-reranker-v2-base-multilingual',
];

/** Fixed so listings are stable between runs. */
const CREATED = 1_700_000_000;

const modelObject = (id: string) => ({ id, object: 'model', created: CREATED, owned_by: 'mock-upstream' });

export function handleModels(ex: Exchange): void {
  sendJson(ex, 200, { object: 'list', data: ex.settings.models.map(modelObject) });
}

export function handleModel(ex: Exchange, id: string): void {
  if (!ex.settings.models.includes(id)) {
    sendError(ex, 404, `The model '${id}' does not exist.`, 'invalid_request_error', 'model_not_found');
    return;
  }
  sendJson(ex, 200, modelObject(id));
}

export function handleBillingSubscription(ex: Exchange): void {
  const limit = ex.settings.billing.hardLimitUsd;
  sendJson(ex, 200, {
    object: 'billing_subscription',
    has_payment_method: true,
    soft_limit_usd: limit,
    hard_limit_usd: limit,
    system_hard_limit_usd: limit,
    access_until: 0,
  });
}

/** total_usage is in cents of a US dollar, as the legacy endpoint reported it. */
export function handleBillingUsage(ex: Exchange): void {
  sendJson(ex, 200, {
    object: 'list',
    total_usage: Math.round(ex.settings.billing.usedUsd * 100 * 100) / 100,
  });
}
