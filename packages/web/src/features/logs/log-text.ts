// The details sentence of a log row in the reader's language, worded from the facts the server
// records in `other` (prices, interruptions, statuses, top-up and admin events). Rows without those
// facts (written before they were recorded, or by another gateway) show their stored `content`.
import { LOG_EVENT, LOG_TYPE } from '@sluice/shared';
import type { LogItem } from '@sluice/shared';
import type { TFunction } from 'i18next';
import { formatFigure } from './billing-process';
import type { LogOther } from './log-other';

export interface LogTextOptions {
  t: TFunction;
  /** Quota as the site displays it ("$1.00" or "500k"). */
  formatQuota(quota: number): string;
}

export function logText(
  log: Pick<LogItem, 'type' | 'content'>,
  other: LogOther,
  options: LogTextOptions,
): string {
  const worded =
    other.event !== undefined
      ? eventText(other, options)
      : log.type === LOG_TYPE.consume
        ? consumptionText(other, options.t)
        : log.type === LOG_TYPE.error
          ? errorText(log.content, other, options.t)
          : null;
  return worded ?? log.content;
}

function consumptionText(other: LogOther, t: TFunction): string | null {
  const groupRatio = formatFigure(other.group_ratio ?? 1);
  const parts: string[] = [];
  if (other.model_price !== undefined && other.model_price > 0) {
    parts.push(t('logs.text.perCall', { price: formatFigure(other.model_price), groupRatio }));
  } else if (other.model_ratio !== undefined) {
    parts.push(
      t('logs.text.perToken', {
        modelRatio: formatFigure(other.model_ratio),
        completionRatio: formatFigure(other.completion_ratio ?? 1),
        groupRatio,
      }),
    );
  } else {
    return null;
  }
  if (other.cache_tokens !== undefined && other.cache_tokens > 0 && other.cache_ratio !== undefined) {
    parts.push(t('logs.text.cached', { tokens: other.cache_tokens, ratio: formatFigure(other.cache_ratio) }));
  }
  const cacheWrites = other.cache_creation_tokens;
  if (cacheWrites !== undefined && cacheWrites > 0 && other.cache_creation_ratio !== undefined) {
    parts.push(
      t('logs.text.cacheWrite', { tokens: cacheWrites, ratio: formatFigure(other.cache_creation_ratio) }),
    );
  }
  if (other.stream_interrupted === 'client') parts.push(t('logs.text.clientLeft'));
  if (other.stream_interrupted === 'quota') parts.push(t('logs.text.quotaStopped'));
  if (other.stream_interrupted === 'upstream') {
    parts.push(t('logs.text.streamBroke', { reason: other.stream_error ?? '' }));
  }
  return parts.join(t('logs.text.separator'));
}

function errorText(message: string, other: LogOther, t: TFunction): string | null {
  if (other.status_code === undefined) return null;
  const status = other.status_code;
  return message === '' ? t('logs.text.errorStatus', { status }) : t('logs.text.error', { status, message });
}

function eventText(other: LogOther, { t, formatQuota }: LogTextOptions): string | null {
  switch (other.event) {
    case LOG_EVENT.redeem: {
      const { redemption_id: id, redemption_name: name, quota } = other;
      if (id === undefined || name === undefined || quota === undefined) return null;
      return t('logs.text.redeem', { name, id, quota: formatQuota(quota) });
    }
    case LOG_EVENT.onlineTopup: {
      const { quota, money, trade_no: tradeNo } = other;
      if (quota === undefined || money === undefined || tradeNo === undefined) return null;
      const method = paymentMethodName(other.payment_method ?? '', t);
      return t('logs.text.onlineTopup', { quota: formatQuota(quota), money, method, tradeNo });
    }
    case LOG_EVENT.adminSetQuota: {
      const { quota_from: from, quota_to: to } = other;
      if (from === undefined || to === undefined) return null;
      const change = to - from;
      const figures = {
        from: formatQuota(from),
        to: formatQuota(to),
        change: change >= 0 ? `+${formatQuota(change)}` : formatQuota(change),
      };
      // Only admins receive admin_info: a user reads that an administrator did it, not which one.
      const adminId = other.admin_info?.admin_id;
      return adminId === undefined
        ? t('logs.text.adminSetQuota', figures)
        : t('logs.text.adminSetQuotaBy', { ...figures, adminId });
    }
    case LOG_EVENT.adminAddQuota: {
      const delta = other.quota_delta;
      if (delta === undefined) return null;
      const amount = formatQuota(Math.abs(delta));
      const adminId = other.admin_info?.admin_id;
      const key = delta >= 0 ? 'adminAddQuota' : 'adminSubtractQuota';
      return adminId === undefined
        ? t(`logs.text.${key}`, { amount })
        : t(`logs.text.${key}By`, { amount, adminId });
    }
    default:
      return null;
  }
}

/** The gateway's payment type by its name in the reader's language; an unknown one as it is. */
function paymentMethodName(method: string, t: TFunction): string {
  if (method === 'alipay') return t('logs.text.method.alipay');
  if (method === 'wxpay') return t('logs.text.method.wxpay');
  return method === '' ? t('logs.text.method.unknown') : method;
}
