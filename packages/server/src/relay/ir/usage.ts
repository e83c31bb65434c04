// Token usage, normalised once: promptTokens always includes cached prompt tokens (the OpenAI
// convention); adapters of vendors that count them apart (Anthropic) add them in.

export interface IrUsage {
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens served from the provider's cache (part of promptTokens). */
  cachedTokens: number;
}

export const emptyUsage = (): IrUsage => ({ promptTokens: 0, completionTokens: 0, cachedTokens: 0 });
