// Calls of the token page: the list (through the list kit), row actions, create and update, and the
// drawer's choices (models and groups the user may use).
import { useMutation, useQuery } from '@tanstack/react-query';
import type { TokenCreateInput, TokenUpdate, TokenView, UserGroups } from '@sluice/shared';
import type { ListFetchArgs } from '../../components/data-table';
import { api } from '../../lib/api';

export const TOKEN_LIST_ID = 'tokens';

/** Both the list and the search answer a bare array, paged with a 0-based p. */
export function fetchTokenPage({ page, pageSize, filters, signal }: ListFetchArgs): Promise<TokenView[]> {
  const keyword = filters.keyword ?? '';
  const token = filters.token ?? '';
  const paging = { p: page, size: pageSize };
  return keyword || token
    ? api.get<TokenView[]>('/api/token/search', { ...paging, keyword, token }, { signal })
    : api.get<TokenView[]>('/api/token/', paging, { signal });
}

export const setTokenStatus = (id: number, status: 1 | 2) =>
  api.put<TokenView>('/api/token/?status_only=true', { id, status });

export const deleteToken = (id: number) => api.delete<null>(`/api/token/${id}/`);

export const useCreateTokens = () =>
  useMutation({ mutationFn: (input: TokenCreateInput) => api.post<TokenView[]>('/api/token/', input) });

export const useUpdateToken = () =>
  useMutation({ mutationFn: (input: TokenUpdate) => api.put<TokenView>('/api/token/', input) });

/** Same cache entry as the personal settings' model list. */
export const useUserModels = (enabled: boolean) =>
  useQuery({
    queryKey: ['user', 'models'],
    enabled,
    queryFn: () => api.get<string[]>('/api/user/models'),
  });

export const useUserGroups = (enabled: boolean) =>
  useQuery({
    queryKey: ['user', 'groups'],
    enabled,
    queryFn: () => api.get<UserGroups>('/api/user/self/groups'),
  });
