// Calls of the site settings tabs: the option list, one PUT per changed key, log purge, ratio reset.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { OptionEntry } from '@sluice/shared';
import { useCallback } from 'react';
import { api } from '../../../lib/api';
import { statusQueryKey } from '../../../lib/status';
import type { OptionChange, StoredOptions } from './fields';

export const optionsQueryKey = ['options'] as const;

export const useOptions = () =>
  useQuery({
    queryKey: optionsQueryKey,
    queryFn: async (): Promise<StoredOptions> => {
      const entries = await api.get<OptionEntry[]>('/api/option/');
      return Object.fromEntries(entries.map((entry) => [entry.key, entry.value]));
    },
  });

/** Silent: the card shows each key's reason beside its field and one summary toast. */
export const putOption = (change: OptionChange) => api.put<null>('/api/option/', change, { silent: true });

/** Purges logs created before the time (unix seconds); answers how many were deleted. */
export const purgeLogs = (targetTimestamp: number) =>
  api.delete<number>('/api/log/', { query: { target_timestamp: targetTimestamp } });

export const resetModelRatios = () => api.post<null>('/api/option/rest_model_ratio');

/** After a save: the cached options take the saved values; the public status may have changed too. */
export function useAfterSave(): (saved: OptionChange[]) => void {
  const queryClient = useQueryClient();
  return useCallback(
    (saved: OptionChange[]) => {
      if (saved.length === 0) return;
      queryClient.setQueryData<StoredOptions>(optionsQueryKey, (old) => {
        const next = { ...old };
        // Secrets are never listed, so they stay out of the cache too.
        for (const { key, value } of saved) if (old && key in old) next[key] = value;
        return next;
      });
      void queryClient.invalidateQueries({ queryKey: statusQueryKey });
    },
    [queryClient],
  );
}

/** Reloads the options from the server (after a reset changed several at once). */
export function useReloadOptions(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: optionsQueryKey }), [queryClient]);
}
