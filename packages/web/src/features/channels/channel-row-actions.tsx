// The buttons of a channel row (test with a per-model menu, enable/disable, edit, and a menu with
// copy and delete) and of a tag row (enable all, disable all, edit the tag).
import { DownOutlined, EllipsisOutlined } from '@ant-design/icons';
import { Button, Dropdown, Space } from 'antd';
import type { ChannelTagRow, ChannelView } from '@sluice/shared';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../components/feedback';
import { tagRowKey } from './api';
import type { ChannelActions } from './use-channel-actions';

/** Long model lists scroll inside the menu instead of running off the screen. */
const MENU_STYLE = { maxHeight: 320, overflowY: 'auto' as const };

export function ChannelRowActions({
  channel,
  actions,
  onEdit,
}: {
  channel: ChannelView;
  actions: ChannelActions;
  onEdit(channel: ChannelView): void;
}) {
  const { t } = useTranslation();
  const { modal } = useFeedback();
  const pending = actions.pendingFor(channel.id);
  const busy = pending !== null;
  const enabled = channel.status === 1;
  return (
    <Space size={4} wrap={false}>
      <Space.Compact size="small">
        <Button
          loading={pending === 'test'}
          disabled={busy && pending !== 'test'}
          onClick={() => actions.test(channel)}
        >
          {t('channels.action.test')}
        </Button>
        <Dropdown
          trigger={['click']}
          disabled={busy || channel.test_models.length === 0}
          menu={{
            style: MENU_STYLE,
            items: channel.test_models.map((model) => ({ key: model, label: model })),
            onClick: ({ key }) => actions.test(channel, key),
          }}
        >
          <Button
            icon={<DownOutlined />}
            aria-label={t('channels.action.testModel', { name: channel.name })}
          />
        </Dropdown>
      </Space.Compact>
      <Button
        size="small"
        loading={pending === 'status'}
        disabled={busy && pending !== 'status'}
        danger={enabled}
        onClick={() => actions.toggleStatus(channel)}
      >
        {t(enabled ? 'channels.action.disable' : 'channels.action.enable')}
      </Button>
      <Button size="small" disabled={busy} onClick={() => onEdit(channel)}>
        {t('channels.action.edit')}
      </Button>
      <Dropdown
        trigger={['click']}
        disabled={busy}
        menu={{
          items: [
            { key: 'copy', label: t('channels.action.copy') },
            { key: 'delete', label: t('channels.action.delete'), danger: true },
          ],
          onClick: ({ key }) => {
            if (key === 'copy') return actions.copy(channel);
            modal.confirm({
              title: t('channels.confirm.deleteTitle', { name: channel.name }),
              content: t('channels.confirm.cannotUndo'),
              okText: t('channels.action.delete'),
              okButtonProps: { danger: true },
              onOk: () => actions.remove(channel),
            });
          },
        }}
      >
        <Button
          size="small"
          icon={<EllipsisOutlined />}
          loading={pending === 'copy' || pending === 'delete'}
          aria-label={t('channels.action.more', { name: channel.name })}
        />
      </Dropdown>
    </Space>
  );
}

export function TagRowActions({
  row,
  actions,
  onEdit,
}: {
  row: ChannelTagRow;
  actions: ChannelActions;
  onEdit(row: ChannelTagRow): void;
}) {
  const { t } = useTranslation();
  const pending = actions.pendingFor(tagRowKey(row.tag));
  const busy = pending !== null;
  // Wraps rather than widening the pinned column past what a channel row needs.
  return (
    <Space size={4} wrap>
      <Button
        size="small"
        loading={pending === 'enableAll'}
        disabled={(busy && pending !== 'enableAll') || row.enabled_count === row.channel_count}
        onClick={() => actions.setTagStatus(row, true)}
      >
        {t('channels.action.enableAll')}
      </Button>
      <Button
        size="small"
        danger
        loading={pending === 'disableAll'}
        disabled={(busy && pending !== 'disableAll') || row.enabled_count === 0}
        onClick={() => actions.setTagStatus(row, false)}
      >
        {t('channels.action.disableAll')}
      </Button>
      <Button size="small" disabled={busy} onClick={() => onEdit(row)}>
        {t('channels.action.editTag')}
      </Button>
    </Space>
  );
}
