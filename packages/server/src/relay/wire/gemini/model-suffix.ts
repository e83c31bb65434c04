// Thinking switches written into a Gemini model name (gemini-2.5-flash-thinking-8192): the suffix sets
// the thinking config and the base name is what goes upstream.
import type { ChatReasoningConfig } from '../../ir/chat.js';

export interface GeminiModelSuffix {
  /** The model name without the suffix. */
  model: string;
  reasoning?: ChatReasoningConfig;
}

/** Larger budgets are not a thinking budget any Gemini model takes; such a name is left as it is. */
const MAX_BUDGET = 1_000_000;

/**
 * `-thinking`: thinking on with the model's dynamic budget (no budget in the IR; the Gemini encoder
 * sends thinkingBudget -1), thoughts returned. `-thinking-<n>`: a budget of n tokens, thoughts
 * returned. `-nothinking`: budget 0 (off). Only a suffix at the very end counts, so real model names
 * such as gemini-2.0-flash-thinking-exp-01-21 are left alone.
 */
export function parseGeminiModelSuffix(model: string): GeminiModelSuffix {
  const off = /^(.+)-nothinking$/.exec(model);
  if (off?.[1]) return { model: off[1], reasoning: { budgetTokens: 0 } };
  const budgeted = /^(.+)-thinking-(\d{1,7})$/.exec(model);
  if (budgeted?.[1] && budgeted[2]) {
    const budget = Number(budgeted[2]);
    if (budget <= MAX_BUDGET) {
      return { model: budgeted[1], reasoning: { budgetTokens: budget, includeThoughts: true } };
    }
    return { model };
  }
  const on = /^(.+)-thinking$/.exec(model);
  if (on?.[1]) return { model: on[1], reasoning: { includeThoughts: true } };
  return { model };
}
