// The quota formula (ARCHITECTURE §1, spec part 2 §9), in exact decimal arithmetic.
// Token billing: round((uncached prompt + cached × CacheRatio + completion × CompletionRatio)
//   × ModelRatio × GroupRatio), at least 1 when the ratios are non-zero and tokens were used.
// Per-call billing: round(ModelPrice × QuotaPerUnit × GroupRatio).
import {
  addDecimal,
  decimalFromInt,
  isZeroDecimal,
  mulDecimal,
  roundDecimal,
  subDecimal,
  toDecimal,
} from './exact-decimal.js';

export interface TokenPricing {
  billing: 'tokens';
  modelRatio: number;
  completionRatio: number;
  groupRatio: number;
  /** Price of a cached prompt token relative to an uncached one (1 = no discount). */
  cacheRatio: number;
}

export interface CallPricing {
  billing: 'call';
  /** US dollars per call. */
  modelPrice: number;
  groupRatio: number;
  quotaPerUnit: number;
}

export type Pricing = TokenPricing | CallPricing;

/** Token counts, normalised: promptTokens includes cachedTokens (the OpenAI convention). */
export interface TokenCounts {
  promptTokens: number;
  completionTokens: number;
  cachedTokens?: number;
}

export function tokenQuota(counts: TokenCounts, pricing: TokenPricing): number {
  const cached = Math.min(Math.max(counts.cachedTokens ?? 0, 0), counts.promptTokens);
  const cachedPart = mulDecimal(decimalFromInt(cached), toDecimal(pricing.cacheRatio));
  const uncached = subDecimal(decimalFromInt(counts.promptTokens), decimalFromInt(cached));
  const completion = mulDecimal(decimalFromInt(counts.completionTokens), toDecimal(pricing.completionRatio));
  const weighted = addDecimal(addDecimal(uncached, cachedPart), completion);
  const ratio = mulDecimal(toDecimal(pricing.modelRatio), toDecimal(pricing.groupRatio));
  const quota = roundDecimal(mulDecimal(weighted, ratio));
  const usedTokens = counts.promptTokens + counts.completionTokens > 0;
  if (quota <= 0 && usedTokens && !isZeroDecimal(ratio)) return 1;
  return quota;
}

export function callQuota(pricing: CallPricing): number {
  return roundDecimal(
    mulDecimal(
      mulDecimal(toDecimal(pricing.modelPrice), toDecimal(pricing.quotaPerUnit)),
      toDecimal(pricing.groupRatio),
    ),
  );
}

/** The quota one call costs: per call when the model has a price, else by its token counts. */
export const quotaFor = (counts: TokenCounts, pricing: Pricing): number =>
  pricing.billing === 'call' ? callQuota(pricing) : tokenQuota(counts, pricing);
