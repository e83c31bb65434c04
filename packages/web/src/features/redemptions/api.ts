// Calls of the redemption code page: the list (through the list kit), row actions, create, update.
import { useMutation } from '@tanstack/react-query';
import { REDEMPTION_STATUS } from '@sluice/shared';
import type { RedemptionCreate, RedemptionUpdate, RedemptionView } from '@sluice/shared';
import type { ListFetchArgs } from '../../components/data-table';
import { api } from '../../lib/api';

export const REDEMPTION_LIST_ID = 'redemptions';

/** Both the list and the search answer a bare array, paged with a 0-based p. */
export function fetchRedemptionPage({
  page,
  pageSize,
  filters,
  signal,
}: ListFetchArgs): Promise<RedemptionView[]> {
  const keyword = filters.keyword ?? '';
  const paging = { p: page, size: pageSize };
  return keyword
    ? api.get<RedemptionView[]>('/api/redemption/search', { ...paging, keyword }, { signal })
    : api.get<RedemptionView[]>('/api/redemption/', paging, { signal });
}

export const setRedemptionStatus = (id: number, status: 1 | 2) =>
  api.put<RedemptionView>('/api/redemption/?status_only=true', { id, status });

export const deleteRedemption = (id: number) => api.delete<null>(`/api/redemption/${id}/`);

/** Answers the created codes. */
export const useCreateRedemptions = () =>
  useMutation({ mutationFn: (input: RedemptionCreate) => api.post<string[]>('/api/redemption/', input) });

export const useUpdateRedemption = () =>
  useMutation({
    mutationFn: (input: RedemptionUpdate) => api.put<RedemptionView>('/api/redemption/', input),
  });

export type RedemptionStatusLabel = 'unused' | 'disabled' | 'used' | 'unknown';

/** Spec part 2 §4: 1 unused, 2 disabled, 3 used, anything else unknown. */
export function redemptionStatusLabel(status: number): RedemptionStatusLabel {
  if (status === REDEMPTION_STATUS.unused) return 'unused';
  if (status === REDEMPTION_STATUS.disabled) return 'disabled';
  if (status === REDEMPTION_STATUS.used) return 'used';
  return 'unknown';
}
