// The columns of the redemption code table (spec part 2 §2) and each row's actions: copy, delete,
// enable/disable (a used code cannot be enabled), edit (unused codes only).
import { CopyOutlined } from '@ant-design/icons';
import { Button, Popconfirm, Space, Tag } from 'antd';
import type { TableColumnsType } from 'antd';
import { REDEMPTION_STATUS } from '@sluice/shared';
import type { RedemptionView } from '@sluice/shared';
import type { TFunction } from 'i18next';
import { formatTimestamp } from '../../lib/dates';
import { redemptionStatusLabel } from './api';
import type { RedemptionStatusLabel } from './api';

export type RedemptionAction = 'delete' | 'enable' | 'disable';

const STATUS_COLORS: Record<RedemptionStatusLabel, string> = {
  unused: 'green',
  disabled: 'red',
  used: 'default',
  unknown: 'default',
};

export interface RedemptionColumnOptions {
  t: TFunction;
  formatQuota(quota: number): string;
  pendingFor(id: number): RedemptionAction | null;
  onAction(redemption: RedemptionView, action: RedemptionAction): void;
  onCopy(redemption: RedemptionView): void;
  onEdit(redemption: RedemptionView): void;
}

export function redemptionColumns(options: RedemptionColumnOptions): TableColumnsType<RedemptionView> {
  const { t, formatQuota } = options;
  return [
    { title: t('redemptions.column.id'), dataIndex: 'id', key: 'id', width: 72 },
    { title: t('redemptions.column.name'), dataIndex: 'name', key: 'name' },
    {
      title: t('redemptions.column.status'),
      key: 'status',
      render: (_, row) => {
        const label = redemptionStatusLabel(row.status);
        return (
          <Tag color={STATUS_COLORS[label]} style={{ marginInlineEnd: 0 }}>
            {t(`redemptions.status.${label}`)}
          </Tag>
        );
      },
    },
    { title: t('redemptions.column.quota'), key: 'quota', render: (_, row) => formatQuota(row.quota) },
    {
      title: t('redemptions.column.created'),
      key: 'created',
      render: (_, row) => formatTimestamp(row.created_time),
    },
    {
      title: t('redemptions.column.redeemer'),
      key: 'redeemer',
      render: (_, row) => (row.used_user_id === 0 ? t('redemptions.none') : row.used_user_id),
    },
    {
      title: t('redemptions.column.actions'),
      key: 'actions',
      render: (_, row) => <RedemptionActions row={row} {...options} />,
    },
  ];
}

function RedemptionActions({
  row,
  t,
  pendingFor,
  onAction,
  onCopy,
  onEdit,
}: RedemptionColumnOptions & { row: RedemptionView }) {
  const pending = pendingFor(row.id);
  const busy = pending !== null;
  const unused = row.status === REDEMPTION_STATUS.unused;
  const toggle: RedemptionAction = unused ? 'disable' : 'enable';
  return (
    <Space size={4} wrap={false}>
      <Button size="small" icon={<CopyOutlined />} onClick={() => onCopy(row)}>
        {t('redemptions.action.copy')}
      </Button>
      <Popconfirm
        title={t('redemptions.deleteTitle', { name: row.name })}
        description={t('redemptions.deleteWarning')}
        okText={t('redemptions.action.delete')}
        cancelText={t('common.cancel')}
        okButtonProps={{ danger: true }}
        onConfirm={() => onAction(row, 'delete')}
      >
        <Button size="small" danger loading={pending === 'delete'} disabled={busy && pending !== 'delete'}>
          {t('redemptions.action.delete')}
        </Button>
      </Popconfirm>
      <Button
        size="small"
        loading={pending === toggle}
        disabled={row.status === REDEMPTION_STATUS.used || (busy && pending !== toggle)}
        onClick={() => onAction(row, toggle)}
      >
        {t(`redemptions.action.${toggle}`)}
      </Button>
      <Button size="small" disabled={!unused || busy} onClick={() => onEdit(row)}>
        {t('redemptions.action.edit')}
      </Button>
    </Space>
  );
}
