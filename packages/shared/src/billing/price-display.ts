// Prices as the pricing page and hints show them (spec part 1 §9, part 2 §9). Display only: floating
// point is fine here because nothing these return is ever charged.

/** US dollars per 1M prompt and completion tokens (model ratio 1 = $2 per 1M prompt tokens). */
export function pricePerMillion(
  modelRatio: number,
  completionRatio: number,
  groupRatio = 1,
): { prompt: number; completion: number } {
  const prompt = modelRatio * 2 * groupRatio;
  return { prompt, completion: prompt * completionRatio };
}

/** The fee of one call in US dollars: group ratio × model ratio × (prompt + completion × ratio) / 500000. */
export function usageFeeUsd(
  usage: { promptTokens: number; completionTokens: number },
  ratios: { modelRatio: number; completionRatio: number; groupRatio: number },
  quotaPerUnit = 500_000,
): number {
  const weighted = usage.promptTokens + usage.completionTokens * ratios.completionRatio;
  return (ratios.groupRatio * ratios.modelRatio * weighted) / quotaPerUnit;
}
