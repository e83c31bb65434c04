// The token a chat link uses: the first enabled one among the user's first 100 (spec part 2 §7).
import { useQuery } from '@tanstack/react-query';
import type { TokenView } from '@sluice/shared';
import { TOKEN_STATUS } from '@sluice/shared';
import { api } from '../../lib/api';

export async function fetchEnabledTokenKey(signal?: AbortSignal): Promise<string | null> {
  const tokens = await api.get<TokenView[]>('/api/token/', { p: 0, size: 100 }, { signal });
  return tokens.find((token) => token.status === TOKEN_STATUS.enabled)?.key ?? null;
}

export const useEnabledTokenKey = (enabled: boolean) =>
  useQuery({
    queryKey: ['chat', 'token-key'],
    queryFn: ({ signal }) => fetchEnabledTokenKey(signal),
    enabled,
    // A token enabled or created in the meantime is picked up on the next visit.
    staleTime: 0,
    gcTime: 0,
  });
