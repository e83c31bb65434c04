// Wording of the log rows this server writes itself (top-ups), so amounts read the same everywhere.
import { formatQuota } from '@sluice/shared';
import type { OptionStore } from '../options/option-store.js';

/** "$1.00" when the site shows currency, else "500000 quota". */
export function describeQuota(options: OptionStore, quota: number): string {
  if (!options.get('DisplayInCurrencyEnabled')) return `${quota} quota`;
  return formatQuota(quota, { displayInCurrency: true, quotaPerUnit: options.get('QuotaPerUnit') });
}
