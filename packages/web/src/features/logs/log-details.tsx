// The expanded part of a log row: the full details text (in the reader's language) and, for
// consumption rows, the billing process (the ratios the relay applied, the prices they mean and
// the formula with its result).
import { Typography, theme } from 'antd';
import type { LogItem } from '@sluice/shared';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../components/quota';
import { useStatus } from '../../lib/status';
import { billingFormula, billingProcess, formatFigure } from './billing-process';
import type { BillingProcess } from './billing-process';
import { otherOf } from './log-other';
import type { LogOther } from './log-other';
import { logText } from './log-text';

interface Item {
  key: string;
  label: string;
  children: ReactNode;
  /** Takes the whole width (long texts). */
  wide?: boolean;
}
type Items = Item[];

function priceItems(process: BillingProcess, t: TFunction): Items {
  const usd = (n: number) => `$${formatFigure(n)}`;
  if (process.kind === 'call') {
    return [
      {
        key: 'price',
        label: t('logs.detail.modelPrice'),
        children: t('logs.detail.perCall', { price: usd(process.modelPrice) }),
      },
      { key: 'group', label: t('logs.detail.groupRatio'), children: formatFigure(process.groupRatio) },
    ];
  }
  const items: Items = [
    { key: 'model', label: t('logs.detail.modelRatio'), children: formatFigure(process.modelRatio) },
    {
      key: 'completion',
      label: t('logs.detail.completionRatio'),
      children: formatFigure(process.completionRatio),
    },
    { key: 'group', label: t('logs.detail.groupRatio'), children: formatFigure(process.groupRatio) },
  ];
  if (process.cachedTokens > 0) {
    items.push(
      { key: 'cached', label: t('logs.detail.cachedTokens'), children: process.cachedTokens },
      { key: 'cacheRatio', label: t('logs.detail.cacheRatio'), children: formatFigure(process.cacheRatio) },
    );
  }
  if (process.cacheWriteTokens > 0) {
    items.push(
      { key: 'cacheWrite', label: t('logs.detail.cacheWriteTokens'), children: process.cacheWriteTokens },
      {
        key: 'cacheWriteRatio',
        label: t('logs.detail.cacheWriteRatio'),
        children: formatFigure(process.cacheWriteRatio),
      },
    );
  }
  items.push(
    {
      key: 'promptPrice',
      label: t('logs.detail.promptPrice'),
      children: t('logs.detail.perMillion', { price: usd(process.prices.prompt) }),
    },
    {
      key: 'completionPrice',
      label: t('logs.detail.completionPrice'),
      children: t('logs.detail.perMillion', { price: usd(process.prices.completion) }),
    },
  );
  if (process.prices.cached !== null) {
    items.push({
      key: 'cachedPrice',
      label: t('logs.detail.cachedPrice'),
      children: t('logs.detail.perMillion', { price: usd(process.prices.cached) }),
    });
  }
  if (process.prices.cacheWrite !== null) {
    items.push({
      key: 'cacheWritePrice',
      label: t('logs.detail.cacheWritePrice'),
      children: t('logs.detail.perMillion', { price: usd(process.prices.cacheWrite) }),
    });
  }
  return items;
}

/** Figures the relay records for audio and realtime calls, shown as they are when present. */
const FORMATS = ['openai', 'responses', 'anthropic', 'gemini'] as const;
type Format = (typeof FORMATS)[number];
const isFormat = (format: string): format is Format => (FORMATS as readonly string[]).includes(format);

/** A dialect's name in the reader's language; an unknown word as it is. */
const formatName = (format: string, t: TFunction): string =>
  isFormat(format) ? t(`logs.detail.format.${format}`) : format;

function audioItems(other: LogOther, t: TFunction): Items {
  const figures: Array<[keyof LogOther, string]> = [
    ['text_input', t('logs.detail.textInput')],
    ['text_output', t('logs.detail.textOutput')],
    ['audio_input', t('logs.detail.audioInput')],
    ['audio_output', t('logs.detail.audioOutput')],
    ['audio_ratio', t('logs.detail.audioRatio')],
    ['audio_completion_ratio', t('logs.detail.audioCompletionRatio')],
  ];
  return figures.flatMap(([key, label]) => {
    const value = other[key];
    return typeof value === 'number' ? [{ key, label, children: formatFigure(value) }] : [];
  });
}

export function LogDetails({ log, admin }: { log: LogItem; admin: boolean }) {
  const { t } = useTranslation();
  const status = useStatus();
  const formatQuota = useFormatQuota();
  const other = otherOf(log);
  const process = billingProcess(log, other, status.quota_per_unit);
  const text = logText(log, other, { t, formatQuota });

  const items: Items = [];
  if (text) {
    items.push({
      key: 'content',
      label: t('logs.detail.content'),
      wide: true,
      children: <span style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{text}</span>,
    });
  }
  if (process) items.push(...priceItems(process, t));
  items.push(...audioItems(other, t));
  if (other.ws) items.push({ key: 'ws', label: t('logs.detail.realtime'), children: t('logs.detail.yes') });
  if (other.status_code !== undefined) {
    items.push({ key: 'status', label: t('logs.detail.statusCode'), children: other.status_code });
  }
  if (other.upstream_model_name) {
    items.push({
      key: 'upstream',
      label: t('logs.detail.upstreamModelLabel'),
      children: other.upstream_model_name,
    });
  }
  if (other.request_format && other.upstream_format) {
    items.push({
      key: 'formats',
      label: t('logs.detail.formatsLabel'),
      children: `${formatName(other.request_format, t)} → ${formatName(other.upstream_format, t)}`,
    });
  }
  if (admin && log.channel) {
    items.push({
      key: 'channel',
      label: t('logs.detail.channel'),
      children: `${log.channel} · ${log.channel_name || t('logs.detail.channelGone')}`,
    });
  }
  const tried = other.admin_info?.use_channel ?? [];
  if (admin && tried.length > 0) {
    items.push({ key: 'channels', label: t('logs.detail.channelsTriedLabel'), children: tried.join(' → ') });
  }
  if (log.group) items.push({ key: 'groupName', label: t('logs.detail.group'), children: log.group });
  if (log.ip) items.push({ key: 'ip', label: t('logs.detail.ip'), children: log.ip });
  if (process) {
    items.push({
      key: 'formula',
      label: t('logs.detail.billingProcess'),
      wide: true,
      children: (
        <Typography.Text code style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
          {billingFormula(process, t)}
        </Typography.Text>
      ),
    });
  }
  if (items.length === 0) return <Typography.Text type="secondary">{t('logs.detail.none')}</Typography.Text>;
  return <DetailGrid items={items} label={t('logs.detail.title')} />;
}

/**
 * Label-over-value cells that wrap to the width available, so the details stay readable inside a
 * horizontally scrolled table on a phone as well as on a wide screen.
 */
function DetailGrid({ items, label }: { items: Items; label: string }) {
  const { token } = theme.useToken();
  return (
    <dl
      aria-label={label}
      style={{
        display: 'grid',
        gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))',
        gap: '8px 24px',
        margin: 0,
      }}
    >
      {items.map((item) => (
        <div key={item.key} style={{ gridColumn: item.wide ? '1 / -1' : undefined, minWidth: 0 }}>
          <dt style={{ color: token.colorTextSecondary, fontSize: token.fontSizeSM }}>{item.label}</dt>
          <dd style={{ margin: 0, overflowWrap: 'anywhere' }}>{item.children}</dd>
        </div>
      ))}
    </dl>
  );
}
