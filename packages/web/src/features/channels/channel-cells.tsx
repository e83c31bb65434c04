// The figures of one row: name (marked when the relay cannot serve the type yet), type, status (with
// the auto-disable reason), response time, groups and quota. Tag rows pass their aggregated values
// through the same cells.
import { Space, Tag, Tooltip, Typography } from 'antd';
import { splitCommaList } from '@sluice/shared';
import { useTranslation } from 'react-i18next';
import { formatTimestamp } from '../../lib/dates';
import {
  STATUS_COLORS,
  autoDisableInfo,
  channelStatusKind,
  formatBalance,
  formatSeconds,
  responseTimeColor,
  typeName,
} from './channel-display';
import { channelTypeUi } from './channel-type-table';

/** A tag that never runs out of its fixed-width column: long texts end in an ellipsis, in full on hover. */
const FITTED = {
  maxWidth: '100%',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  verticalAlign: 'middle',
} as const;

export function TypeTag({ type }: { type: number }) {
  const { t } = useTranslation();
  const row = channelTypeUi(type);
  const label = typeName(t, type);
  return (
    <Tag color={row?.color} title={label} style={FITTED}>
      {label}
    </Tag>
  );
}

export function StatusTag({ status, otherInfo }: { status: number; otherInfo: string }) {
  const { t } = useTranslation();
  const kind = channelStatusKind(status);
  const tag = <Tag color={STATUS_COLORS[kind]}>{t(`channels.status.${kind}`)}</Tag>;
  if (kind !== 'autoDisabled') return tag;
  const { reason, time } = autoDisableInfo(otherInfo);
  const lines = [
    t('channels.status.reason', { reason: reason ?? t('channels.status.noReason') }),
    ...(time !== null ? [t('channels.status.time', { time: formatTimestamp(time) })] : []),
  ];
  return (
    <Tooltip
      title={lines.map((line) => (
        <div key={line}>{line}</div>
      ))}
    >
      <span tabIndex={0} aria-label={`${t('channels.status.autoDisabled')}. ${lines.join('. ')}`}>
        {tag}
      </span>
    </Tooltip>
  );
}

/**
 * The mark of a channel whose type the relay cannot serve yet: an enabled one must not look healthy,
 * since calls only it could take are refused.
 */
function NotServedTag({ type }: { type: number }) {
  const { t } = useTranslation();
  const text = t('channels.support.notSupported');
  const hint = t('channels.support.listHint', { type: typeName(t, type) });
  return (
    <Tooltip title={hint}>
      <Tag color="warning" tabIndex={0} aria-label={`${text}. ${hint}`}>
        {text}
      </Tag>
    </Tooltip>
  );
}

/** A tag row: how many of its channels are enabled. */
export function TagStatusTag({ enabled, total }: { enabled: number; total: number }) {
  const { t } = useTranslation();
  const color = enabled === total ? 'green' : enabled === 0 ? 'red' : 'gold';
  return <Tag color={color}>{t('channels.tagRow.enabledCount', { enabled, total })}</Tag>;
}

export function ResponseTimeTag({ ms, testTime }: { ms: number; testTime: number }) {
  const { t } = useTranslation();
  const text =
    ms > 0
      ? t('channels.responseTime.seconds', { seconds: formatSeconds(ms) })
      : t('channels.responseTime.untested');
  const tag = <Tag color={responseTimeColor(ms)}>{text}</Tag>;
  if (testTime <= 0) return tag;
  return (
    <Tooltip title={t('channels.responseTime.testedAt', { time: formatTimestamp(testTime) })}>{tag}</Tooltip>
  );
}

export function GroupTags({ group }: { group: string }) {
  const groups = splitCommaList(group);
  return (
    <Space size={[4, 4]} wrap style={{ maxWidth: '100%' }}>
      {groups.map((g) => (
        <Tag key={g} title={g} style={FITTED}>
          {g}
        </Tag>
      ))}
    </Space>
  );
}

export interface QuotaCellProps {
  type: number;
  usedQuota: number;
  balance: number;
  formatQuota(quota: number): string;
  /** Offered when the type reports a balance: asks the upstream again. */
  onUpdateBalance?: () => void;
  updating?: boolean;
}

export function QuotaCell({
  type,
  usedQuota,
  balance,
  formatQuota,
  onUpdateBalance,
  updating,
}: QuotaCellProps) {
  const { t } = useTranslation();
  const shown = formatBalance(type, balance);
  const used = formatQuota(usedQuota);
  return (
    <Space size={4} wrap>
      <Tooltip title={t('channels.quota.used')}>
        <Tag color="blue" aria-label={`${t('channels.quota.used')}: ${used}`}>
          {used}
        </Tag>
      </Tooltip>
      {shown !== null &&
        (onUpdateBalance ? (
          <Tooltip title={t('channels.quota.updateBalance')}>
            <Tag
              color="green"
              role="button"
              tabIndex={0}
              aria-label={`${t('channels.quota.remaining')}: ${shown}. ${t('channels.quota.updateBalance')}`}
              style={{ cursor: updating ? 'progress' : 'pointer' }}
              onClick={() => !updating && onUpdateBalance()}
              onKeyDown={(e) => {
                if ((e.key === 'Enter' || e.key === ' ') && !updating) onUpdateBalance();
              }}
            >
              {shown}
            </Tag>
          </Tooltip>
        ) : (
          <Tag color="green" aria-label={`${t('channels.quota.remaining')}: ${shown}`}>
            {shown}
          </Tag>
        ))}
    </Space>
  );
}

/**
 * The name cell: the channel's name, or a tag row's tag with its channel count. One line of inline
 * content, so the name column's ellipsis can shorten it and the tag rows' expander stays beside it;
 * the mark of a type the relay cannot serve yet takes a second line, so it never hides the name.
 */
export function NameCell({
  name,
  tag,
  count,
  notServedType,
}: {
  name: string;
  tag?: string;
  count?: number;
  notServedType?: number;
}) {
  const { t } = useTranslation();
  const mark =
    notServedType === undefined ? null : (
      <>
        <br />
        <NotServedTag type={notServedType} />
      </>
    );
  if (count !== undefined) {
    const channels = t('channels.tagRow.channels', { count });
    return (
      <span title={`${name} · ${channels}`}>
        <Tag color="processing">{t('channels.tagRow.label')}</Tag>
        <Typography.Text strong>{name}</Typography.Text>{' '}
        <Typography.Text type="secondary">{channels}</Typography.Text>
        {mark}
      </span>
    );
  }
  return (
    <span title={tag ? `${name} #${tag}` : name}>
      <span>{name}</span>
      {tag ? (
        <Typography.Text type="secondary" style={{ fontSize: 12, marginLeft: 6 }}>
          #{tag}
        </Typography.Text>
      ) : null}
      {mark}
    </span>
  );
}
