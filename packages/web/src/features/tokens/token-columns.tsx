// The columns of the token table (spec part 2 §2): name, status and group, quotas, times, actions.
import { Flex, Tag } from 'antd';
import type { TableColumnsType } from 'antd';
import type { TokenView } from '@sluice/shared';
import type { TFunction } from 'i18next';
import { formatTimestamp } from '../../lib/dates';
import { TokenActions } from './token-actions';
import type { TokenAction } from './token-actions';
import { tokenStatusLabel } from './token-labels';
import type { TokenStatusLabel } from './token-labels';

const STATUS_COLORS: Record<TokenStatusLabel, string> = {
  enabled: 'green',
  enabledLimited: 'green',
  disabled: 'red',
  expired: 'gold',
  exhausted: 'orange',
  unknown: 'default',
};

/** Date above time: keeps the table narrow enough for the actions on a laptop screen. */
function DateTime({ seconds }: { seconds: number }) {
  const [date, time] = formatTimestamp(seconds).split(' ');
  return (
    <span style={{ whiteSpace: 'nowrap' }}>
      {date}
      {time && <br />}
      {time}
    </span>
  );
}

export interface TokenColumnOptions {
  t: TFunction;
  formatQuota(quota: number): string;
  pendingFor(id: number): TokenAction | null;
  onAction(token: TokenView, action: TokenAction): void;
  onEdit(token: TokenView): void;
  /** Keep the actions in view while the other columns scroll (wide screens; phones need the room). */
  pinActions: boolean;
}

export function tokenColumns({
  t,
  formatQuota,
  pendingFor,
  onAction,
  onEdit,
  pinActions,
}: TokenColumnOptions): TableColumnsType<TokenView> {
  return [
    { title: t('tokens.column.name'), dataIndex: 'name', key: 'name' },
    {
      title: t('tokens.column.status'),
      key: 'status',
      render: (_, token) => {
        const label = tokenStatusLabel(token);
        return (
          <Flex vertical gap={4} align="start">
            <Tag color={STATUS_COLORS[label]} style={{ marginInlineEnd: 0 }}>
              {t(`tokens.status.${label}`)}
            </Tag>
            <Tag style={{ marginInlineEnd: 0 }}>{token.group || t('tokens.ownGroup')}</Tag>
          </Flex>
        );
      },
    },
    {
      title: t('tokens.column.used'),
      key: 'used',
      render: (_, token) => formatQuota(token.used_quota),
    },
    {
      title: t('tokens.column.remaining'),
      key: 'remaining',
      render: (_, token) =>
        token.unlimited_quota ? (
          <Tag color="blue" style={{ marginInlineEnd: 0 }}>
            {t('tokens.unlimited')}
          </Tag>
        ) : (
          formatQuota(token.remain_quota)
        ),
    },
    {
      title: t('tokens.column.created'),
      key: 'created',
      render: (_, token) => <DateTime seconds={token.created_time} />,
    },
    {
      title: t('tokens.column.expires'),
      key: 'expires',
      render: (_, token) =>
        token.expired_time === -1 ? t('tokens.never') : <DateTime seconds={token.expired_time} />,
    },
    {
      title: t('tokens.column.actions'),
      key: 'actions',
      fixed: pinActions ? 'right' : undefined,
      render: (_, token) => (
        <TokenActions token={token} pending={pendingFor(token.id)} onAction={onAction} onEdit={onEdit} />
      ),
    },
  ];
}
