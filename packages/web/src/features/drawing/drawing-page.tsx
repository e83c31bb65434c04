// /midjourney: drawing records. Admins see every user's and may filter by channel.
import { Card, Form, Input } from 'antd';
import type { MidjourneyItem } from '@sluice/shared';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, ListSearch, useList } from '../../components/data-table';
import { useUser, userIsAdmin } from '../../lib/session';
import { DateTimeField } from '../logs/components/date-time-field';
import { nowSeconds } from '../logs/time-range';
import { defaultDrawingFilters, fetchDrawingPage } from './api';
import { drawingColumns } from './drawing-columns';

const rowKey = (task: MidjourneyItem) => task.id;

export function DrawingPage() {
  const { t } = useTranslation();
  const admin = userIsAdmin(useUser());
  const [filters] = useState(() => defaultDrawingFilters(nowSeconds()));
  const fetchPage = useMemo(() => fetchDrawingPage(admin), [admin]);
  const list = useList<MidjourneyItem>({
    id: admin ? 'drawing' : 'drawing-self',
    filters,
    rowKey,
    fetchPage,
  });
  const columns = useMemo(() => drawingColumns({ t, admin }), [t, admin]);

  return (
    <Card title={<h1 style={{ fontSize: 'inherit', margin: 0 }}>{t('drawing.title')}</h1>}>
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
        <Form.Item name="mj_id">
          <Input
            allowClear
            aria-label={t('drawing.filter.mjId')}
            placeholder={t('drawing.filter.mjId')}
            style={{ width: 200 }}
          />
        </Form.Item>
        <DateTimeField name="start_timestamp" label={t('logs.filter.startTime')} />
        <DateTimeField name="end_timestamp" label={t('logs.filter.endTime')} />
      </ListSearch>
      <DataTable list={list} columns={columns} />
    </Card>
  );
}
