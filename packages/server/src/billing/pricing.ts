// The price of a model for a group, from the operator's option tables. A model with neither a
// per-call price nor a ratio is refused with a message that tells the operator what to set.
import { callQuota, tokenQuota } from '@sluice/shared';
import type { Pricing } from '@sluice/shared';
import type { OptionStore } from '../features/options/option-store.js';
import { RelayError } from '../relay/ir/errors.js';

export function resolvePricing(options: OptionStore, model: string, group: string): Pricing {
  const groupRatio = options.get('GroupRatio')[group] ?? 1;
  const modelPrice = options.get('ModelPrice')[model];
  if (modelPrice !== undefined) {
    return { billing: 'call', modelPrice, groupRatio, quotaPerUnit: options.get('QuotaPerUnit') };
  }
  const modelRatio = options.get('ModelRatio')[model];
  if (modelRatio === undefined) {
    throw new RelayError(
      400,
      `model ${model} has no price: an administrator must set its ratio (ModelRatio) or its per-call price (ModelPrice) in the operation settings`,
      'model_price_not_set',
    );
  }
  return {
    billing: 'tokens',
    modelRatio,
    completionRatio: options.get('CompletionRatio')[model] ?? 1,
    groupRatio,
    cacheRatio: options.get('CacheRatio')[model] ?? 1,
  };
}

/**
 * The quota held before calling upstream: the prompt estimate plus max_tokens of output, or plus
 * PreConsumedQuota tokens when the client set no limit; a per-call price holds the price itself.
 */
export function reservationQuota(
  pricing: Pricing,
  promptEstimate: number,
  maxTokens: number | undefined,
  preConsumedTokens: number,
): number {
  if (pricing.billing === 'call') return callQuota(pricing);
  const completion = maxTokens !== undefined && maxTokens > 0 ? maxTokens : preConsumedTokens;
  return tokenQuota({ promptTokens: promptEstimate, completionTokens: completion }, pricing);
}
