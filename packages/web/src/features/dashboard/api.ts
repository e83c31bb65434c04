// The dashboard's one call: usage per model and time bucket (GET /api/data/ for admins, optionally
// for one username; /api/data/self otherwise).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { DashboardGranularity, DashboardRow } from '@sluice/shared';
import { api } from '../../lib/api';

export interface DashboardParams {
  start: number;
  end: number;
  granularity: DashboardGranularity;
  /** Admins only; blank means everyone. */
  username: string;
}

/** Minutes east of UTC, so day and week buckets start at the viewer's midnight. */
const utcOffset = () => -new Date().getTimezoneOffset();

export const useDashboard = (admin: boolean, params: DashboardParams) =>
  useQuery({
    queryKey: ['dashboard', admin, params],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      api.get<DashboardRow[]>(
        admin ? '/api/data/' : '/api/data/self',
        {
          start_timestamp: params.start,
          end_timestamp: params.end,
          granularity: params.granularity,
          utc_offset: utcOffset(),
          username: admin && params.username !== '' ? params.username : undefined,
        },
        { signal },
      ),
  });
