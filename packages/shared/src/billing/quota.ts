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
  const completion = safeCount(counts.completionTokens);
  // Cache reads and writes are parts of the prompt: together they never exceed it, reads first.
  const cached = Math.min(safeCount(counts.cachedTokens), prompt);
  const cacheWrite = Math.min(safeCount(counts.cacheWriteTokens), prompt - cached);
  return (
    smallTokenQuota(prompt, cached, cacheWrite, completion, pricing) ??
    decimalTokenQuota(prompt, cached, cacheWrite, completion, pricing)
  );
}

/**
 * The formula on BigInt decimals: exact whatever the figures. Exported so tests can hold the
 * plain-number path (smallTokenQuota) to it.
 */
export function decimalTokenQuota(
  prompt: number,
  cached: number,
  cacheWrite: number,
  completionTokens: number,
  pricing: TokenPricing,
): number {
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

// The same formula on plain numbers, when every figure on the way is a whole number of at most
// MAX_SAFE_INTEGER (then each product and sum is exact in a double): the usual call, priced with
// ratios of a few decimals. It gives the decimal formula's result or undefined, never another
// number. A call priced this way made about 2 KiB of BigInt garbage and took about 4.7 k instructions
// (callgrind); this path makes none.

/** value = units / 10^scale, with units a safe integer. */
interface SmallDecimal {
  readonly units: number;
  readonly scale: number;
}

/** Powers of ten that are exact doubles and safe integers. */
const POW10 = Array.from({ length: 16 }, (_, n) => 10 ** n);
const MAX = Number.MAX_SAFE_INTEGER;
const MAX_UNITS = BigInt(MAX);
const SMALL_RATIOS = 512;
/** Keyed by the ratio as given; null when its digits do not fit a safe integer. */
const smallRatios = new Map<number, SmallDecimal | null>();

function smallRatio(value: number): SmallDecimal | null {
  let small = smallRatios.get(value);
  if (small === undefined) {
    const decimal = safeRatio(value);
    small = decimal.units <= MAX_UNITS ? { units: Number(decimal.units), scale: decimal.scale } : null;
    if (smallRatios.size >= SMALL_RATIOS) smallRatios.clear();
    smallRatios.set(value, small);
  }
  return small;
}

/** a × b, or NaN when it is past MAX (a true product past it is a double past it too). */
const mul = (a: number, b: number): number => {
  const product = a * b;
  return product <= MAX ? product : Number.NaN;
};
const add = (a: number, b: number): number => {
  const sum = a + b;
  return sum <= MAX ? sum : Number.NaN;
};

function smallTokenQuota(
  prompt: number,
  cached: number,
  cacheWrite: number,
  completion: number,
  pricing: TokenPricing,
): number | undefined {
  const cacheRatio = smallRatio(pricing.cacheRatio);
  const writeRatio = smallRatio(pricing.cacheWriteRatio);
  const completionRatio = smallRatio(pricing.completionRatio);
  const modelRatio = smallRatio(pricing.modelRatio);
  const groupRatio = smallRatio(pricing.groupRatio);
  if (!cacheRatio || !writeRatio || !completionRatio || !modelRatio || !groupRatio) return undefined;
  // The weighted tokens in units of 10^-scale, times the ratio in units of 10^-ratioScale.
  const scale = Math.max(cacheRatio.scale, writeRatio.scale, completionRatio.scale);
  const ratioScale = modelRatio.scale + groupRatio.scale;
  const divisor = POW10[scale + ratioScale];
  if (divisor === undefined) return undefined;
  const part = (tokens: number, ratio: SmallDecimal) =>
    mul(mul(tokens, ratio.units), POW10[scale - ratio.scale] as number);
  const weighted = add(
    add(
      add(mul(prompt - cached - cacheWrite, POW10[scale] as number), part(cached, cacheRatio)),
      part(cacheWrite, writeRatio),
    ),
    part(completion, completionRatio),
  );
  const ratio = mul(modelRatio.units, groupRatio.units);
  const value = mul(weighted, ratio);
  // Room for the quotient's correction below: quotient × divisor stays a safe integer.
  if (!(value <= MAX - divisor)) return undefined;
  // value / divisor rounded half away from zero (value ≥ 0), the quotient corrected to be exact.
  let quotient = Math.floor(value / divisor);
  let rest = value - quotient * divisor;
  if (rest < 0) {
    quotient--;
    rest += divisor;
  } else if (rest >= divisor) {
    quotient++;
    rest -= divisor;
  }
  const quota = rest * 2 >= divisor ? quotient + 1 : quotient;
  if (quota <= 0 && prompt + completion > 0 && ratio !== 0) return 1;
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
