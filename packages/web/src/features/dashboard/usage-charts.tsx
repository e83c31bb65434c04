// The dashboard's charts (recharts, loaded only by this page): quota over time stacked by model,
// and calls per model. Colours and text follow the antd theme so dark mode reads well.
import { Card, Col, Empty, Row, theme } from 'antd';
import type { DashboardGranularity } from '@sluice/shared';
import { useTranslation } from 'react-i18next';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { dayjs } from '../../lib/dates';
import { OTHER_SERIES } from './summarise';
import type { DashboardSummary } from './summarise';

const PALETTE = [
  '#1677ff',
  '#52c41a',
  '#fa8c16',
  '#eb2f96',
  '#13c2c2',
  '#722ed1',
  '#fadb14',
  '#f5222d',
  '#8c8c8c',
];
const colourAt = (index: number) => PALETTE[index % PALETTE.length] ?? '#8c8c8c';

const BUCKET_FORMAT: Record<DashboardGranularity, string> = {
  hour: 'MM-DD HH:00',
  day: 'YYYY-MM-DD',
  week: 'YYYY-MM-DD',
};

export interface UsageChartsProps {
  summary: DashboardSummary;
  granularity: DashboardGranularity;
  formatQuota(quota: number): string;
}

export function UsageCharts({ summary, granularity, formatQuota }: UsageChartsProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const seriesName = (name: string) => (name === OTHER_SERIES ? t('dashboard.otherModels') : name);
  const axis = { fill: token.colorTextSecondary, fontSize: 12 };
  const tooltipStyle = {
    background: token.colorBgElevated,
    border: `1px solid ${token.colorBorderSecondary}`,
    color: token.colorText,
  };
  const bucketLabel = (time: number) => dayjs.unix(time).format(BUCKET_FORMAT[granularity]);
  // Same series and order as the bars, so a model has one colour in both charts.
  const pieData = summary.callsBySeries.map((s) => ({ name: seriesName(s.name), value: s.count }));

  if (summary.buckets.length === 0) {
    return (
      <Card>
        <Empty description={t('dashboard.noData')} />
      </Card>
    );
  }

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={16}>
        <Card title={t('dashboard.quotaOverTime')} size="small">
          <div role="img" aria-label={t('dashboard.quotaOverTime')} style={{ width: '100%', height: 320 }}>
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={summary.buckets} margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
                <CartesianGrid stroke={token.colorBorderSecondary} vertical={false} />
                <XAxis
                  dataKey="time"
                  tickFormatter={bucketLabel}
                  tick={axis}
                  stroke={token.colorBorder}
                  minTickGap={16}
                />
                <YAxis
                  tickFormatter={(v: number) => formatQuota(v)}
                  tick={axis}
                  stroke={token.colorBorder}
                  width={64}
                />
                <Tooltip
                  contentStyle={tooltipStyle}
                  labelFormatter={(time) => bucketLabel(Number(time))}
                  formatter={(value) => formatQuota(Number(value))}
                  cursor={{ fill: token.colorFillTertiary }}
                />
                <Legend wrapperStyle={{ color: token.colorText, fontSize: 12 }} itemSorter={null} />
                {summary.series.map((name, index) => (
                  <Bar
                    key={name}
                    name={seriesName(name)}
                    dataKey={(bucket: DashboardSummary['buckets'][number]) => bucket.quota[name] ?? 0}
                    stackId="quota"
                    fill={colourAt(index)}
                    isAnimationActive={false}
                  />
                ))}
              </BarChart>
            </ResponsiveContainer>
          </div>
        </Card>
      </Col>
      <Col xs={24} xl={8}>
        <Card title={t('dashboard.callsByModel')} size="small">
          <div role="img" aria-label={t('dashboard.callsByModel')} style={{ width: '100%', height: 320 }}>
            <ResponsiveContainer width="100%" height="100%">
              <PieChart>
                <Pie
                  data={pieData}
                  dataKey="value"
                  nameKey="name"
                  innerRadius="45%"
                  outerRadius="75%"
                  stroke={token.colorBgContainer}
                  isAnimationActive={false}
                >
                  {pieData.map((entry, index) => (
                    <Cell key={entry.name} fill={colourAt(index)} />
                  ))}
                </Pie>
                <Tooltip contentStyle={tooltipStyle} itemStyle={{ color: token.colorText }} />
                <Legend wrapperStyle={{ color: token.colorText, fontSize: 12 }} itemSorter={null} />
              </PieChart>
            </ResponsiveContainer>
          </div>
        </Card>
      </Col>
    </Row>
  );
}
