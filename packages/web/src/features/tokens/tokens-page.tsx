// /token: the user's own tokens. Search by name and key, copy a selection, row actions, and the
// create/edit drawer.
import { CopyOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Form, Grid, Input } from 'antd';
import type { TokenView } from '@sluice/shared';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCopy } from '../../components/copy';
import { DataTable, ListSearch, useList } from '../../components/data-table';
import { useFeedback } from '../../components/feedback';
import { useFormatQuota } from '../../components/quota';
import { TOKEN_LIST_ID, deleteToken, fetchTokenPage, setTokenStatus } from './api';
import type { TokenAction } from './token-actions';
import { tokenColumns } from './token-columns';
import { TokenDrawer } from './token-drawer';
import { fullKey } from './token-labels';

const FILTERS = { keyword: '', token: '' };
const rowKey = (token: TokenView) => token.id;

/** One line per token, name and key separated by a tab (pastes into a spreadsheet as two columns). */
export const tokensAsText = (tokens: TokenView[]): string =>
  tokens.map((token) => `${token.name}\t${fullKey(token.key)}`).join('\n');

export function TokensPage() {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const copy = useCopy();
  const formatQuota = useFormatQuota();
  const pinActions = Grid.useBreakpoint().md === true;
  // `session` remounts the drawer (and its form) on every opening, so no earlier input lingers.
  const [drawer, setDrawer] = useState<{ open: boolean; token: TokenView | null; session: number }>({
    open: false,
    token: null,
    session: 0,
  });
  const openDrawer = useCallback(
    (token: TokenView | null) => setDrawer((prev) => ({ open: true, token, session: prev.session + 1 })),
    [],
  );
  const [pending, setPending] = useState<Map<number, TokenAction>>(() => new Map());

  const list = useList<TokenView>({ id: TOKEN_LIST_ID, filters: FILTERS, rowKey, fetchPage: fetchTokenPage });
  const { updateRow, removeRow } = list;

  const columns = useMemo(() => {
    const setRowPending = (id: number, action: TokenAction | null) =>
      setPending((prev) => {
        const next = new Map(prev);
        if (action) next.set(id, action);
        else next.delete(id);
        return next;
      });
    const onAction = async (token: TokenView, action: TokenAction) => {
      setRowPending(token.id, action);
      try {
        if (action === 'delete') {
          await deleteToken(token.id);
          removeRow(token.id);
          void message.success(t('tokens.deleted'));
        } else {
          const updated = await setTokenStatus(token.id, action === 'enable' ? 1 : 2);
          updateRow(token.id, updated);
          void message.success(t(action === 'enable' ? 'tokens.enabledDone' : 'tokens.disabledDone'));
        }
      } catch {
        // lib/api.ts has shown the server's reason.
      } finally {
        setRowPending(token.id, null);
      }
    };
    return tokenColumns({
      t,
      formatQuota,
      pendingFor: (id) => pending.get(id) ?? null,
      onAction: (token, action) => void onAction(token, action),
      onEdit: (token) => openDrawer(token),
      pinActions,
    });
  }, [t, formatQuota, pending, updateRow, removeRow, message, pinActions, openDrawer]);

  const copySelected = () => {
    if (list.selectedRows.length === 0) {
      void message.warning(t('tokens.selectAtLeastOne'));
      return;
    }
    void copy(
      tokensAsText(list.selectedRows),
      t('tokens.copiedSelected', { count: list.selectedRows.length }),
    );
  };

  return (
    <Card title={<h1 style={{ fontSize: 'inherit', margin: 0 }}>{t('tokens.title')}</h1>}>
      <Alert type="warning" showIcon title={t('tokens.warning')} style={{ marginBottom: 16 }} />
      <ListSearch
        list={list}
        extra={
          <>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => openDrawer(null)}>
              {t('tokens.add')}
            </Button>
            <Button icon={<CopyOutlined />} onClick={copySelected}>
              {t('tokens.copySelected')}
            </Button>
          </>
        }
      >
        <Form.Item name="keyword">
          <Input
            allowClear
            aria-label={t('tokens.searchName')}
            placeholder={t('tokens.searchNamePlaceholder')}
            style={{ width: 200, maxWidth: '100%' }}
          />
        </Form.Item>
        <Form.Item name="token">
          <Input
            allowClear
            aria-label={t('tokens.searchKey')}
            placeholder={t('tokens.searchKeyPlaceholder')}
            style={{ width: 240, maxWidth: '100%' }}
          />
        </Form.Item>
      </ListSearch>
      <DataTable list={list} columns={columns} selectable />
      <TokenDrawer
        key={drawer.session}
        open={drawer.open}
        token={drawer.token}
        onClose={() => setDrawer((prev) => ({ ...prev, open: false }))}
        onSaved={() => void list.refresh()}
      />
    </Card>
  );
}
