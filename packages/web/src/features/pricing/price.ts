// What the pricing page shows for one model in one group (spec part 2 §9): per-usage models cost
// model ratio × 2 × group ratio dollars per 1M prompt tokens and that × the completion ratio per 1M
// completion tokens; per-call models cost their price × the group ratio. Display only.
import type { PricingEntry } from '@sluice/shared';
import { abbreviateNumber, pricePerMillion } from '@sluice/shared';

export interface PriceDisplaySettings {
  /** The site's display_in_currency: '$' amounts, else quota units. */
  displayInCurrency: boolean;
  /** Quota per US dollar (quota_per_unit). */
  quotaPerUnit: number;
}

export type DisplayedPrice =
  { type: 'usage'; prompt: string; completion: string } | { type: 'call'; perCall: string };

const TOKENS_PER_PRICE = 1_000_000;

/** Drops binary floating-point noise (0.1 × 3 → 0.3) before a number is shown. */
const clean = (value: number): number => Number(value.toPrecision(12));

export const formatUsd = (value: number): string => `$${clean(value).toString()}`;

export const formatQuotaUnits = (value: number): string => abbreviateNumber(clean(value));

export function displayedPrice(
  entry: Pick<PricingEntry, 'quota_type' | 'model_ratio' | 'model_price' | 'completion_ratio'>,
  groupRatio: number,
  settings: PriceDisplaySettings,
): DisplayedPrice {
  if (entry.quota_type === 1) {
    const usd = entry.model_price * groupRatio;
    return {
      type: 'call',
      // Billed as ModelPrice × QuotaPerUnit × GroupRatio.
      perCall: settings.displayInCurrency ? formatUsd(usd) : formatQuotaUnits(usd * settings.quotaPerUnit),
    };
  }
  if (settings.displayInCurrency) {
    const { prompt, completion } = pricePerMillion(entry.model_ratio, entry.completion_ratio, groupRatio);
    return { type: 'usage', prompt: formatUsd(prompt), completion: formatUsd(completion) };
  }
  // In quota units: what 1M tokens are billed (tokens × model ratio × group ratio).
  const prompt = entry.model_ratio * groupRatio * TOKENS_PER_PRICE;
  return {
    type: 'usage',
    prompt: formatQuotaUnits(prompt),
    completion: formatQuotaUnits(prompt * entry.completion_ratio),
  };
}

/** The ratio of a group; groups without one are billed at 1. */
export const groupRatioOf = (ratios: Record<string, number>, group: string): number => {
  const ratio = ratios[group];
  return typeof ratio === 'number' && Number.isFinite(ratio) ? ratio : 1;
};

/** A model is available when an enabled channel serves it to the group. */
export const isAvailable = (entry: Pick<PricingEntry, 'enable_groups'>, group: string): boolean =>
  entry.enable_groups.includes(group);

/**
 * The group prices are shown for: the one the user chose, else their own (visitors: default), else
 * the first group they may use.
 */
export function shownGroup(usable: Record<string, string>, chosen: string | null, own: string): string {
  if (chosen !== null && Object.hasOwn(usable, chosen)) return chosen;
  const choices = Object.keys(usable);
  if (choices.length === 0 || Object.hasOwn(usable, own)) return own;
  return choices[0] ?? own;
}
