// /detail: the data dashboard (when the site enables data export): usage totals and charts over a
// time range, bucketed by hour, day or week. Admins see everyone's usage or one user's.
import { SearchOutlined } from '@ant-design/icons';
import { Button, Card, Col, Form, Input, Result, Row, Select, Space, Spin, Statistic, Table } from 'antd';
import type { DashboardGranularity } from '@sluice/shared';
import { DASHBOARD_GRANULARITIES } from '@sluice/shared';
import { Suspense, lazy, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../components/quota';
import { useUser, userIsAdmin } from '../../lib/session';
import { useStatus, useStatusLoaded } from '../../lib/status';
import { DateTimeField } from '../logs/components/date-time-field';
import { dashboardDefaultRange, nowSeconds } from '../logs/time-range';
import { useDashboard } from './api';
import type { DashboardParams } from './api';
import { summarise } from './summarise';
import type { ModelShare } from './summarise';

const UsageCharts = lazy(() => import('./usage-charts').then((m) => ({ default: m.UsageCharts })));

const isGranularity = (value: unknown): value is DashboardGranularity =>
  (DASHBOARD_GRANULARITIES as readonly unknown[]).includes(value);

interface FormValues {
  start_timestamp: string;
  end_timestamp: string;
  granularity: DashboardGranularity;
  username?: string;
}

function initialParams(granularity: DashboardGranularity): DashboardParams {
  const range = dashboardDefaultRange(nowSeconds(), granularity);
  return { start: range.start, end: range.end, granularity, username: '' };
}

export function DashboardPage() {
  const { t } = useTranslation();
  const status = useStatus();
  const statusLoaded = useStatusLoaded();
  const admin = userIsAdmin(useUser());
  const formatQuota = useFormatQuota();
  const [params, setParams] = useState(() =>
    initialParams(isGranularity(status.data_export_default_time) ? status.data_export_default_time : 'hour'),
  );
  const data = useDashboard(admin, params);
  const summary = useMemo(() => summarise(data.data ?? []), [data.data]);

  if (!status.enable_data_export && statusLoaded) {
    return <Result status="info" title={t('dashboard.disabled')} />;
  }

  const submit = (values: FormValues) =>
    setParams({
      start: Number(values.start_timestamp),
      end: Number(values.end_timestamp),
      granularity: values.granularity,
      username: values.username?.trim() ?? '',
    });

  const initialValues: FormValues = {
    start_timestamp: String(params.start),
    end_timestamp: String(params.end),
    granularity: params.granularity,
    username: params.username,
  };

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card title={<h1 style={{ fontSize: 'inherit', margin: 0 }}>{t('dashboard.title')}</h1>}>
        <Form<FormValues>
          layout="inline"
          initialValues={initialValues}
          onFinish={submit}
          style={{ rowGap: 8 }}
        >
          <DateTimeField name="start_timestamp" label={t('logs.filter.startTime')} />
          <DateTimeField name="end_timestamp" label={t('logs.filter.endTime')} />
          <Form.Item name="granularity">
            <Select
              aria-label={t('dashboard.granularity')}
              options={DASHBOARD_GRANULARITIES.map((g) => ({ value: g, label: t(`dashboard.by.${g}`) }))}
              style={{ width: 120 }}
            />
          </Form.Item>
          {admin && (
            <Form.Item name="username">
              <Input
                allowClear
                aria-label={t('logs.filter.username')}
                placeholder={t('logs.filter.username')}
                style={{ width: 160 }}
              />
            </Form.Item>
          )}
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />} loading={data.isFetching}>
            {t('table.query')}
          </Button>
        </Form>
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} sm={8}>
          <Card size="small">
            <Statistic
              title={t('dashboard.totalQuota')}
              value={formatQuota(summary.totals.quota)}
              loading={data.isPending}
            />
          </Card>
        </Col>
        <Col xs={24} sm={8}>
          <Card size="small">
            <Statistic
              title={t('dashboard.totalCalls')}
              value={summary.totals.count}
              loading={data.isPending}
            />
          </Card>
        </Col>
        <Col xs={24} sm={8}>
          <Card size="small">
            <Statistic
              title={t('dashboard.totalTokens')}
              value={summary.totals.tokens}
              loading={data.isPending}
            />
          </Card>
        </Col>
      </Row>
      {data.isPending ? (
        <Spin style={{ display: 'block', margin: '48px auto' }} />
      ) : (
        <Suspense fallback={<Spin style={{ display: 'block', margin: '48px auto' }} />}>
          <UsageCharts summary={summary} granularity={params.granularity} formatQuota={formatQuota} />
        </Suspense>
      )}
      {summary.models.length > 0 && (
        <Card title={t('dashboard.byModel')} size="small">
          <Table<ModelShare>
            size="small"
            rowKey="model"
            pagination={false}
            scroll={{ x: 'max-content' }}
            dataSource={summary.models}
            columns={[
              { title: t('dashboard.column.model'), dataIndex: 'model', key: 'model' },
              {
                title: t('dashboard.column.calls'),
                key: 'count',
                align: 'right',
                render: (_, share) => share.count.toLocaleString(),
              },
              {
                title: t('dashboard.column.tokens'),
                key: 'tokens',
                align: 'right',
                render: (_, share) => share.tokens.toLocaleString(),
              },
              {
                title: t('dashboard.column.quota'),
                key: 'quota',
                align: 'right',
                render: (_, share) => formatQuota(share.quota),
              },
            ]}
          />
        </Card>
      )}
    </Space>
  );
}
