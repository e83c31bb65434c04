// The action buttons of one token row: view and copy the key, open a chat front-end with it, delete,
// enable or disable, edit.
import { CommentOutlined, CopyOutlined, DeleteOutlined, EditOutlined, EyeOutlined } from '@ant-design/icons';
import { Button, Dropdown, Popconfirm, Popover, Space, Tooltip, Typography } from 'antd';
import type { ButtonProps } from 'antd';
import { TOKEN_STATUS } from '@sluice/shared';
import type { TokenView } from '@sluice/shared';
import { useTranslation } from 'react-i18next';
import { useCopy } from '../../components/copy';
import { useFeedback } from '../../components/feedback';
import { useStatus } from '../../lib/status';
import { chatLinks, fullKey } from './token-labels';

export type TokenAction = 'delete' | 'enable' | 'disable';

/** A small icon button named by its label (tooltip and screen readers): the row has many actions. */
function IconButton({ label, ...props }: ButtonProps & { label: string }) {
  return (
    <Tooltip title={label}>
      <Button size="small" aria-label={label} {...props} />
    </Tooltip>
  );
}

export interface TokenActionsProps {
  token: TokenView;
  /** The action in flight on this row, if any. */
  pending: TokenAction | null;
  onAction(token: TokenView, action: TokenAction): void;
  onEdit(token: TokenView): void;
}

function ChatMenu({ token }: { token: TokenView }) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const status = useStatus();
  const address = status.server_address || window.location.origin;
  const links = chatLinks(status.chats, token.key, address);
  const open = (url: string | null) => {
    if (url === null) void message.error(t('tokens.chatConfigError'));
    else window.open(url, '_blank', 'noopener,noreferrer');
  };
  const label = t('tokens.action.chat');
  if (links.length === 0) {
    return (
      <IconButton
        label={label}
        icon={<CommentOutlined />}
        onClick={() => void message.info(t('tokens.chatNotConfigured'))}
      />
    );
  }
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: links.map((link, index) => ({ key: String(index), label: link.name })),
        onClick: ({ key }) => open(links[Number(key)]?.url ?? null),
      }}
    >
      <IconButton label={label} icon={<CommentOutlined />} />
    </Dropdown>
  );
}

export function TokenActions({ token, pending, onAction, onEdit }: TokenActionsProps) {
  const { t } = useTranslation();
  const copy = useCopy();
  const busy = pending !== null;
  const key = fullKey(token.key);
  const enabled = token.status === TOKEN_STATUS.enabled;
  const toggle: TokenAction = enabled ? 'disable' : 'enable';

  return (
    <Space size={4} wrap={false}>
      <Popover
        trigger="click"
        title={t('tokens.action.keyTitle', { name: token.name })}
        content={
          <Typography.Text code style={{ wordBreak: 'break-all' }}>
            {key}
          </Typography.Text>
        }
      >
        <IconButton label={t('tokens.action.viewKey')} icon={<EyeOutlined />} />
      </Popover>
      <IconButton
        label={t('tokens.action.copy')}
        icon={<CopyOutlined />}
        onClick={() => void copy(key, t('tokens.action.keyCopied'))}
      />
      <ChatMenu token={token} />
      <Popconfirm
        title={t('tokens.deleteTitle', { name: token.name })}
        description={t('tokens.deleteWarning')}
        okText={t('tokens.action.delete')}
        cancelText={t('common.cancel')}
        okButtonProps={{ danger: true }}
        onConfirm={() => onAction(token, 'delete')}
      >
        <IconButton
          label={t('tokens.action.delete')}
          icon={<DeleteOutlined />}
          danger
          loading={pending === 'delete'}
          disabled={busy && pending !== 'delete'}
        />
      </Popconfirm>
      <Button
        size="small"
        loading={pending === toggle}
        disabled={busy && pending !== toggle}
        onClick={() => onAction(token, toggle)}
      >
        {t(`tokens.action.${toggle}`)}
      </Button>
      <IconButton
        label={t('tokens.action.edit')}
        icon={<EditOutlined />}
        disabled={busy}
        onClick={() => onEdit(token)}
      />
    </Space>
  );
}
