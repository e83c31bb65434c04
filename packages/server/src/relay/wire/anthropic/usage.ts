// Anthropic usage ↔ IrUsage. Anthropic's input_tokens exclude cache reads and writes; the IR's
// promptTokens include both (the OpenAI convention), so the two directions add and subtract them.
import type { IrUsage } from '../../ir/usage.js';
import { upstreamTokenCount } from '../../ir/usage.js';
import { isRecord } from './shared.js';

/** Anthropic's usage counts as an upstream sent them, before any is trusted. */
export interface AnthropicUsageCounts {
  input: unknown;
  output: unknown;
  cacheRead: unknown;
  cacheCreation: unknown;
  thinking: unknown;
}

export function usageCounts(usage: unknown): AnthropicUsageCounts | undefined {
  if (!isRecord(usage)) return undefined;
  const details = usage.output_tokens_details;
  return {
    input: usage.input_tokens,
    output: usage.output_tokens,
    cacheRead: usage.cache_read_input_tokens,
    cacheCreation: usage.cache_creation_input_tokens,
    thinking: isRecord(details) ? details.thinking_tokens : undefined,
  };
}

/** Normalised usage, or undefined (Sluice counts itself) when any count is not believable. */
export function usageFromCounts(counts: AnthropicUsageCounts): IrUsage | undefined {
  const input = upstreamTokenCount(counts.input);
  const output = upstreamTokenCount(counts.output);
  const cacheRead = upstreamTokenCount(counts.cacheRead);
  const cacheCreation = upstreamTokenCount(counts.cacheCreation);
  const thinking = upstreamTokenCount(counts.thinking);
  if (
    input === null ||
    output === null ||
    cacheRead === null ||
    cacheCreation === null ||
    thinking === null
  ) {
    return undefined;
  }
  return {
    promptTokens: input + cacheRead + cacheCreation,
    completionTokens: output,
    cachedTokens: cacheRead,
    cacheWriteTokens: cacheCreation,
    reasoningTokens:
      counts.thinking === undefined || counts.thinking === null ? undefined : Math.min(thinking, output),
  };
}

/** An Anthropic `usage` object (a message's, or a message_delta's) as IrUsage. */
export function anthropicUsage(usage: unknown): IrUsage | undefined {
  const counts = usageCounts(usage);
  return counts === undefined ? undefined : usageFromCounts(counts);
}

/** IrUsage as the four counts Anthropic reports. */
export function encodeAnthropicUsage(usage: IrUsage) {
  const cacheRead = usage.cachedTokens;
  const cacheCreation = usage.cacheWriteTokens ?? 0;
  return {
    input_tokens: Math.max(0, usage.promptTokens - cacheRead - cacheCreation),
    cache_creation_input_tokens: cacheCreation,
    cache_read_input_tokens: cacheRead,
    output_tokens: usage.completionTokens,
  };
}
