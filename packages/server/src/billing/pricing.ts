// The price of a model for a group, from the operator's option tables. A model with neither a
// per-call price nor a ratio is refused with a message that tells the operator what to set, unless
// the site runs in self-use mode, where such a model is served at no charge.
import { DEFAULT_CACHE_WRITE_RATIO, callQuota, tokenQuota } from '@sluice/shared';
import type { Pricing, TokenPricing } from '@sluice/shared';
import type { AppContext } from '../app-context.js';
import { RelayError } from '../relay/ir/errors.js';

/**
 * A table entry only when the table itself has it: model and group names come from callers, and
 * `__proto__`, `constructor` or `toString` must not find the object prototype's members.
 */
const own = <T>(table: Readonly<Record<string, T>>, key: string): T | undefined =>
  Object.hasOwn(table, key) ? table[key] : undefined;

const FREE = {
  billing: 'tokens',
  modelRatio: 0,
  completionRatio: 1,
  cacheRatio: 1,
  cacheWriteRatio: DEFAULT_CACHE_WRITE_RATIO,
} as const;

export function resolvePricing(options: AppContext['options'], model: string, group: string): Pricing {
  const groupRatio = own(options.get('GroupRatio'), group) ?? 1;
  const modelPrice = own(options.get('ModelPrice'), model);
  if (modelPrice !== undefined) {
    return { billing: 'call', modelPrice, groupRatio, quotaPerUnit: options.get('QuotaPerUnit') };
  }
  const modelRatio = own(options.get('ModelRatio'), model);
  if (modelRatio === undefined) {
    // Ratio 0 makes every token free (the formula's "at least 1" applies only to non-zero ratios).
    if (options.get('SelfUseModeEnabled')) return { ...FREE, groupRatio };
    throw new RelayError(
      400,
      `model ${model} has no price: an administrator must set its ratio (ModelRatio) or its per-call price (ModelPrice) in the operation settings`,
      'model_price_not_set',
    );
  }
  return {
    billing: 'tokens',
    modelRatio,
    completionRatio: own(options.get('CompletionRatio'), model) ?? 1,
    groupRatio,
    cacheRatio: own(options.get('CacheRatio'), model) ?? 1,
    // A model missing from the table pays Anthropic's 5-minute cache-write price (1.25).
    cacheWriteRatio: own(options.get('CreateCacheRatio'), model) ?? DEFAULT_CACHE_WRITE_RATIO,
  };
}

/** Output tokens held for a call without a client limit when the option names neither the model nor "*". */
const FALLBACK_MAX_TOKENS = 4096;

/** A reply shorter than this is not worth starting: the call is refused instead of capped lower. */
export const MIN_USEFUL_OUTPUT_TOKENS = 16;

/** The output tokens a call without max_tokens holds: the model's DefaultMaxTokens entry, else "*". */
export function defaultMaxTokens(table: Readonly<Record<string, number>>, model: string): number {
  return own(table, model) ?? own(table, '*') ?? FALLBACK_MAX_TOKENS;
}

/**
 * The most output tokens `quota` pays for on top of the prompt, up to `limit` (the quota formula is
 * monotone in the output, so a binary search over it gives the exact integer answer).
 */
export function affordableOutputTokens(
  pricing: TokenPricing,
  promptEstimate: number,
  quota: number,
  limit: number,
): number {
  const cost = (output: number) =>
    tokenQuota({ promptTokens: promptEstimate, completionTokens: output }, pricing);
  if (cost(0) > quota) return 0;
  let low = 0;
  let high = limit;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (cost(mid) <= quota) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** What a call holds before it is relayed. */
export interface HoldPlan {
  /** The hold covering the call's worst case: prompt estimate plus the whole output limit. */
  amount: number;
  /** The output limit `amount` covers; undefined for per-call prices and free models. */
  outputTokens: number | undefined;
  /**
   * The smaller hold a tighter balance still allows (the output is then capped to it), or undefined
   * when what is left buys less than a useful reply. Absent when the hold cannot shrink.
   */
  fit?: (available: number) => number | undefined;
}

/**
 * The hold of a call: a per-call price holds the price itself; a per-token price holds the prompt
 * estimate plus the client's output limit, or the model's default limit when the client set none.
 */
export function planHold(
  pricing: Pricing,
  promptEstimate: number,
  clientLimit: number | undefined,
  defaultTokens: number,
): HoldPlan {
  if (pricing.billing === 'call') return { amount: callQuota(pricing), outputTokens: undefined };
  const limit = clientLimit !== undefined && clientLimit > 0 ? clientLimit : defaultTokens;
  const amount = tokenQuota({ promptTokens: promptEstimate, completionTokens: limit }, pricing);
  if (amount === 0) return { amount, outputTokens: undefined };
  const useful = Math.min(limit, MIN_USEFUL_OUTPUT_TOKENS);
  return {
    amount,
    outputTokens: limit,
    fit(available) {
      const output = affordableOutputTokens(pricing, promptEstimate, available, limit);
      if (output < useful) return undefined;
      return tokenQuota({ promptTokens: promptEstimate, completionTokens: output }, pricing);
    },
  };
}
