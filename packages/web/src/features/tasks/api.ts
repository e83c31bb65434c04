// The async task list (GET /api/task/ for admins, /api/task/self otherwise; 1-based p).
import type { Page, TaskItem } from '@sluice/shared';
import type { ListFetchArgs, ListFilters } from '../../components/data-table';
import { api } from '../../lib/api';
import { taskDefaultRange } from '../logs/time-range';

export function defaultTaskFilters(now: number): ListFilters {
  const range = taskDefaultRange(now);
  return {
    channel_id: '',
    task_id: '',
    start_timestamp: String(range.start),
    end_timestamp: String(range.end),
  };
}

const blankAsAbsent = (value: string | undefined) =>
  value === undefined || value === '' ? undefined : value;

export const fetchTaskPage =
  (admin: boolean) =>
  async ({
    page,
    pageSize,
    filters,
    signal,
  }: ListFetchArgs): Promise<{ items: TaskItem[]; total: number }> => {
    const answer = await api.get<Page<TaskItem>>(
      admin ? '/api/task/' : '/api/task/self',
      {
        p: page + 1,
        page_size: pageSize,
        channel_id: admin ? blankAsAbsent(filters.channel_id) : undefined,
        task_id: blankAsAbsent(filters.task_id),
        start_timestamp: blankAsAbsent(filters.start_timestamp),
        end_timestamp: blankAsAbsent(filters.end_timestamp),
      },
      { signal },
    );
    return { items: answer.items, total: answer.total };
  };
