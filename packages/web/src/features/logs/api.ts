// Calls of the log page: the list (everyone's for admins, one's own otherwise), its stats with the
// same filters, and the user behind a row (admins).
import { useQuery } from '@tanstack/react-query';
import type { LogItem, LogStat, Page, PublicUser } from '@sluice/shared';
import type { ListFetchArgs, ListFilters } from '../../components/data-table';
import { api } from '../../lib/api';
import type { QueryValue } from '../../lib/api';
import { logDefaultRange } from './time-range';

/** Filter names as the URL and the API spell them; admins add channel and username. */
export function defaultLogFilters(now: number): ListFilters {
  const range = logDefaultRange(now);
  return {
    token_name: '',
    model_name: '',
    start_timestamp: String(range.start),
    end_timestamp: String(range.end),
    channel: '',
    username: '',
    type: '0',
  };
}

const blankAsAbsent = (value: string | undefined): string | undefined =>
  value === undefined || value === '' ? undefined : value;

/** The query of a list or stat call; a regular user's call never carries the admin-only filters. */
export function logQuery(filters: ListFilters, admin: boolean): Record<string, QueryValue> {
  const query: Record<string, QueryValue> = {
    type: blankAsAbsent(filters.type),
    token_name: blankAsAbsent(filters.token_name),
    model_name: blankAsAbsent(filters.model_name),
    start_timestamp: blankAsAbsent(filters.start_timestamp),
    end_timestamp: blankAsAbsent(filters.end_timestamp),
  };
  if (admin) {
    query.username = blankAsAbsent(filters.username);
    query.channel = blankAsAbsent(filters.channel);
  }
  return query;
}

/** Logs answer {items, page, page_size, total} with a 1-based p. */
export const fetchLogPage =
  (admin: boolean) =>
  async ({
    page,
    pageSize,
    filters,
    signal,
  }: ListFetchArgs): Promise<{ items: LogItem[]; total: number }> => {
    const answer = await api.get<Page<LogItem>>(
      admin ? '/api/log/' : '/api/log/self/',
      { p: page + 1, page_size: pageSize, ...logQuery(filters, admin) },
      { signal },
    );
    return { items: answer.items, total: answer.total };
  };

export const useLogStat = (admin: boolean, filters: ListFilters) =>
  useQuery({
    queryKey: ['log-stat', admin, filters],
    queryFn: ({ signal }) =>
      api.get<LogStat>(admin ? '/api/log/stat' : '/api/log/self/stat', logQuery(filters, admin), { signal }),
    staleTime: 30_000,
  });

export const useUserInfo = (id: number | null) =>
  useQuery({
    queryKey: ['log-user', id],
    enabled: id !== null,
    queryFn: () => api.get<PublicUser>(`/api/user/${id ?? 0}`),
  });
