// What a call should cost by the quota formula, from the usage the upstream reported in its vendor's
// shape: what the relay suites hold the consume log to. Each vendor counts cache and thoughts its way.
import type { AnthropicUsage, ChatUsage, GeminiUsage, ResponsesUsage } from '@sluice/mock-upstream';
import { tokenQuota } from '@sluice/shared';
import type { TokenPricing } from '@sluice/shared';

/** Anthropic counts cache reads and writes apart from input_tokens: the prompt is the three together. */
export const anthropicBill = (usage: AnthropicUsage, pricing: TokenPricing): number =>
  tokenQuota(
    {
      promptTokens: usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens,
      cachedTokens: usage.cache_read_input_tokens,
      cacheWriteTokens: usage.cache_creation_input_tokens,
      completionTokens: usage.output_tokens,
    },
    pricing,
  );

/** Gemini's thoughts are output, and its cached tokens are inside the prompt. */
export const geminiBill = (usage: GeminiUsage, pricing: TokenPricing): number =>
  tokenQuota(
    {
      promptTokens: usage.promptTokenCount,
      cachedTokens: usage.cachedContentTokenCount ?? 0,
      completionTokens: (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0),
    },
    pricing,
  );

export const chatBill = (usage: ChatUsage, pricing: TokenPricing): number =>
  tokenQuota(
    {
      promptTokens: usage.prompt_tokens,
      cachedTokens: usage.prompt_tokens_details.cached_tokens,
      completionTokens: usage.completion_tokens,
    },
    pricing,
  );

export const responsesBill = (usage: ResponsesUsage, pricing: TokenPricing): number =>
  tokenQuota(
    {
      promptTokens: usage.input_tokens,
      cachedTokens: usage.input_tokens_details.cached_tokens,
      completionTokens: usage.output_tokens,
    },
    pricing,
  );

/** The ratio options that give every one of the models this pricing. */
export function pricingOptions(models: readonly string[], pricing: TokenPricing) {
  const each = (value: number) => Object.fromEntries(models.map((model) => [model, value]));
  return {
    ModelRatio: each(pricing.modelRatio),
    CompletionRatio: each(pricing.completionRatio),
    CacheRatio: each(pricing.cacheRatio),
    CreateCacheRatio: each(pricing.cacheWriteRatio),
  };
}
