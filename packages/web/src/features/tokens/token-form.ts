// The token drawer's values and their conversion to the API's fields: presets, expiry shortcuts and
// expiry parsing. Pure, so the rules are tested without rendering.
import { TOKEN_DEFAULT_QUOTA } from '@sluice/shared';
import type { TokenCreateInput, TokenUpdate, TokenView } from '@sluice/shared';
import type { Dayjs } from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import { dayjs } from '../../lib/dates';

dayjs.extend(customParseFormat);

/** Quota presets (spec part 2 §9): 500000 quota is one dollar at the default rate. */
export const QUOTA_PRESETS = [
  { quota: 500_000, label: '1$' },
  { quota: 5_000_000, label: '10$' },
  { quota: 25_000_000, label: '50$' },
  { quota: 50_000_000, label: '100$' },
  { quota: 250_000_000, label: '500$' },
  { quota: 500_000_000, label: '1000$' },
] as const;

export const BATCH_PRESETS = [10, 20, 30, 100] as const;

export const EXPIRY_FORMAT = 'YYYY-MM-DD HH:mm:ss';
/** Typed expiry times may leave out the seconds or the whole time of day. */
const ACCEPTED_FORMATS = [EXPIRY_FORMAT, 'YYYY-MM-DD HH:mm', 'YYYY-MM-DD'];

export type ExpiryShortcut = 'never' | 'hour' | 'day' | 'month';
export const EXPIRY_SHORTCUTS: readonly ExpiryShortcut[] = ['never', 'hour', 'day', 'month'];

/** The text the expiry field shows for a shortcut; '' is "never". A month is 30 days (spec §9). */
export function expiryShortcutText(shortcut: ExpiryShortcut, now: Dayjs = dayjs()): string {
  switch (shortcut) {
    case 'never':
      return '';
    case 'hour':
      return now.add(1, 'hour').format(EXPIRY_FORMAT);
    case 'day':
      return now.add(1, 'day').format(EXPIRY_FORMAT);
    case 'month':
      return now.add(30, 'day').format(EXPIRY_FORMAT);
  }
}

/** Unix seconds of the expiry text, -1 for never ('' or "-1"), null when it is not a date. */
export function parseExpiry(text: string | undefined): number | null {
  const value = (text ?? '').trim();
  if (value === '' || value === '-1') return -1;
  const parsed = dayjs(value, ACCEPTED_FORMATS, true);
  return parsed.isValid() ? parsed.unix() : null;
}

export const expiryText = (expiredTime: number): string =>
  expiredTime === -1 ? '' : dayjs.unix(expiredTime).format(EXPIRY_FORMAT);

export interface TokenFormValues {
  name: string;
  remain_quota: number | null;
  unlimited_quota: boolean;
  /** Create only. */
  count: number | null;
  /** '' = never; see parseExpiry. */
  expiry: string;
  model_limits_enabled: boolean;
  model_limits: string[];
  allow_ips: string;
  /** undefined = the owner's own group. */
  group: string | undefined;
}

export const NEW_TOKEN_VALUES: TokenFormValues = {
  name: '',
  remain_quota: TOKEN_DEFAULT_QUOTA,
  unlimited_quota: false,
  count: 1,
  expiry: '',
  model_limits_enabled: false,
  model_limits: [],
  allow_ips: '',
  group: undefined,
};

export function valuesFromToken(token: TokenView): TokenFormValues {
  return {
    name: token.name,
    remain_quota: token.remain_quota,
    unlimited_quota: token.unlimited_quota,
    count: 1,
    expiry: expiryText(token.expired_time),
    model_limits_enabled: token.model_limits_enabled,
    model_limits: token.model_limits
      .split(',')
      .map((m) => m.trim())
      .filter((m) => m !== ''),
    allow_ips: token.allow_ips,
    group: token.group === '' ? undefined : token.group,
  };
}

/** The fields both create and update send. The form has validated the expiry already. */
function editableFields(values: TokenFormValues) {
  return {
    name: values.name.trim(),
    remain_quota: Math.trunc(values.remain_quota ?? 0),
    unlimited_quota: values.unlimited_quota,
    expired_time: parseExpiry(values.expiry) ?? -1,
    model_limits_enabled: values.model_limits_enabled,
    model_limits: values.model_limits.join(','),
    allow_ips: values.allow_ips.trim(),
    group: values.group ?? '',
  };
}

export const toCreateInput = (values: TokenFormValues): TokenCreateInput => ({
  ...editableFields(values),
  count: Math.trunc(values.count ?? 1),
});

export const toUpdateInput = (id: number, values: TokenFormValues): TokenUpdate => ({
  id,
  ...editableFields(values),
});
