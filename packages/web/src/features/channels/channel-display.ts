// How the list shows a channel's status, response time and balance (spec part 2 §4), apart from
// React so the rules are tested on their own.
import { CHANNEL_STATUS } from '@sluice/shared';
import type { TFunction } from 'i18next';
import { channelTypeUi } from './channel-type-table';

/** The type's name in the console's language; 'unknown type' for a number the table does not know. */
export function typeName(t: TFunction, type: number): string {
  const row = channelTypeUi(type);
  return row ? t(`channels.typeName.${row.value}`, { defaultValue: row.label }) : t('channels.unknownType');
}

export type StatusKind = 'enabled' | 'disabled' | 'autoDisabled' | 'unknown';

export function channelStatusKind(status: number): StatusKind {
  if (status === CHANNEL_STATUS.enabled) return 'enabled';
  if (status === CHANNEL_STATUS.manuallyDisabled) return 'disabled';
  if (status === CHANNEL_STATUS.autoDisabled) return 'autoDisabled';
  return 'unknown';
}

export const STATUS_COLORS: Record<StatusKind, string> = {
  enabled: 'green',
  disabled: 'red',
  autoDisabled: 'gold',
  unknown: 'default',
};

/** Why and when the circuit breaker disabled a channel, from other_info (absent parts are null). */
export function autoDisableInfo(otherInfo: string): { reason: string | null; time: number | null } {
  try {
    const parsed: unknown = JSON.parse(otherInfo);
    if (typeof parsed !== 'object' || parsed === null) return { reason: null, time: null };
    const { status_reason: reason, status_time: time } = parsed as Record<string, unknown>;
    return {
      reason: typeof reason === 'string' && reason !== '' ? reason : null,
      time: typeof time === 'number' && time > 0 ? time : null,
    };
  } catch {
    return { reason: null, time: null };
  }
}

export type ResponseTimeColor = 'default' | 'green' | 'lime' | 'yellow' | 'red';

/** 0 untested; up to 1 s green; up to 3 s lime; up to 5 s yellow; slower red. */
export function responseTimeColor(ms: number): ResponseTimeColor {
  if (ms <= 0) return 'default';
  if (ms <= 1000) return 'green';
  if (ms <= 3000) return 'lime';
  if (ms <= 5000) return 'yellow';
  return 'red';
}

/** Milliseconds as seconds with two decimals. */
export const formatSeconds = (ms: number): string => (ms / 1000).toFixed(2);

/** The upstream's balance in its currency, or null when the type reports none. */
export function formatBalance(type: number, balance: number): string | null {
  const currency = channelTypeUi(type)?.balanceCurrency;
  return currency ? `${currency}${balance.toFixed(2)}` : null;
}
