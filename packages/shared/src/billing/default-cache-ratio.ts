// Price of a cached prompt token relative to an uncached one (cached input price ÷ input price, from
// the vendors' list prices). Models not listed pay the full prompt price for cached tokens.
import { CLAUDE_PROMPT_CACHE_MODELS } from './default-create-cache-ratio.js';

/** Anthropic bills a cache read at 0.1× the input price. */
const CLAUDE_CACHE_READ_RATIO = 0.1;

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
  'gemini-2.5-pro': 0.25,
  'gemini-2.5-flash': 0.25,
  'gemini-2.0-flash': 0.25,
  ...Object.fromEntries(CLAUDE_PROMPT_CACHE_MODELS.map((model) => [model, CLAUDE_CACHE_READ_RATIO])),
};
