// The quota formula (ARCHITECTURE §1, spec part 2 §9), in exact decimal arithmetic.
// Token billing: round((prompt − cached − cacheWrite + cached × CacheRatio
//   + cacheWrite × CreateCacheRatio + completion × CompletionRatio) × ModelRatio × GroupRatio),
//   at least 1 when the ratios are non-zero and tokens were used.
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
import type { Decimal } from './exact-decimal.js';

// Whatever the inputs, a charge is a whole number from 0 to MAX_SAFE_INTEGER: counts and ratios that
// are negative, fractional or not finite are read as 0 (a count is floored), and a product past the
// safe range is capped, so no arithmetic on quota ever yields a float, NaN or an unsafe integer.
const MAX_QUOTA = decimalFromInt(Number.MAX_SAFE_INTEGER);

const safeCount = (n: number | undefined): number =>
  n !== undefined && Number.isFinite(n) && n > 0 ? Math.min(Math.floor(n), Number.MAX_SAFE_INTEGER) : 0;

const safeRatio = (n: number): Decimal => toDecimal(Number.isFinite(n) && n > 0 ? n : 0);

function safeQuota(value: Decimal): number {
  if (value.units <= 0n) return 0;
  return subDecimal(value, MAX_QUOTA).units > 0n ? Number.MAX_SAFE_INTEGER : roundDecimal(value);
}

export interface TokenPricing {
  billing: 'tokens';
  modelRatio: number;
  completionRatio: number;
  groupRatio: number;
  /** Price of a cached prompt token relative to an uncached one (1 = no discount). */
  cacheRatio: number;
  /**
   * Price of a prompt token written to the vendor's cache relative to an uncached one (option
   * CreateCacheRatio; Anthropic's 5-minute cache write is 1.25).
   */
  cacheWriteRatio: number;
}

export interface CallPricing {
  billing: 'call';
  /** US dollars per call. */
  modelPrice: number;
  groupRatio: number;
  quotaPerUnit: number;
}

export type Pricing = TokenPricing | CallPricing;

/**
 * Token counts, normalised: promptTokens includes cachedTokens and cacheWriteTokens (the OpenAI
 * convention; the relay adds in what Anthropic counts apart).
 */
export interface TokenCounts {
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens read from the vendor's cache. */
  cachedTokens?: number;
  /** Prompt tokens written to the vendor's cache. */
  cacheWriteTokens?: number;
}

export function tokenQuota(counts: TokenCounts, pricing: TokenPricing): number {
  const prompt = safeCount(counts.promptTokens);
  const completionTokens = safeCount(counts.completionTokens);
  // Cache reads and writes are parts of the prompt: together they never exceed it, reads first.
  const cached = Math.min(safeCount(counts.cachedTokens), prompt);
  const cacheWrite = Math.min(safeCount(counts.cacheWriteTokens), prompt - cached);
  const cachedPart = mulDecimal(decimalFromInt(cached), safeRatio(pricing.cacheRatio));
  const cacheWritePart = mulDecimal(decimalFromInt(cacheWrite), safeRatio(pricing.cacheWriteRatio));
  const uncached = decimalFromInt(prompt - cached - cacheWrite);
  const completion = mulDecimal(decimalFromInt(completionTokens), safeRatio(pricing.completionRatio));
  const weighted = addDecimal(addDecimal(addDecimal(uncached, cachedPart), cacheWritePart), completion);
  const ratio = mulDecimal(safeRatio(pricing.modelRatio), safeRatio(pricing.groupRatio));
  const quota = safeQuota(mulDecimal(weighted, ratio));
  const usedTokens = prompt + completionTokens > 0;
  if (quota <= 0 && usedTokens && !isZeroDecimal(ratio)) return 1;
  return quota;
}

export function callQuota(pricing: CallPricing): number {
  return safeQuota(
    mulDecimal(
      mulDecimal(safeRatio(pricing.modelPrice), safeRatio(pricing.quotaPerUnit)),
      safeRatio(pricing.groupRatio),
    ),
  );
}

/** The quota one call costs: per call when the model has a price, else by its token counts. */
export const quotaFor = (counts: TokenCounts, pricing: Pricing): number =>
  pricing.billing === 'call' ? callQuota(pricing) : tokenQuota(counts, pricing);
