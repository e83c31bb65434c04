// What the row buttons and inline inputs do: call the server, then show the answer in the row (or
// reload the list when a tag's aggregated figures change). lib/api.ts has already shown failures.
import { isChannelTagRow } from '@sluice/shared';
import type { ChannelListItem, ChannelTagRow, ChannelView } from '@sluice/shared';
import type { Key } from 'react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ListState } from '../../components/data-table';
import { useFeedback } from '../../components/feedback';
import { ApiError, translateServerMessage } from '../../lib/api';
import {
  copyChannel,
  deleteChannel,
  editTag,
  setTagStatus,
  tagRowKey,
  testChannel,
  updateChannel,
  updateChannelBalance,
} from './api';
import { formatBalance, formatSeconds } from './channel-display';
import type { InlineField } from './inline-edit';

export type RowAction = 'test' | 'delete' | 'status' | 'copy' | 'balance' | 'enableAll' | 'disableAll';

const nowSeconds = () => Math.floor(Date.now() / 1000);

export interface ChannelActions {
  pendingFor(key: Key): RowAction | null;
  test(channel: ChannelView, model?: string): void;
  remove(channel: ChannelView): void;
  toggleStatus(channel: ChannelView): void;
  copy(channel: ChannelView): void;
  updateBalance(channel: ChannelView): void;
  /** Resolves once saved (or refused), so the input can show the stored value again. */
  setChannelField(channel: ChannelView, field: InlineField, value: number): Promise<void>;
  setTagStatus(row: ChannelTagRow, enabled: boolean): void;
  setTagField(row: ChannelTagRow, field: InlineField, value: number): Promise<void>;
}

export function useChannelActions(list: ListState<ChannelListItem>, tagMode: boolean): ChannelActions {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const [pending, setPending] = useState<Map<Key, RowAction>>(() => new Map());
  const { updateRow, removeRow, refresh } = list;

  return useMemo(() => {
    const mark = (key: Key, action: RowAction | null) =>
      setPending((prev) => {
        const next = new Map(prev);
        if (action) next.set(key, action);
        else next.delete(key);
        return next;
      });

    /** Runs a row action with its spinner; failures were shown by lib/api.ts. */
    const run = async (key: Key, action: RowAction, work: () => Promise<void>) => {
      mark(key, action);
      try {
        await work();
      } catch {
        // Already reported.
      } finally {
        mark(key, null);
      }
    };

    /** A channel changed: update its row, and in tag mode its tag's figures too. */
    const patch = (channel: ChannelView, change: Partial<ChannelView>) => {
      updateRow(channel.id, change);
      if (tagMode && channel.tag !== '') {
        updateRow(tagRowKey(channel.tag), (row) =>
          isChannelTagRow(row)
            ? { ...row, children: row.children.map((c) => (c.id === channel.id ? { ...c, ...change } : c)) }
            : row,
        );
        void refresh();
      }
    };

    return {
      pendingFor: (key) => pending.get(key) ?? null,
      test: (channel, model) =>
        void run(channel.id, 'test', async () => {
          let time: number;
          try {
            ({ time } = await testChannel(channel.id, model));
          } catch (error) {
            const reason = error instanceof ApiError ? translateServerMessage(error.message) : String(error);
            void message.error(t('channels.done.testFailed', { name: channel.name, reason }));
            // The server recorded the time and may have disabled the channel: show what it stored.
            await refresh();
            return;
          }
          patch(channel, { response_time: Math.round(time * 1000), test_time: nowSeconds() });
          void message.success(
            t('channels.done.tested', { name: channel.name, seconds: formatSeconds(time * 1000) }),
          );
        }),
      remove: (channel) =>
        void run(channel.id, 'delete', async () => {
          await deleteChannel(channel.id);
          removeRow(channel.id);
          if (tagMode && channel.tag !== '') void refresh();
          void message.success(t('channels.done.deleted'));
        }),
      toggleStatus: (channel) =>
        void run(channel.id, 'status', async () => {
          const saved = await updateChannel({ id: channel.id, status: channel.status === 1 ? 2 : 1 });
          patch(channel, { status: saved.status, other_info: saved.other_info });
          void message.success(t('channels.done.operationDone'));
        }),
      copy: (channel) =>
        void run(channel.id, 'copy', async () => {
          try {
            await copyChannel(channel.id);
          } catch (error) {
            const reason = error instanceof ApiError ? error.message : String(error);
            void message.error(t('channels.done.copyFailed', { reason }));
            return;
          }
          void message.success(t('channels.done.copied'));
          await refresh();
        }),
      updateBalance: (channel) =>
        void run(channel.id, 'balance', async () => {
          const balance = await updateChannelBalance(channel.id);
          patch(channel, { balance, balance_updated_time: nowSeconds() });
          void message.success(
            t('channels.done.balance', {
              name: channel.name,
              balance: formatBalance(channel.type, balance) ?? String(balance),
            }),
          );
        }),
      setChannelField: async (channel, field, value) => {
        try {
          const saved = await updateChannel({ id: channel.id, [field]: value });
          patch(channel, { [field]: saved[field] });
          void message.success(t('channels.done.saved'));
        } catch {
          // Already reported; the input goes back to the stored value.
        }
      },
      setTagStatus: (row, enabled) =>
        void run(tagRowKey(row.tag), enabled ? 'enableAll' : 'disableAll', async () => {
          await setTagStatus(row.tag, enabled);
          void message.success(
            t(enabled ? 'channels.done.tagEnabled' : 'channels.done.tagDisabled', { tag: row.tag }),
          );
          await refresh();
        }),
      setTagField: async (row, field, value) => {
        try {
          await editTag({ tag: row.tag, [field]: value });
          void message.success(t('channels.done.saved'));
          await refresh();
        } catch {
          // Already reported.
        }
      },
    };
  }, [pending, updateRow, removeRow, refresh, tagMode, message, t]);
}
