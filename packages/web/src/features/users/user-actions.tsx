// The action buttons of one user row: only the ones that apply to the row's role and status (a
// regular user can be promoted, an admin demoted, nobody above admin either). The server still
// decides, and explains, whether the caller may act on this user.
import { Button, Popconfirm, Space } from 'antd';
import { ROLE, USER_STATUS } from '@sluice/shared';
import type { PublicUser, UserAction } from '@sluice/shared';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isDeregistered } from './labels';

/** Status 3 has no enable action in the classic console; keep it that way. */
const NOT_ENABLEABLE_STATUS = 3;

export interface UserActionsProps {
  user: PublicUser;
  /** The action in flight on this row, if any. */
  pending: UserAction | null;
  onAction(user: PublicUser, action: UserAction): void;
}

export function UserActions({ user, pending, onAction }: UserActionsProps) {
  const { t } = useTranslation();
  if (isDeregistered(user)) return null;
  const busy = pending !== null;
  const button = (action: UserAction, disabled = false) => (
    <Button
      size="small"
      loading={pending === action}
      disabled={disabled || (busy && pending !== action)}
      onClick={() => onAction(user, action)}
    >
      {t(`users.action.${action}`)}
    </Button>
  );
  const enabled = user.status === USER_STATUS.enabled;
  return (
    <Space size={4} wrap={false}>
      {user.role < ROLE.admin && button('promote')}
      {user.role >= ROLE.admin && user.role < ROLE.root && button('demote')}
      {enabled ? button('disable') : button('enable', user.status === NOT_ENABLEABLE_STATUS)}
      <Popconfirm
        title={t('users.deleteTitle', { username: user.username })}
        description={t('users.deleteWarning')}
        okText={t('users.action.delete')}
        cancelText={t('common.cancel')}
        okButtonProps={{ danger: true }}
        onConfirm={() => onAction(user, 'delete')}
      >
        <Button size="small" danger loading={pending === 'delete'} disabled={busy && pending !== 'delete'}>
          {t('users.action.delete')}
        </Button>
      </Popconfirm>
      <Link to={`/user/edit/${user.id}`} style={{ padding: '0 8px' }}>
        {t('users.action.edit')}
      </Link>
    </Space>
  );
}
