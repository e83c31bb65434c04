// The action buttons of one user row: only those the caller may use on this user (see
// user-permissions.ts) and that fit the row's status. The server still decides and explains.
import { Button, Popconfirm, Space } from 'antd';
import { USER_STATUS } from '@sluice/shared';
import type { PublicUser, UserAction } from '@sluice/shared';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { allowedUserActions } from './user-permissions';
import type { Caller } from './user-permissions';

/** Status 3 has no enable action in the classic console; keep it that way. */
const NOT_ENABLEABLE_STATUS = 3;

export interface UserActionsProps {
  user: PublicUser;
  /** The signed-in user; null shows no actions. */
  caller: Caller | null;
  /** The action in flight on this row, if any. */
  pending: UserAction | null;
  onAction(user: PublicUser, action: UserAction): void;
}

export function UserActions({ user, caller, pending, onAction }: UserActionsProps) {
  const { t } = useTranslation();
  const allowed = allowedUserActions(caller, user);
  if (allowed.size === 0) return null;
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
  const own = caller !== null && caller.id === user.id;
  return (
    <Space size={4} wrap={false}>
      {allowed.has('promote') && button('promote')}
      {allowed.has('demote') && button('demote')}
      {enabled
        ? allowed.has('disable') && button('disable')
        : allowed.has('enable') && button('enable', user.status === NOT_ENABLEABLE_STATUS)}
      {allowed.has('delete') && (
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
      )}
      {allowed.has('edit') && (
        <Link to={own ? '/user/edit' : `/user/edit/${user.id}`} style={{ padding: '0 8px' }}>
          {t('users.action.edit')}
        </Link>
      )}
    </Space>
  );
}
