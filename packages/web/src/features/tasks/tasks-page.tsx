// /task: async task records (Suno music and lyrics). Admins see every user's and may filter by
// channel; rows open a dialog with everything recorded.
import { Card, Grid } from 'antd';
import type { TaskItem } from '@sluice/shared';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, ListSearch, useList } from '../../components/data-table';
import { useUser, userIsAdmin } from '../../lib/session';
import { nowSeconds, taskDefaultRange } from '../logs/time-range';
import { RecordFilters, defaultRecordFilters, fetchRecordPage } from './record-list';
import { TASK_LIST } from './api';
import { taskColumns } from './task-columns';
import { TaskDetailsDialog } from './task-details-dialog';

const rowKey = (task: TaskItem) => task.id;

export function TasksPage() {
  const { t } = useTranslation();
  const admin = userIsAdmin(useUser());
  const [filters] = useState(() => defaultRecordFilters(TASK_LIST, taskDefaultRange(nowSeconds())));
  const [details, setDetails] = useState<TaskItem | null>(null);
  const fetchPage = useMemo(() => fetchRecordPage<TaskItem>(TASK_LIST, admin), [admin]);
  const list = useList<TaskItem>({ id: admin ? 'tasks' : 'tasks-self', filters, rowKey, fetchPage });
  const pinResult = Grid.useBreakpoint().lg === true;
  const columns = useMemo(
    () => taskColumns({ t, admin, onDetails: setDetails, pinResult }),
    [t, admin, pinResult],
  );

  return (
    <Card title={<h1 style={{ fontSize: 'inherit', margin: 0 }}>{t('tasks.title')}</h1>}>
      <ListSearch list={list}>
        <RecordFilters spec={TASK_LIST} admin={admin} idLabel={t('tasks.filter.taskId')} />
      </ListSearch>
      <DataTable list={list} columns={columns} />
      <TaskDetailsDialog task={details} onClose={() => setDetails(null)} />
    </Card>
  );
}
