// /task: async task records (Suno music and lyrics). Admins see every user's and may filter by
// channel; rows open a dialog with everything recorded.
import { Card, Form, Input } from 'antd';
import type { TaskItem } from '@sluice/shared';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, ListSearch, useList } from '../../components/data-table';
import { useUser, userIsAdmin } from '../../lib/session';
import { DateTimeField } from '../logs/components/date-time-field';
import { nowSeconds } from '../logs/time-range';
import { defaultTaskFilters, fetchTaskPage } from './api';
import { taskColumns } from './task-columns';
import { TaskDetailsDialog } from './task-details-dialog';

const rowKey = (task: TaskItem) => task.id;

export function TasksPage() {
  const { t } = useTranslation();
  const admin = userIsAdmin(useUser());
  const [filters] = useState(() => defaultTaskFilters(nowSeconds()));
  const [details, setDetails] = useState<TaskItem | null>(null);
  const fetchPage = useMemo(() => fetchTaskPage(admin), [admin]);
  const list = useList<TaskItem>({ id: admin ? 'tasks' : 'tasks-self', filters, rowKey, fetchPage });
  const columns = useMemo(() => taskColumns({ t, admin, onDetails: setDetails }), [t, admin]);

  return (
    <Card title={<h1 style={{ fontSize: 'inherit', margin: 0 }}>{t('tasks.title')}</h1>}>
      <ListSearch list={list}>
        {admin && (
          <Form.Item name="channel_id">
            <Input
              allowClear
              inputMode="numeric"
              aria-label={t('logs.filter.channel')}
              placeholder={t('logs.filter.channel')}
              style={{ width: 120 }}
            />
          </Form.Item>
        )}
        <Form.Item name="task_id">
          <Input
            allowClear
            aria-label={t('tasks.filter.taskId')}
            placeholder={t('tasks.filter.taskId')}
            style={{ width: 200 }}
          />
        </Form.Item>
        <DateTimeField name="start_timestamp" label={t('logs.filter.startTime')} />
        <DateTimeField name="end_timestamp" label={t('logs.filter.endTime')} />
      </ListSearch>
      <DataTable list={list} columns={columns} />
      <TaskDetailsDialog task={details} onClose={() => setDetails(null)} />
    </Card>
  );
}
