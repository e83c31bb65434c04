// Usage records in the console: logs, log stats and the data dashboard (drawing and async task
// lists are in ./tasks.ts). Paged lists here answer {items, page, page_size, total} with a 1-based
// `p`. (Tokens and redemption codes keep the spec's older form: 0-based `p`, a plain array.) Numbers
// in their queries follow the rule of every list (./list-page.ts): one that does not parse ("NaN",
// "", "0x1") is ignored, as new-api ignores it, and a `p` that does not parse is the first page.
import { z } from 'zod';
import { LOG_TYPE } from '../constants/statuses.js';
import { MSG } from '../messages.js';
import { lenientQueryInt, lenientTimeBound, listPageNumberFrom1, listPageSize } from './list-page.js';

export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './list-page.js';

const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/** An optional text filter; blank means absent. */
export const optionalQueryText = () =>
  z
    .preprocess((v) => (typeof v === 'string' ? v.trim() : v), z.string().max(255).optional())
    .transform((v) => (v === '' ? undefined : v))
    .optional();

export interface Page<T> {
  items: T[];
  /** 1-based. */
  page: number;
  page_size: number;
  total: number;
}

// ---------------------------------------------------------------------------------------------
// Logs: GET /api/log/ (admin), GET /api/log/self/ (user); …/stat with the same filters.

const logFilterFields = {
  /** 0 (or a type that does not parse) = all types; a number that names no type is refused. */
  type: lenientQueryInt()
    .transform((n) => n ?? LOG_TYPE.all)
    .pipe(
      z
        .number()
        .min(LOG_TYPE.all, { error: 'unknown log type' })
        .max(LOG_TYPE.error, { error: 'unknown log type' }),
    ),
  token_name: optionalQueryText(),
  model_name: optionalQueryText(),
  /** Unix seconds, inclusive; 0 is no bound. */
  start_timestamp: lenientTimeBound(),
  /** Unix seconds, inclusive; 0 is no bound. */
  end_timestamp: lenientTimeBound(),
  /** Admin only (ignored on the self routes). */
  username: optionalQueryText(),
  /** Channel id; admin only (ignored on the self routes). */
  channel: lenientQueryInt().optional(),
  /** A relay call's request id (the x-request-id its client got back). */
  request_id: optionalQueryText(),
};

export const logFilterQuery = z.object(logFilterFields);
/** `p` counts from 1; the page size is 10 by default, and values above 100 are served as 100. */
export const logListQuery = z.object({ p: listPageNumberFrom1, page_size: listPageSize, ...logFilterFields });
export type LogFilter = z.output<typeof logFilterQuery>;
export type LogListQuery = z.output<typeof logListQuery>;

export const logPurgeQuery = z.object({
  target_timestamp: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: MSG.selectLogTime })
      .int({ error: MSG.selectLogTime })
      .min(1, { error: MSG.selectLogTime }),
  ),
});

/**
 * One log row on the wire. `channel`, `channel_name` (the channel's current name, empty once it is
 * deleted) and `other.admin_info` are present for admins only.
 */
export interface LogItem {
  id: number;
  user_id: number;
  created_at: number;
  type: number;
  content: string;
  username: string;
  token_name: string;
  token_id: number;
  model_name: string;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  use_time: number;
  is_stream: boolean;
  channel?: number;
  channel_name?: string;
  group: string;
  ip: string;
  /** JSON text (frt, model_ratio, group_ratio, …, and the facts below); the console parses it. */
  other: string;
  /** A relay call's request id (its x-request-id); '' for other rows and rows from before it was kept. */
  request_id: string;
}

// The facts a row records in `other`, so the console can word the details in the reader's language;
// `content` keeps an English sentence for scripts and older consoles. Consumption rows carry their
// prices (model_ratio, completion_ratio, group_ratio, model_price, cache_ratio, cache_tokens) and,
// for a stream that ended early, its StreamInterruption; error rows carry status_code. Top-up,
// admin and system rows that move money name their event and its facts, and every one of them states
// the signed change it made: `quota_delta` (the user's quota), `used_quota_delta` (the user's used
// quota, and the token's when the row names one), `aff_quota_delta` (invite earnings). A consumption
// row's change is its `quota` column (spent: quota down, used quota up). `npm run reconcile` sums them.

export const LOG_EVENT = {
  redeem: 'redeem',
  onlineTopup: 'online_topup',
  adminSetQuota: 'admin_set_quota',
  adminAddQuota: 'admin_add_quota',
  initialQuota: 'initial_quota',
  inviteBonus: 'invite_bonus',
  inviteReward: 'invite_reward',
  affTransfer: 'aff_transfer',
  taskRefund: 'task_refund',
} as const;

/** Top-up (type 1) by a redemption code. */
export interface RedeemLogFacts {
  event: typeof LOG_EVENT.redeem;
  redemption_id: number;
  redemption_name: string;
  /** Quota credited. */
  quota: number;
  quota_delta: number;
}

/** Top-up (type 1) paid through the payment gateway. */
export interface OnlineTopupLogFacts {
  event: typeof LOG_EVENT.onlineTopup;
  /** Quota credited. */
  quota: number;
  quota_delta: number;
  /** What was paid, as the gateway reported it ("7.30", in the gateway's currency). */
  money: string;
  /** The gateway's payment type: "alipay", "wxpay". */
  payment_method: string;
  trade_no: string;
}

/** Admin (type 3): an administrator set the user's quota. The admin's id is for admins only. */
export interface AdminSetQuotaLogFacts {
  event: typeof LOG_EVENT.adminSetQuota;
  quota_from: number;
  quota_to: number;
  /** quota_to − quota_from. */
  quota_delta: number;
  admin_info: { admin_id: number };
}

/** Admin (type 3): an administrator added a signed amount to the user's quota (negative subtracts). */
export interface AdminAddQuotaLogFacts {
  event: typeof LOG_EVENT.adminAddQuota;
  quota_delta: number;
  admin_info: { admin_id: number };
}

/**
 * System (type 4): the quota an account starts with — QuotaForNewUser for a new account, root's
 * initial quota on the first start.
 */
export interface InitialQuotaLogFacts {
  event: typeof LOG_EVENT.initialQuota;
  quota_delta: number;
}

/** System (type 4): QuotaForInvitee, credited to an account that signed up with an invite code. */
export interface InviteBonusLogFacts {
  event: typeof LOG_EVENT.inviteBonus;
  quota_delta: number;
  inviter_id: number;
}

/** System (type 4): QuotaForInviter, added to the inviter's invite earnings (aff_quota, not quota). */
export interface InviteRewardLogFacts {
  event: typeof LOG_EVENT.inviteReward;
  aff_quota_delta: number;
  invitee_id: number;
}

/** System (type 4): invite earnings moved into quota by their owner. */
export interface AffTransferLogFacts {
  event: typeof LOG_EVENT.affTransfer;
  quota_delta: number;
  aff_quota_delta: number;
}

/**
 * System (type 4): a failed task's charge given back to its user, token and channel. The row names
 * the token (token_id) and channel it refunds.
 */
export interface TaskRefundLogFacts {
  event: typeof LOG_EVENT.taskRefund;
  task_id: string;
  /** The amount refunded (as before the signed deltas were recorded). */
  refund_quota: number;
  quota_delta: number;
  used_quota_delta: number;
  reason: string;
}

/**
 * Who ended a stream before it finished: the client left, the upstream broke off (with why), or
 * Sluice stopped it because the caller's quota paid for no more output. A consumption row records it
 * as `stream_interrupted` ('client' | 'upstream' | 'quota') and `stream_error`.
 */
export type StreamInterruption = { by: 'client' } | { by: 'upstream'; reason: string } | { by: 'quota' };

/** Consumption (type 2) within the filters: total quota, and requests/tokens in the last 60 s. */
export interface LogStat {
  quota: number;
  rpm: number;
  tpm: number;
}

// ---------------------------------------------------------------------------------------------
// Data dashboard: GET /api/data/ (admin, optional username) and GET /api/data/self.

export const DASHBOARD_GRANULARITIES = ['hour', 'day', 'week'] as const;
export type DashboardGranularity = (typeof DASHBOARD_GRANULARITIES)[number];

export const dashboardQuery = z.object({
  username: optionalQueryText(),
  /** Unix seconds; default (also for 0 or a value that does not parse) 30 days before end_timestamp. */
  start_timestamp: lenientTimeBound(),
  /** Unix seconds; default (also for 0 or a value that does not parse) now. */
  end_timestamp: lenientTimeBound(),
  /** Bucket size; default the DataExportDefaultTime option. */
  granularity: z.preprocess(
    blankToUndefined,
    z.enum(DASHBOARD_GRANULARITIES, { error: 'granularity must be hour, day or week' }).optional(),
  ),
  /**
   * Minutes east of UTC (480 for UTC+8), so day and week buckets start at the viewer's midnight;
   * weeks start on Monday.
   */
  utc_offset: z.preprocess(
    blankToUndefined,
    z.coerce
      .number()
      .int()
      .min(-14 * 60)
      .max(14 * 60)
      .default(0),
  ),
});
export type DashboardQuery = z.output<typeof dashboardQuery>;

export interface DashboardRow {
  model_name: string;
  /** Start of the bucket, unix seconds. */
  created_at: number;
  count: number;
  quota: number;
  token_used: number;
}

// ---------------------------------------------------------------------------------------------
// Pricing: GET /api/pricing → {success, message, data: PricingEntry[], group_ratio, usable_group}.

export interface PricingEntry {
  model_name: string;
  /** 1 per call (ModelPrice), 0 per token (ModelRatio). */
  quota_type: 0 | 1;
  model_ratio: number;
  /** USD per call; 0 when billed per token. */
  model_price: number;
  completion_ratio: number;
  /** Groups with an enabled channel serving the model. */
  enable_groups: string[];
}
