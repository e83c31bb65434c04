// /channel (admin): search, the list modes, the channel table with its row and tag-row actions, and
// the channel and tag drawers (/channel/add and /channel/edit/:id open the channel drawer).
import { Card, Form, Input, Select } from 'antd';
import { isChannelTagRow } from '@sluice/shared';
import type { ChannelListItem, ChannelTagRow, ChannelView } from '@sluice/shared';
import { Suspense, lazy, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import { DataTable, ListSearch, useList } from '../../components/data-table';
import { useFeedback } from '../../components/feedback';
import { useFormatQuota } from '../../components/quota';
import { useIsMobile } from '../../app/layout/use-is-mobile';
import { readString, writeString } from '../../lib/storage';
import { CHANNEL_LIST_ID, channelRowKey, fetchChannelPage, useChannelGroups } from './api';
import { ChannelDrawer } from './channel-drawer';
import { CHANNEL_TABLE_MIN_WIDTH, channelColumns } from './channel-columns';
import { ChannelToolbar } from './channel-toolbar';
import { parseDrawerRoute, useDrawerSession } from './drawer-route';
import type { InlineField } from './inline-edit';
import { TagDrawer } from './tag-drawer';
import { useChannelActions } from './use-channel-actions';

const NotFoundPage = lazy(() => import('../../app/status-pages').then((m) => ({ default: m.NotFoundPage })));

/** 'id-sort' is the spec's flag (part 2 §3); the tag mode is remembered beside it. */
const ID_SORT_KEY = 'id-sort';
const TAG_MODE_KEY = 'channel-tag-mode';

const flag = (on: boolean) => (on ? '1' : '0');

/** Disabled channels (and tags with none enabled) are greyed. */
const GREYED = { style: { opacity: 0.55 } };

export function ChannelsPage() {
  const { t } = useTranslation();
  const { modal } = useFeedback();
  const navigate = useNavigate();
  const location = useLocation();
  const params = useParams();
  const formatQuota = useFormatQuota();
  const groups = useChannelGroups();
  const isMobile = useIsMobile();

  // Remembered modes are the filters' defaults; the URL carries a mode switched on this visit.
  const [modes] = useState(() => ({
    id_sort: flag(readString(ID_SORT_KEY) === 'true'),
    tag_mode: flag(readString(TAG_MODE_KEY) === 'true'),
  }));
  const filters = useMemo(() => ({ keyword: '', model: '', group: '', ...modes }), [modes]);
  const list = useList<ChannelListItem>({
    id: CHANNEL_LIST_ID,
    filters,
    rowKey: channelRowKey,
    fetchPage: fetchChannelPage,
  });
  // Searching (and resetting) keeps the list modes; an empty search reloads the list (spec part 2
  // §5), where the kit alone would show the cached pages.
  const searchList = useMemo(
    () => ({
      ...list,
      search: (next: Record<string, string>) => {
        if (!next.keyword && !next.model && !next.group) void list.refresh();
        list.search({
          ...next,
          id_sort: list.filters.id_sort ?? '0',
          tag_mode: list.filters.tag_mode ?? '0',
        });
      },
    }),
    [list],
  );
  const idSort = list.filters.id_sort === '1';
  const tagMode = list.filters.tag_mode === '1';
  const [batchMode, setBatchMode] = useState(false);
  const actions = useChannelActions(list, tagMode);

  const drawerRoute = parseDrawerRoute(params['*'] ?? '');
  const session = useDrawerSession(drawerRoute);
  const [tagEdit, setTagEdit] = useState<{ row: ChannelTagRow; open: boolean; count: number } | null>(null);

  const toList = () => void navigate({ pathname: '/channel', search: location.search });
  const setMode = (name: 'id_sort' | 'tag_mode', on: boolean) => {
    writeString(name === 'id_sort' ? ID_SORT_KEY : TAG_MODE_KEY, String(on));
    list.search({ ...list.filters, [name]: flag(on) });
  };

  const columns = useMemo(
    () =>
      channelColumns({
        t,
        formatQuota,
        actions,
        pinActions: !isMobile,
        onEdit: (channel: ChannelView) =>
          void navigate({ pathname: `/channel/edit/${channel.id}`, search: location.search }),
        onEditTag: (row) => setTagEdit((prev) => ({ row, open: true, count: (prev?.count ?? 0) + 1 })),
        confirmTagField: (row: ChannelTagRow, field: InlineField, value: number) =>
          new Promise<boolean>((resolve) =>
            modal.confirm({
              title: t(field === 'priority' ? 'channels.confirm.tagPriority' : 'channels.confirm.tagWeight', {
                tag: row.tag,
                value,
              }),
              content: t('channels.confirm.tagFieldHelp', { count: row.channel_count }),
              onOk: () => resolve(true),
              onCancel: () => resolve(false),
            }),
          ),
      }),
    [t, formatQuota, actions, isMobile, navigate, location.search, modal],
  );

  if (drawerRoute.kind === 'unknown') {
    return (
      <Suspense fallback={null}>
        <NotFoundPage />
      </Suspense>
    );
  }

  return (
    <Card title={<h1 style={{ fontSize: 'inherit', margin: 0 }}>{t('channels.title')}</h1>}>
      <ListSearch list={searchList}>
        <Form.Item name="keyword">
          <Input
            allowClear
            aria-label={t('channels.search.keywordLabel')}
            placeholder={t('channels.search.keyword')}
            style={{ width: 240, maxWidth: '100%' }}
          />
        </Form.Item>
        <Form.Item name="model">
          <Input
            allowClear
            aria-label={t('channels.search.modelLabel')}
            placeholder={t('channels.search.model')}
            style={{ width: 180, maxWidth: '100%' }}
          />
        </Form.Item>
        {/* The filter's "none" is '' in the URL; the select shows its placeholder for it. */}
        <Form.Item name="group" getValueProps={(value: unknown) => ({ value: value || undefined })}>
          <Select
            allowClear
            aria-label={t('channels.search.groupLabel')}
            placeholder={t('channels.search.group')}
            loading={groups.isPending}
            options={(groups.data ?? []).map((group) => ({ value: group, label: group }))}
            style={{ width: 160 }}
          />
        </Form.Item>
      </ListSearch>
      <ChannelToolbar
        list={list}
        idSort={idSort}
        tagMode={tagMode}
        batchMode={batchMode}
        onIdSort={(on) => setMode('id_sort', on)}
        onTagMode={(on) => setMode('tag_mode', on)}
        onBatchMode={(on) => {
          setBatchMode(on);
          if (!on) list.clearSelection();
        }}
        onAdd={() => void navigate({ pathname: '/channel/add', search: location.search })}
      />
      <DataTable
        list={list}
        columns={columns}
        selectable={batchMode}
        isRowSelectable={(row) => !isChannelTagRow(row)}
        tableProps={{
          onRow: (row) => (row.status === 1 || (isChannelTagRow(row) && row.enabled_count > 0) ? {} : GREYED),
          // The tag row's expander sits by the name, which has the room for it. antd counts this
          // index one short when the checkbox column is shown, hence 3 (checkbox, ID, name) there.
          expandable: { indentSize: 20, expandIconColumnIndex: batchMode ? 3 : 1 },
          tableLayout: 'fixed',
          scroll: { x: CHANNEL_TABLE_MIN_WIDTH },
        }}
      />
      <ChannelDrawer
        key={session.key}
        open={session.open}
        channelId={session.route?.kind === 'edit' ? session.route.id : undefined}
        onClose={toList}
        onSaved={() => void list.refresh()}
      />
      {tagEdit && (
        <TagDrawer
          key={tagEdit.count}
          open={tagEdit.open}
          row={tagEdit.row}
          onClose={() => setTagEdit((prev) => (prev ? { ...prev, open: false } : prev))}
          onSaved={() => void list.refresh()}
        />
      )}
    </Card>
  );
}
