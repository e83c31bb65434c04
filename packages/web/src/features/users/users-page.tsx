// /user (admin): search, the user table with its row actions, and the add-user drawer.
import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Form, Input, Select } from 'antd';
import type { PublicUser, UserAction } from '@sluice/shared';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, ListSearch, useList } from '../../components/data-table';
import { useFeedback } from '../../components/feedback';
import { useFormatQuota } from '../../components/quota';
import { useUser } from '../../lib/session';
import { AddUserDrawer } from './add-user-drawer';
import { USER_LIST_ID, fetchUserPage, manageUser, useGroups } from './api';
import { userColumns } from './user-columns';

const FILTERS = { keyword: '', group: '' };
const rowKey = (user: PublicUser) => user.id;

/** Deregistering answers only status and role; the row needs a deletion mark to show it. */
const nowSeconds = () => Math.floor(Date.now() / 1000);

export function UsersPage() {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const formatQuota = useFormatQuota();
  const signedIn = useUser();
  const groups = useGroups();
  const [adding, setAdding] = useState(false);
  const [pending, setPending] = useState<Map<number, UserAction>>(() => new Map());

  const list = useList<PublicUser>({ id: USER_LIST_ID, filters: FILTERS, rowKey, fetchPage: fetchUserPage });
  const { updateRow } = list;

  const columns = useMemo(() => {
    const setRowPending = (id: number, action: UserAction | null) =>
      setPending((prev) => {
        const next = new Map(prev);
        if (action) next.set(id, action);
        else next.delete(id);
        return next;
      });
    const onAction = async (user: PublicUser, action: UserAction) => {
      setRowPending(user.id, action);
      try {
        const result = await manageUser(user.id, action);
        updateRow(user.id, {
          status: result.status,
          role: result.role,
          ...(action === 'delete' ? { DeletedAt: nowSeconds() } : {}),
        });
        void message.success(t('users.operationDone'));
      } catch {
        // lib/api.ts has shown the server's reason.
      } finally {
        setRowPending(user.id, null);
      }
    };
    return userColumns({
      t,
      caller: signedIn,
      formatQuota,
      pendingFor: (id) => pending.get(id) ?? null,
      onAction: (user, action) => void onAction(user, action),
    });
  }, [t, signedIn, formatQuota, pending, updateRow, message]);

  return (
    <Card title={<h1 style={{ fontSize: 'inherit', margin: 0 }}>{t('users.title')}</h1>}>
      <ListSearch
        list={list}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
            {t('users.add')}
          </Button>
        }
      >
        <Form.Item name="keyword">
          <Input
            allowClear
            aria-label={t('users.searchLabel')}
            placeholder={t('users.searchPlaceholder')}
            style={{ width: 300, maxWidth: '100%' }}
          />
        </Form.Item>
        {/* The filter's "none" is '' in the URL; the select shows its placeholder for it. */}
        <Form.Item name="group" getValueProps={(value: unknown) => ({ value: value || undefined })}>
          <Select
            allowClear
            aria-label={t('users.groupLabel')}
            placeholder={t('users.groupPlaceholder')}
            loading={groups.isPending}
            options={(groups.data ?? []).map((group) => ({ value: group, label: group }))}
            style={{ width: 160 }}
          />
        </Form.Item>
      </ListSearch>
      <DataTable list={list} columns={columns} />
      <AddUserDrawer open={adding} onClose={() => setAdding(false)} onCreated={() => void list.refresh()} />
    </Card>
  );
}
