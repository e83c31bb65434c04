// The badges above the log table: consumed quota, RPM and TPM within the current filters.
import { Space, Tag } from 'antd';
import type { LogStat } from '@sluice/shared';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../components/quota';

export function LogStats({ stat, loading }: { stat: LogStat | undefined; loading: boolean }) {
  const { t } = useTranslation();
  const formatQuota = useFormatQuota();
  const value = (n: number | undefined, format: (n: number) => string = String) =>
    loading || n === undefined ? '…' : format(n);
  const badge = (label: string, text: string, colour: string) => (
    <Tag
      color={colour}
      aria-label={`${label}: ${text}`}
      style={{ fontSize: 14, padding: '4px 10px', margin: 0 }}
    >
      {label}: {text}
    </Tag>
  );
  return (
    <Space wrap size={8} style={{ marginBottom: 16 }} aria-label={t('logs.stats.title')}>
      {badge(t('logs.stats.quota'), value(stat?.quota, formatQuota), 'blue')}
      {badge(t('logs.stats.rpm'), value(stat?.rpm), 'pink')}
      {badge(t('logs.stats.tpm'), value(stat?.tpm), 'gold')}
    </Space>
  );
}
