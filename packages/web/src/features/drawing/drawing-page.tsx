// /midjourney: drawing records. Admins see every user's and may filter by channel; a drawing's task
// id opens everything recorded about it.
import { Card } from 'antd';
import type { MidjourneyItem } from '@sluice/shared';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, ListSearch, useList } from '../../components/data-table';
import { useUser, userIsAdmin } from '../../lib/session';
import { drawingDefaultRange, nowSeconds } from '../logs/time-range';
import { RecordFilters, defaultRecordFilters, fetchRecordPage } from '../tasks/record-list';
import { DRAWING_LIST } from './api';
import { drawingColumns } from './drawing-columns';
import { DrawingDetailsDialog } from './drawing-details-dialog';

const rowKey = (task: MidjourneyItem) => task.id;

export function DrawingPage() {
  const { t } = useTranslation();
  const admin = userIsAdmin(useUser());
  const [filters] = useState(() => defaultRecordFilters(DRAWING_LIST, drawingDefaultRange(nowSeconds())));
  const fetchPage = useMemo(() => fetchRecordPage<MidjourneyItem>(DRAWING_LIST, admin), [admin]);
  const list = useList<MidjourneyItem>({
    id: admin ? 'drawing' : 'drawing-self',
    filters,
    rowKey,
    fetchPage,
  });
  const [details, setDetails] = useState<MidjourneyItem | null>(null);
  const columns = useMemo(() => drawingColumns({ t, admin, onDetails: setDetails }), [t, admin]);

  return (
    <Card title={<h1 style={{ fontSize: 'inherit', margin: 0 }}>{t('drawing.title')}</h1>}>
      <ListSearch list={list}>
        <RecordFilters spec={DRAWING_LIST} admin={admin} idLabel={t('drawing.filter.mjId')} />
      </ListSearch>
      <DataTable list={list} columns={columns} />
      <DrawingDetailsDialog drawing={details} onClose={() => setDetails(null)} />
    </Card>
  );
}
