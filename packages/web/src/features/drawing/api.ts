// The drawing list (GET /api/mj/ for admins, /api/mj/self/ otherwise; 1-based p).
import type { MidjourneyItem, Page } from '@sluice/shared';
import type { ListFetchArgs, ListFilters } from '../../components/data-table';
import { api } from '../../lib/api';
import { drawingDefaultRange } from '../logs/time-range';

export function defaultDrawingFilters(now: number): ListFilters {
  const range = drawingDefaultRange(now);
  return {
    channel_id: '',
    mj_id: '',
    start_timestamp: String(range.start),
    end_timestamp: String(range.end),
  };
}

const blankAsAbsent = (value: string | undefined) =>
  value === undefined || value === '' ? undefined : value;

export const fetchDrawingPage =
  (admin: boolean) =>
  async ({
    page,
    pageSize,
    filters,
    signal,
  }: ListFetchArgs): Promise<{ items: MidjourneyItem[]; total: number }> => {
    const answer = await api.get<Page<MidjourneyItem>>(
      admin ? '/api/mj/' : '/api/mj/self/',
      {
        p: page + 1,
        page_size: pageSize,
        channel_id: admin ? blankAsAbsent(filters.channel_id) : undefined,
        mj_id: blankAsAbsent(filters.mj_id),
        start_timestamp: blankAsAbsent(filters.start_timestamp),
        end_timestamp: blankAsAbsent(filters.end_timestamp),
      },
      { signal },
    );
    return { items: answer.items, total: answer.total };
  };
