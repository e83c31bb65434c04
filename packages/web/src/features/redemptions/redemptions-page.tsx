// /redemption (admin): search by id or name, copy a selection, row actions, the create/edit drawer
// and the dialog with the codes a create made.
import { CopyOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Card, Form, Input } from 'antd';
import type { RedemptionView } from '@sluice/shared';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCopy } from '../../components/copy';
import { DataTable, ListSearch, useList } from '../../components/data-table';
import { useFeedback } from '../../components/feedback';
import { useFormatQuota } from '../../components/quota';
import { REDEMPTION_LIST_ID, deleteRedemption, fetchRedemptionPage, setRedemptionStatus } from './api';
import { CreatedCodesModal } from './created-codes-modal';
import { redemptionColumns } from './redemption-columns';
import type { RedemptionAction } from './redemption-columns';
import { RedemptionDrawer } from './redemption-drawer';

const FILTERS = { keyword: '' };
const rowKey = (row: RedemptionView) => row.id;

/** One line per code, name and code separated by a tab (pastes into a spreadsheet as two columns). */
export const redemptionsAsText = (rows: RedemptionView[]): string =>
  rows.map((row) => `${row.name}\t${row.key}`).join('\n');

export function RedemptionsPage() {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const copy = useCopy();
  const formatQuota = useFormatQuota();
  // `session` remounts the drawer (and its form) on every opening, so no earlier input lingers.
  const [drawer, setDrawer] = useState<{ open: boolean; row: RedemptionView | null; session: number }>({
    open: false,
    row: null,
    session: 0,
  });
  const openDrawer = useCallback(
    (row: RedemptionView | null) => setDrawer((prev) => ({ open: true, row, session: prev.session + 1 })),
    [],
  );
  const [created, setCreated] = useState<{ open: boolean; codes: string[] }>({ open: false, codes: [] });
  const [pending, setPending] = useState<Map<number, RedemptionAction>>(() => new Map());

  const list = useList<RedemptionView>({
    id: REDEMPTION_LIST_ID,
    filters: FILTERS,
    rowKey,
    fetchPage: fetchRedemptionPage,
  });
  const { updateRow, removeRow } = list;

  const columns = useMemo(() => {
    const setRowPending = (id: number, action: RedemptionAction | null) =>
      setPending((prev) => {
        const next = new Map(prev);
        if (action) next.set(id, action);
        else next.delete(id);
        return next;
      });
    const onAction = async (row: RedemptionView, action: RedemptionAction) => {
      setRowPending(row.id, action);
      try {
        if (action === 'delete') {
          await deleteRedemption(row.id);
          removeRow(row.id);
          void message.success(t('redemptions.deleted'));
        } else {
          updateRow(row.id, await setRedemptionStatus(row.id, action === 'enable' ? 1 : 2));
          void message.success(
            t(action === 'enable' ? 'redemptions.enabledDone' : 'redemptions.disabledDone'),
          );
        }
      } catch {
        // lib/api.ts has shown the server's reason.
      } finally {
        setRowPending(row.id, null);
      }
    };
    return redemptionColumns({
      t,
      formatQuota,
      pendingFor: (id) => pending.get(id) ?? null,
      onAction: (row, action) => void onAction(row, action),
      onCopy: (row) => void copy(row.key, t('redemptions.codeCopied')),
      onEdit: (row) => openDrawer(row),
    });
  }, [t, formatQuota, pending, updateRow, removeRow, message, copy, openDrawer]);

  const copySelected = () => {
    if (list.selectedRows.length === 0) {
      void message.warning(t('redemptions.selectAtLeastOne'));
      return;
    }
    void copy(
      redemptionsAsText(list.selectedRows),
      t('redemptions.copiedSelected', { count: list.selectedRows.length }),
    );
  };

  return (
    <Card title={<h1 style={{ fontSize: 'inherit', margin: 0 }}>{t('redemptions.title')}</h1>}>
      <ListSearch
        list={list}
        extra={
          <>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => openDrawer(null)}>
              {t('redemptions.add')}
            </Button>
            <Button icon={<CopyOutlined />} onClick={copySelected}>
              {t('redemptions.copySelected')}
            </Button>
          </>
        }
      >
        <Form.Item name="keyword">
          <Input
            allowClear
            aria-label={t('redemptions.search')}
            placeholder={t('redemptions.searchPlaceholder')}
            style={{ width: 240, maxWidth: '100%' }}
          />
        </Form.Item>
      </ListSearch>
      <DataTable list={list} columns={columns} selectable />
      <RedemptionDrawer
        key={drawer.session}
        open={drawer.open}
        redemption={drawer.row}
        onClose={() => setDrawer((prev) => ({ ...prev, open: false }))}
        onCreated={(codes) => {
          setCreated({ open: true, codes });
          void list.refresh();
        }}
        onUpdated={(updated) => updateRow(updated.id, updated)}
      />
      <CreatedCodesModal
        open={created.open}
        codes={created.codes}
        onClose={() => setCreated((prev) => ({ ...prev, open: false }))}
      />
    </Card>
  );
}
