// Price of a cached prompt token relative to an uncached one (cached input price ÷ input price, from
// the vendors' list prices). Models not listed pay the full prompt price for cached tokens.
export const DEFAULT_CACHE_RATIO: Record<string, number> = {
  'gpt-4o': 0.5,
  'gpt-4o-2024-08-06': 0.5,
  'gpt-4o-2024-11-20': 0.5,
  'gpt-4o-mini': 0.5,
  'gpt-4o-mini-2024-07-18': 0.5,
  'gpt-4.1': 0.25,
  'gpt-4.1-mini': 0.25,
  'gpt-4.1-nano': 0.25,
  'gpt-5': 0.1,
  'gpt-5-mini': 0.1,
  'gpt-5-nano': 0.1,
  o1: 0.5,
  'o1-mini': 0.5,
  o3: 0.25,
  'o3-mini': 0.5,
  'o4-mini': 0.25,
  'deepseek-chat': 0.1,
  'deepseek-reasoner': 0.1,
};
