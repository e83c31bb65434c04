// The shared shape of the drawing and task lists: admin/self endpoints with a 1-based p and
// {items,total} answers, a channel filter for admins, one id filter and a time range.
import { Form, Input } from 'antd';
import type { Page } from '@sluice/shared';
import { useTranslation } from 'react-i18next';
import type { ListFetchArgs, ListFilters } from '../../components/data-table';
import { api } from '../../lib/api';
import { ChannelFilterField } from '../logs/components/channel-filter-field';
import { DateTimeField } from '../logs/components/date-time-field';

export interface RecordListSpec {
  adminPath: string;
  selfPath: string;
  /** The query name of the list's own id filter (mj_id, task_id). */
  idFilter: string;
}

export function defaultRecordFilters(
  spec: RecordListSpec,
  range: { start: number; end: number },
): ListFilters {
  return {
    channel_id: '',
    [spec.idFilter]: '',
    start_timestamp: String(range.start),
    end_timestamp: String(range.end),
  };
}

const blankAsAbsent = (value: string | undefined) =>
  value === undefined || value === '' ? undefined : value;

export const fetchRecordPage =
  <T,>(spec: RecordListSpec, admin: boolean) =>
  async ({ page, pageSize, filters, signal }: ListFetchArgs): Promise<{ items: T[]; total: number }> => {
    const answer = await api.get<Page<T>>(
      admin ? spec.adminPath : spec.selfPath,
      {
        p: page + 1,
        page_size: pageSize,
        channel_id: admin ? blankAsAbsent(filters.channel_id) : undefined,
        [spec.idFilter]: blankAsAbsent(filters[spec.idFilter]),
        start_timestamp: blankAsAbsent(filters.start_timestamp),
        end_timestamp: blankAsAbsent(filters.end_timestamp),
      },
      { signal },
    );
    return { items: answer.items, total: answer.total };
  };

/** The filter inputs, to put inside the list's ListSearch. */
export function RecordFilters({
  spec,
  admin,
  idLabel,
}: {
  spec: RecordListSpec;
  admin: boolean;
  idLabel: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      {admin && <ChannelFilterField name="channel_id" />}
      <Form.Item name={spec.idFilter}>
        <Input allowClear aria-label={idLabel} placeholder={idLabel} style={{ width: 200 }} />
      </Form.Item>
      <DateTimeField name="start_timestamp" label={t('logs.filter.startTime')} />
      <DateTimeField name="end_timestamp" label={t('logs.filter.endTime')} />
    </>
  );
}
