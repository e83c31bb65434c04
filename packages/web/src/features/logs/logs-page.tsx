// /log: usage logs. Everyone sees their own rows; admins see all users' and may filter by channel
// and username. Rows expand to the details and the billing process.
import { Card, Form, Input, Select } from 'antd';
import type { LogItem } from '@sluice/shared';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, ListSearch, useList } from '../../components/data-table';
import { useFormatQuota } from '../../components/quota';
import { useUser, userIsAdmin } from '../../lib/session';
import { defaultLogFilters, fetchLogPage, useLogStat } from './api';
import { ChannelFilterField } from './components/channel-filter-field';
import { DateTimeField } from './components/date-time-field';
import { logColumns } from './log-columns';
import { LogDetails } from './log-details';
import { LogStats } from './log-stats';
import { LOG_TYPE_CHOICES } from './log-types';
import { nowSeconds } from './time-range';
import { UserInfoDialog } from './user-info-dialog';

const rowKey = (log: LogItem) => log.id;
const inputWidth = { width: 160 };

export function LogsPage() {
  const { t } = useTranslation();
  const admin = userIsAdmin(useUser());
  const formatQuota = useFormatQuota();
  // Computed once per visit: "now + 1 hour" must not move while the page is open.
  const [filters] = useState(() => defaultLogFilters(nowSeconds()));
  const [userId, setUserId] = useState<number | null>(null);
  const fetchPage = useMemo(() => fetchLogPage(admin), [admin]);
  const list = useList<LogItem>({ id: admin ? 'logs' : 'logs-self', filters, rowKey, fetchPage });
  const stat = useLogStat(admin, list.filters);

  const columns = useMemo(
    () => logColumns({ t, admin, formatQuota, onUser: setUserId }),
    [t, admin, formatQuota],
  );

  return (
    <Card title={<h1 style={{ fontSize: 'inherit', margin: 0 }}>{t('logs.title')}</h1>}>
      <LogStats stat={stat.data} loading={stat.isPending} />
      <ListSearch list={list}>
        <Form.Item name="token_name">
          <Input
            allowClear
            aria-label={t('logs.filter.tokenName')}
            placeholder={t('logs.filter.tokenName')}
            style={inputWidth}
          />
        </Form.Item>
        <Form.Item name="model_name">
          <Input
            allowClear
            aria-label={t('logs.filter.modelName')}
            placeholder={t('logs.filter.modelName')}
            style={inputWidth}
          />
        </Form.Item>
        <DateTimeField name="start_timestamp" label={t('logs.filter.startTime')} />
        <DateTimeField name="end_timestamp" label={t('logs.filter.endTime')} />
        {admin && <ChannelFilterField name="channel" />}
        {admin && (
          <Form.Item name="username">
            <Input
              allowClear
              aria-label={t('logs.filter.username')}
              placeholder={t('logs.filter.username')}
              style={inputWidth}
            />
          </Form.Item>
        )}
        <Form.Item name="type">
          <Select
            aria-label={t('logs.filter.type')}
            options={LOG_TYPE_CHOICES.map((c) => ({
              value: String(c.value),
              label: t(`logs.type.${c.name}`),
            }))}
            style={{ width: 140 }}
          />
        </Form.Item>
      </ListSearch>
      <DataTable
        list={list}
        columns={columns}
        tableProps={{
          expandable: {
            expandedRowRender: (log) => <LogDetails log={log} admin={admin} />,
            // A fixed column makes antd keep the expanded part within the visible width of a
            // horizontally scrolled table, instead of stretching it across every column.
            fixed: 'left',
          },
        }}
      />
      {admin && <UserInfoDialog userId={userId} onClose={() => setUserId(null)} />}
    </Card>
  );
}
