// The columns of the user table (spec part 1 §2): identity, group, usage, invites, role, status,
// actions. Quota figures follow the site's display setting (currency or abbreviated counts).
import { Space, Tag, Tooltip, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import type { PublicUser, UserAction } from '@sluice/shared';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { roleLabel, statusLabel } from './labels';
import type { RoleLabel, StatusLabel } from './labels';
import { UserActions } from './user-actions';
import type { Caller } from './user-permissions';

const ROLE_COLORS: Record<RoleLabel, string | undefined> = {
  user: undefined,
  admin: 'gold',
  root: 'orange',
  unknown: 'red',
};

const STATUS_COLORS: Record<StatusLabel, string> = {
  enabled: 'green',
  banned: 'red',
  deregistered: 'default',
  unknown: 'default',
};

/** A figure with its meaning in a tooltip and for screen readers. */
function Figure({ label, color, children }: { label: string; color?: string; children: ReactNode }) {
  return (
    <Tooltip title={label}>
      <Tag color={color} aria-label={`${label}: ${String(children)}`} style={{ marginInlineEnd: 0 }}>
        {children}
      </Tag>
    </Tooltip>
  );
}

export interface UserColumnOptions {
  t: TFunction;
  /** The signed-in user: decides which row actions are offered. */
  caller: Caller | null;
  formatQuota(quota: number): string;
  pendingFor(id: number): UserAction | null;
  onAction(user: PublicUser, action: UserAction): void;
}

export function userColumns({
  t,
  caller,
  formatQuota,
  pendingFor,
  onAction,
}: UserColumnOptions): TableColumnsType<PublicUser> {
  return [
    { title: t('users.column.id'), dataIndex: 'id', key: 'id', width: 72 },
    {
      title: t('users.column.username'),
      key: 'username',
      render: (_, user) => (
        <div style={{ lineHeight: 1.3 }}>
          <div>{user.username}</div>
          {user.display_name && user.display_name !== user.username && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {user.display_name}
            </Typography.Text>
          )}
        </div>
      ),
    },
    {
      title: t('users.column.group'),
      dataIndex: 'group',
      key: 'group',
      render: (group: string) => <Tag>{group}</Tag>,
    },
    {
      title: t('users.column.stats'),
      key: 'stats',
      render: (_, user) => (
        <Space size={4}>
          <Figure label={t('users.stats.remaining')} color="green">
            {formatQuota(user.quota)}
          </Figure>
          <Figure label={t('users.stats.used')} color="blue">
            {formatQuota(user.used_quota)}
          </Figure>
          <Figure label={t('users.stats.calls')} color="cyan">
            {user.request_count}
          </Figure>
        </Space>
      ),
    },
    {
      title: t('users.column.invite'),
      key: 'invite',
      render: (_, user) => (
        <Space size={4}>
          <Figure label={t('users.invite.count')} color="geekblue">
            {user.aff_count}
          </Figure>
          <Figure label={t('users.invite.earnings')} color="purple">
            {formatQuota(user.aff_history_quota)}
          </Figure>
          <Figure label={t('users.invite.inviter')}>
            {user.inviter_id > 0 ? user.inviter_id : t('users.invite.none')}
          </Figure>
        </Space>
      ),
    },
    {
      title: t('users.column.role'),
      key: 'role',
      render: (_, user) => {
        const label = roleLabel(user.role);
        return <Tag color={ROLE_COLORS[label]}>{t(`users.role.${label}`)}</Tag>;
      },
    },
    {
      title: t('users.column.status'),
      key: 'status',
      render: (_, user) => {
        const label = statusLabel(user);
        return <Tag color={STATUS_COLORS[label]}>{t(`users.status.${label}`)}</Tag>;
      },
    },
    {
      title: t('users.column.actions'),
      key: 'actions',
      render: (_, user) => (
        <UserActions user={user} caller={caller} pending={pendingFor(user.id)} onAction={onAction} />
      ),
    },
  ];
}
