// The columns of the channel table (spec part 2 §2): ID, name, group, type, status, response time,
// used/remaining quota, priority, weight, actions. Tag rows fill the same columns with their
// aggregated values and their own actions.
import type { TableColumnsType } from 'antd';
import { isChannelTagRow } from '@sluice/shared';
import type { ChannelListItem, ChannelTagRow, ChannelView } from '@sluice/shared';
import type { TFunction } from 'i18next';
import {
  GroupTags,
  NameCell,
  QuotaCell,
  ResponseTimeTag,
  StatusTag,
  TagStatusTag,
  TypeTag,
} from './channel-cells';
import { ChannelRowActions, TagRowActions } from './channel-row-actions';
import { channelTypeUi, isServedType } from './channel-type-table';
import { parseChannelInline, parseTagInline } from './inline-edit';
import type { InlineField } from './inline-edit';
import { InlineNumber } from './inline-number';
import type { ChannelActions } from './use-channel-actions';

export interface ChannelColumnOptions {
  t: TFunction;
  formatQuota(quota: number): string;
  actions: ChannelActions;
  onEdit(channel: ChannelView): void;
  onEditTag(row: ChannelTagRow): void;
  /** Asks before a tag-wide priority or weight change. */
  confirmTagField(row: ChannelTagRow, field: InlineField, value: number): Promise<boolean>;
  /** Keep the actions in view while the wide table scrolls (not on phones, where it would cover it). */
  pinActions: boolean;
}

/**
 * Column widths (px). With a fixed layout the table is exactly as wide as its container down to
 * CHANNEL_TABLE_MIN_WIDTH, which fits the content area of a 1440 px screen (sidebar open, page
 * scrollbar shown): there the pinned Actions column has nothing to cover. Narrower screens scroll,
 * and the name, which takes what is left, shrinks to an ellipsis first.
 */
const WIDTH = {
  id: 56,
  group: 130,
  type: 110,
  status: 104,
  responseTime: 84,
  quota: 104,
  priority: 80,
  weight: 80,
  actions: 220,
} as const;
const NAME_MIN_WIDTH = 140;
export const CHANNEL_TABLE_MIN_WIDTH =
  Object.values(WIDTH).reduce((sum, width) => sum + width, 0) + NAME_MIN_WIDTH;

export function channelColumns({
  t,
  formatQuota,
  actions,
  onEdit,
  onEditTag,
  confirmTagField,
  pinActions,
}: ChannelColumnOptions): TableColumnsType<ChannelListItem> {
  const inline = (field: InlineField) => (row: ChannelListItem) => {
    const label = t(`channels.inline.${field}`, { name: isChannelTagRow(row) ? row.tag : row.name });
    if (isChannelTagRow(row)) {
      return (
        <InlineNumber
          key={String(row[field])}
          value={row[field]}
          label={label}
          placeholder={row[field] === null ? t('channels.inline.mixed') : undefined}
          parse={(text) => parseTagInline(field, text)}
          confirm={(value) => confirmTagField(row, field, value)}
          onCommit={(value) => actions.setTagField(row, field, value)}
        />
      );
    }
    return (
      <InlineNumber
        key={String(row[field])}
        value={row[field]}
        label={label}
        parse={(text) => parseChannelInline(field, text)}
        onCommit={(value) => actions.setChannelField(row, field, value)}
      />
    );
  };

  return [
    {
      title: t('channels.column.id'),
      key: 'id',
      width: WIDTH.id,
      render: (_, row) => (isChannelTagRow(row) ? null : row.id),
    },
    {
      title: t('channels.column.name'),
      key: 'name',
      // The name takes what the other columns leave; a long one ends in an ellipsis (in full on hover).
      ellipsis: { showTitle: false },
      render: (_, row) => {
        // Channels the relay cannot serve yet are marked under their name (the only column wide
        // enough for the words); a tag row of mixed types (type 0) says nothing of any one type.
        const notServed =
          !isServedType(row.type) && !(isChannelTagRow(row) && row.type === 0) ? row.type : undefined;
        return isChannelTagRow(row) ? (
          <NameCell name={row.tag} count={row.channel_count} notServedType={notServed} />
        ) : (
          <NameCell name={row.name} tag={row.tag} notServedType={notServed} />
        );
      },
    },
    {
      title: t('channels.column.group'),
      key: 'group',
      width: WIDTH.group,
      render: (_, row) => <GroupTags group={row.group} />,
    },
    {
      title: t('channels.column.type'),
      key: 'type',
      width: WIDTH.type,
      render: (_, row) =>
        isChannelTagRow(row) && row.type === 0 ? (
          <span>{t('channels.tagRow.mixedTypes')}</span>
        ) : (
          <TypeTag type={row.type} />
        ),
    },
    {
      title: t('channels.column.status'),
      key: 'status',
      width: WIDTH.status,
      render: (_, row) =>
        isChannelTagRow(row) ? (
          <TagStatusTag enabled={row.enabled_count} total={row.channel_count} />
        ) : (
          <StatusTag status={row.status} otherInfo={row.other_info} />
        ),
    },
    {
      title: t('channels.column.responseTime'),
      key: 'response_time',
      width: WIDTH.responseTime,
      render: (_, row) => <ResponseTimeTag ms={row.response_time} testTime={row.test_time} />,
    },
    {
      title: t('channels.column.quota'),
      key: 'quota',
      width: WIDTH.quota,
      render: (_, row) => {
        if (isChannelTagRow(row)) {
          return (
            <QuotaCell
              type={row.type}
              usedQuota={row.used_quota}
              balance={row.balance}
              formatQuota={formatQuota}
            />
          );
        }
        const reportsBalance = channelTypeUi(row.type)?.balanceCurrency !== undefined;
        return (
          <QuotaCell
            type={row.type}
            usedQuota={row.used_quota}
            balance={row.balance}
            formatQuota={formatQuota}
            onUpdateBalance={reportsBalance ? () => actions.updateBalance(row) : undefined}
            updating={actions.pendingFor(row.id) === 'balance'}
          />
        );
      },
    },
    {
      title: t('channels.column.priority'),
      key: 'priority',
      width: WIDTH.priority,
      render: (_, row) => inline('priority')(row),
    },
    {
      title: t('channels.column.weight'),
      key: 'weight',
      width: WIDTH.weight,
      render: (_, row) => inline('weight')(row),
    },
    {
      title: t('channels.column.actions'),
      key: 'actions',
      width: WIDTH.actions,
      fixed: pinActions ? 'right' : undefined,
      render: (_, row) =>
        isChannelTagRow(row) ? (
          <TagRowActions row={row} actions={actions} onEdit={onEditTag} />
        ) : (
          <ChannelRowActions channel={row} actions={actions} onEdit={onEdit} />
        ),
    },
  ];
}
