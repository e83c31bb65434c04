// Price of a prompt token written to the vendor's cache relative to an uncached one (option
// CreateCacheRatio). Anthropic bills a 5-minute cache write at 1.25× the input price (a 1-hour write
// at 2×); OpenAI, Gemini and DeepSeek write their caches at no extra charge and report no writes.

/** What a model missing from CreateCacheRatio pays per cache-write token: Anthropic's 5-minute price. */
export const DEFAULT_CACHE_WRITE_RATIO = 1.25;

/** Claude models with prompt caching (dated ids and Anthropic's aliases): reads 0.1×, writes 1.25×. */
export const CLAUDE_PROMPT_CACHE_MODELS: readonly string[] = [
  'claude-3-haiku-20240307',
  'claude-3-5-haiku-20241022',
  'claude-3-5-haiku-latest',
  'claude-3-5-sonnet-20241022',
  'claude-3-5-sonnet-latest',
  'claude-3-7-sonnet-20250219',
  'claude-3-7-sonnet-latest',
  'claude-sonnet-4-20250514',
  'claude-sonnet-4-0',
  'claude-opus-4-20250514',
  'claude-opus-4-0',
  'claude-opus-4-1-20250805',
  'claude-opus-4-1',
  'claude-sonnet-4-5-20250929',
  'claude-sonnet-4-5',
  'claude-haiku-4-5-20251001',
  'claude-haiku-4-5',
  'claude-opus-4-5-20251101',
  'claude-opus-4-5',
];

export const DEFAULT_CREATE_CACHE_RATIO: Record<string, number> = Object.fromEntries(
  CLAUDE_PROMPT_CACHE_MODELS.map((model) => [model, DEFAULT_CACHE_WRITE_RATIO]),
);
