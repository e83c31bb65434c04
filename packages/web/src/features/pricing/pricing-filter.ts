// The pricing table's search: the whole price list comes in one answer, so filtering and paging
// happen here.
import type { PricingEntry } from '@sluice/shared';

export const PRICING_FILTERS = { keyword: '', group: '', type: '' };

export type BillingTypeFilter = '' | 'usage' | 'call';

export function filterModels(models: PricingEntry[], filters: Record<string, string>): PricingEntry[] {
  const keyword = (filters.keyword ?? '').trim().toLowerCase();
  const group = filters.group ?? '';
  const type = filters.type ?? '';
  return models.filter(
    (m) =>
      (keyword === '' || m.model_name.toLowerCase().includes(keyword)) &&
      (group === '' || m.enable_groups.includes(group)) &&
      (type === '' || (type === 'call' ? m.quota_type === 1 : m.quota_type === 0)),
  );
}

/** Every group some model is served in, for the group filter. */
export const servedGroups = (models: PricingEntry[]): string[] =>
  [...new Set(models.flatMap((m) => m.enable_groups))].sort();

export const pageOf = <T>(rows: T[], page: number, pageSize: number): T[] =>
  rows.slice(page * pageSize, (page + 1) * pageSize);
