// Token usage, normalised once: promptTokens always includes cached prompt tokens (the OpenAI
// convention); adapters of vendors that count them apart (Anthropic) add them in.

export interface IrUsage {
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens served from the provider's cache (part of promptTokens). */
  cachedTokens: number;
  /** Prompt tokens written to the provider's cache (part of promptTokens; Anthropic bills them apart). */
  cacheWriteTokens?: number;
  /** Thinking tokens (part of completionTokens). */
  reasoningTokens?: number;
}

export const emptyUsage = (): IrUsage => ({ promptTokens: 0, completionTokens: 0, cachedTokens: 0 });

/** No single call plausibly uses more tokens than this; a larger count is a broken upstream. */
export const MAX_TOKENS_PER_CALL = 10_000_000;

/**
 * A token count as an upstream reported it: a missing field is 0; a non-negative whole number up to
 * MAX_TOKENS_PER_CALL is taken as it is; anything else (negative, fractional, a string, NaN, 1e300)
 * is null, and the caller then counts the tokens itself instead of billing a number it cannot trust.
 */
export function upstreamTokenCount(value: unknown): number | null {
  if (value === undefined || value === null) return 0;
  return Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= MAX_TOKENS_PER_CALL
    ? (value as number)
    : null;
}

/** Builds usage from upstream counts, or undefined (count locally) when any of them is not believable. */
export function trustedUsage(counts: {
  prompt: unknown;
  completion: unknown;
  cached: unknown;
}): IrUsage | undefined {
  const promptTokens = upstreamTokenCount(counts.prompt);
  const completionTokens = upstreamTokenCount(counts.completion);
  const cachedTokens = upstreamTokenCount(counts.cached);
  if (promptTokens === null || completionTokens === null || cachedTokens === null) return undefined;
  return { promptTokens, completionTokens, cachedTokens: Math.min(cachedTokens, promptTokens) };
}
