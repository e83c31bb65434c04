// The list's toggles (ID sort, batch delete, tag aggregation) and its page-wide buttons: add, test
// all, update all balances, delete disabled, refresh, delete selected, fix database consistency.
import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Space, Switch } from 'antd';
import { isChannelTagRow } from '@sluice/shared';
import type { ChannelListItem } from '@sluice/shared';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ListState } from '../../components/data-table';
import { useFeedback } from '../../components/feedback';
import { translateServerMessage } from '../../lib/api';
import {
  deleteChannelBatch,
  deleteDisabledChannels,
  fixChannelAbilities,
  testAllChannels,
  updateAllBalances,
} from './api';

export interface ChannelToolbarProps {
  list: ListState<ChannelListItem>;
  idSort: boolean;
  tagMode: boolean;
  batchMode: boolean;
  onIdSort(on: boolean): void;
  onTagMode(on: boolean): void;
  onBatchMode(on: boolean): void;
  onAdd(): void;
}

type ToolbarAction = 'testAll' | 'balances' | 'deleteDisabled' | 'deleteSelected' | 'fix';

function Toggle({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange(on: boolean): void;
}) {
  return (
    <label style={{ display: 'inline-flex', alignItems: 'center', gap: 6, whiteSpace: 'nowrap' }}>
      <Switch size="small" checked={checked} onChange={onChange} aria-label={label} />
      <span>{label}</span>
    </label>
  );
}

export function ChannelToolbar(props: ChannelToolbarProps) {
  const { list, idSort, tagMode, batchMode, onIdSort, onTagMode, onBatchMode, onAdd } = props;
  const { t } = useTranslation();
  const { message, modal } = useFeedback();
  const [running, setRunning] = useState<ToolbarAction | null>(null);

  const run = async (action: ToolbarAction, work: () => Promise<string>) => {
    setRunning(action);
    try {
      void message.success(await work());
      await list.refresh();
    } catch {
      // lib/api.ts has shown the reason.
    } finally {
      setRunning(null);
    }
  };

  const button = (action: ToolbarAction, label: ReactNode, onClick: () => void, danger = false) => (
    <Button
      loading={running === action}
      disabled={running !== null && running !== action}
      danger={danger}
      onClick={onClick}
    >
      {label}
    </Button>
  );

  const selectedIds = list.selectedRows.flatMap((row) => (isChannelTagRow(row) ? [] : [row.id]));

  const deleteSelected = () => {
    if (selectedIds.length === 0) {
      void message.warning(t('msg.selectChannelsToDelete'));
      return;
    }
    modal.confirm({
      title: t('channels.confirm.deleteSelectedTitle', { count: selectedIds.length }),
      content: t('channels.confirm.cannotUndo'),
      okText: t('channels.action.delete'),
      okButtonProps: { danger: true },
      onOk: () =>
        run('deleteSelected', async () => {
          const count = await deleteChannelBatch(selectedIds);
          list.clearSelection();
          return t('channels.done.deletedSelected', { count });
        }),
    });
  };

  const deleteDisabled = () =>
    modal.confirm({
      title: t('channels.confirm.deleteDisabledTitle'),
      content: t('channels.confirm.deleteDisabled'),
      okText: t('channels.action.delete'),
      okButtonProps: { danger: true },
      onOk: () =>
        run('deleteDisabled', async () =>
          t('channels.done.deletedDisabled', { count: await deleteDisabledChannels() }),
        ),
    });

  return (
    <div
      style={{
        display: 'flex',
        flexWrap: 'wrap',
        gap: 12,
        justifyContent: 'space-between',
        marginBottom: 16,
      }}
    >
      <Space wrap size={[16, 8]}>
        <Toggle label={t('channels.toolbar.idSort')} checked={idSort} onChange={onIdSort} />
        <Toggle label={t('channels.toolbar.batchMode')} checked={batchMode} onChange={onBatchMode} />
        <Toggle label={t('channels.toolbar.tagMode')} checked={tagMode} onChange={onTagMode} />
      </Space>
      <Space wrap size={8}>
        <Button type="primary" icon={<PlusOutlined />} onClick={onAdd}>
          {t('channels.toolbar.add')}
        </Button>
        {button(
          'testAll',
          t('channels.toolbar.testAll'),
          () => void run('testAll', async () => translateServerMessage(await testAllChannels())),
        )}
        {button(
          'balances',
          t('channels.toolbar.updateBalances'),
          () =>
            void run('balances', async () => t('channels.done.balances', { ...(await updateAllBalances()) })),
        )}
        {button('deleteDisabled', t('channels.toolbar.deleteDisabled'), deleteDisabled, true)}
        <Button icon={<ReloadOutlined />} onClick={() => void list.refresh()}>
          {t('channels.toolbar.refresh')}
        </Button>
        {batchMode &&
          button(
            'deleteSelected',
            t('channels.toolbar.deleteSelected', { count: selectedIds.length }),
            deleteSelected,
            true,
          )}
        {button(
          'fix',
          t('channels.toolbar.fix'),
          () => void run('fix', async () => t('channels.done.fixed', { count: await fixChannelAbilities() })),
        )}
      </Space>
    </div>
  );
}
