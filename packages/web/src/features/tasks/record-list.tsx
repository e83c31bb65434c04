// The shared shape of the drawing and task lists, as new-api serves them: admin/self endpoints with
// a 0-based p answering a plain array (the list kit pages it lazily: a short page is the last), a
// channel filter for admins, one id filter and a time range. The date filters hold unix seconds
// like every list's; each list sends them in the unit it stores its times in.
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ListFetchArgs, ListFilters } from '../../components/data-table';
import { api } from '../../lib/api';
import { ChannelFilterField } from '../logs/components/channel-filter-field';
import { DateTimeField } from '../logs/components/date-time-field';
import { secondsToUnit } from './labels';
import type { TimeUnit } from './labels';

export interface RecordListSpec {
  adminPath: string;
  selfPath: string;
  /** The query name of the list's own id filter (mj_id, task_id). */
  idFilter: string;
  /** The unit of the rows' times and of the time filters on the wire. */
  timeUnit: TimeUnit;
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

/** A date filter (unix seconds) in the list's unit; blank or unreadable is no bound. */
function timeBound(seconds: string | undefined, unit: TimeUnit): number | undefined {
  const value = Number(blankAsAbsent(seconds));
  return Number.isFinite(value) ? secondsToUnit(value, unit) : undefined;
}

export const fetchRecordPage =
  <T,>(spec: RecordListSpec, admin: boolean) =>
  ({ page, pageSize, filters, signal }: ListFetchArgs): Promise<T[]> =>
    api.get<T[]>(
      admin ? spec.adminPath : spec.selfPath,
      {
        p: page,
        page_size: pageSize,
        channel_id: admin ? blankAsAbsent(filters.channel_id) : undefined,
        [spec.idFilter]: blankAsAbsent(filters[spec.idFilter]),
        start_timestamp: timeBound(filters.start_timestamp, spec.timeUnit),
        end_timestamp: timeBound(filters.end_timestamp, spec.timeUnit),
      },
      { signal },
    );

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
