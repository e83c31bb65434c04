// Kysely table types. Column names are the wire names of the spec (and of one-api/new-api databases).
// Booleans are stored as 0/1 integers so the three dialects agree; timestamps are unix seconds.
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

type Id = Generated<number>;
/** A column the database fills in when an insert leaves it out. */
type Default<T> = ColumnType<T, T | undefined, T>;

export interface UsersTable {
  id: Id;
  username: string;
  password: string;
  display_name: Default<string>;
  role: Default<number>;
  status: Default<number>;
  email: Default<string>;
  github_id: Default<string>;
  wechat_id: Default<string>;
  telegram_id: Default<string>;
  linux_do_id: Default<string>;
  access_token: string | null;
  quota: Default<number>;
  used_quota: Default<number>;
  request_count: Default<number>;
  group: Default<string>;
  aff_code: string;
  aff_count: Default<number>;
  aff_quota: Default<number>;
  aff_history_quota: Default<number>;
  inviter_id: Default<number>;
  created_at: Default<number>;
  deleted_at: number | null;
  /** new-api's user settings as JSON text (the quota warning settings); null = never set. */
  setting: string | null;
  /** Unix seconds of the quota warning sent while the balance stays below the threshold; 0 = none. */
  quota_warned_at: Default<number>;
  /** 1: the console lets the account do nothing but choose a new password (root's first start). */
  password_change_required: Default<number>;
}

export interface SessionsTable {
  id: string;
  user_id: number;
  created_at: number;
  expires_at: number;
}

export interface VerificationCodesTable {
  id: Id;
  /** email_verify | password_reset | oauth_state | wechat_bind … */
  purpose: string;
  target: string;
  code: string;
  created_at: number;
  expires_at: number;
}

export interface OptionsTable {
  key: string;
  value: string;
}

export interface TokensTable {
  id: Id;
  user_id: number;
  key: string;
  status: Default<number>;
  name: Default<string>;
  created_time: Default<number>;
  accessed_time: Default<number>;
  expired_time: Default<number>;
  remain_quota: Default<number>;
  unlimited_quota: Default<number>;
  used_quota: Default<number>;
  model_limits_enabled: Default<number>;
  model_limits: string;
  allow_ips: string;
  group: Default<string>;
  deleted_at: number | null;
}

export interface ChannelsTable {
  id: Id;
  type: Default<number>;
  key: string;
  openai_organization: Default<string>;
  test_model: Default<string>;
  status: Default<number>;
  name: Default<string>;
  weight: Default<number>;
  created_time: Default<number>;
  test_time: Default<number>;
  response_time: Default<number>;
  base_url: Default<string>;
  other: string;
  balance: Default<number>;
  balance_updated_time: Default<number>;
  models: string;
  group: Default<string>;
  used_quota: Default<number>;
  model_mapping: string;
  status_code_mapping: string;
  priority: Default<number>;
  auto_ban: Default<number>;
  other_info: string;
  tag: Default<string>;
  setting: string;
  max_input_tokens: Default<number>;
}

export interface AbilitiesTable {
  group: string;
  model: string;
  channel_id: number;
  enabled: Default<number>;
  priority: Default<number>;
  weight: Default<number>;
  tag: Default<string>;
}

export interface LogsTable {
  id: Id;
  user_id: Default<number>;
  created_at: number;
  type: number;
  content: string;
  username: Default<string>;
  token_name: Default<string>;
  token_id: Default<number>;
  model_name: Default<string>;
  quota: Default<number>;
  prompt_tokens: Default<number>;
  completion_tokens: Default<number>;
  use_time: Default<number>;
  is_stream: Default<number>;
  channel_id: Default<number>;
  group: Default<string>;
  ip: Default<string>;
  other: string;
  /** A relay call's request id (its x-request-id); '' on other rows. */
  request_id: Default<string>;
}

export interface RedemptionsTable {
  id: Id;
  user_id: Default<number>;
  key: string;
  status: Default<number>;
  name: Default<string>;
  quota: Default<number>;
  created_time: Default<number>;
  redeemed_time: Default<number>;
  used_user_id: Default<number>;
  deleted_at: number | null;
}

export interface TopUpsTable {
  id: Id;
  user_id: number;
  amount: Default<number>;
  money: Default<number>;
  trade_no: string;
  payment_method: Default<string>;
  create_time: Default<number>;
  complete_time: Default<number>;
  status: Default<string>;
}

export interface MidjourneysTable {
  id: Id;
  code: Default<number>;
  user_id: Default<number>;
  action: Default<string>;
  mj_id: Default<string>;
  prompt: string;
  prompt_en: string;
  description: string;
  state: string;
  /** Unix milliseconds, as new-api stores them; so are start_time and finish_time. */
  submit_time: Default<number>;
  start_time: Default<number>;
  finish_time: Default<number>;
  image_url: string;
  status: Default<string>;
  progress: Default<string>;
  fail_reason: string;
  channel_id: Default<number>;
  quota: Default<number>;
  buttons: string;
  properties: string;
  /** The upstream's id of the task; empty for rows imported from new-api, whose `mj_id` is the upstream's. */
  upstream_task_id: Default<string>;
  /** The token the task was charged to (0: none known). */
  token_id: Default<number>;
  /** The client's notifyHook, called by Sluice when MjNotifyEnabled is on. */
  notify_hook: string | null;
}

export interface TasksTable {
  id: Id;
  created_at: Default<number>;
  updated_at: Default<number>;
  task_id: Default<string>;
  platform: Default<string>;
  user_id: Default<number>;
  channel_id: Default<number>;
  quota: Default<number>;
  action: Default<string>;
  status: Default<string>;
  fail_reason: string;
  /** Unix seconds, as new-api stores them; so are start_time and finish_time. */
  submit_time: Default<number>;
  start_time: Default<number>;
  finish_time: Default<number>;
  progress: Default<string>;
  properties: string;
  data: string;
  /** The upstream's id of the task; empty for rows imported from new-api, whose `task_id` is the upstream's. */
  upstream_task_id: Default<string>;
  /** The token the task was charged to (0: none known). */
  token_id: Default<number>;
}

export interface QuotaDataTable {
  id: Id;
  user_id: number;
  username: Default<string>;
  model_name: Default<string>;
  /** Start of the hour, unix seconds. */
  created_at: number;
  token_used: Default<number>;
  count: Default<number>;
  quota: Default<number>;
}

/**
 * Balances as of `as_of` (unix seconds), written by reconciliation: `kind` 'user' (quota, used_quota,
 * aff_quota) or 'token' (used_quota). Accounts without a row had all of them 0.
 */
export interface BalanceSnapshotsTable {
  as_of: number;
  kind: 'user' | 'token';
  account_id: number;
  quota: Default<number>;
  used_quota: Default<number>;
  aff_quota: Default<number>;
}

/** Quota held by a relay call in flight (deleted when the call settles). */
export interface JobLeasesTable {
  name: string;
  holder: string;
  expires_at: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  verification_codes: VerificationCodesTable;
  options: OptionsTable;
  tokens: TokensTable;
  channels: ChannelsTable;
  abilities: AbilitiesTable;
  logs: LogsTable;
  redemptions: RedemptionsTable;
  top_ups: TopUpsTable;
  midjourneys: MidjourneysTable;
  tasks: TasksTable;
  quota_data: QuotaDataTable;
  job_leases: JobLeasesTable;
  balance_snapshots: BalanceSnapshotsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type TokenRow = Selectable<TokensTable>;
export type ChannelRow = Selectable<ChannelsTable>;
export type LogRow = Selectable<LogsTable>;
export type RedemptionRow = Selectable<RedemptionsTable>;
export type TopUpRow = Selectable<TopUpsTable>;
export type MidjourneyRow = Selectable<MidjourneysTable>;
export type TaskRow = Selectable<TasksTable>;
export type QuotaDataRow = Selectable<QuotaDataTable>;

/** Columns whose SQL type is 64-bit but whose values fit a JS number (quota never nears 2^53). */
export type Int64 = ColumnType<number, number, number>;
