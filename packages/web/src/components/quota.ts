import { useCallback } from 'react';
import { formatQuota } from '@sluice/shared';
import { useStatus } from '../lib/status';

/** Formats quota the way this site displays it (currency or abbreviated counts, spec part 1 §9). */
export function useFormatQuota(): (quota: number) => string {
  const status = useStatus();
  const { display_in_currency: displayInCurrency, quota_per_unit: quotaPerUnit } = status;
  return useCallback(
    (quota: number) => formatQuota(quota, { displayInCurrency, quotaPerUnit }),
    [displayInCurrency, quotaPerUnit],
  );
}
