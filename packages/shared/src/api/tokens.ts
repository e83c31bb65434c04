// Tokens (API keys): GET/POST/PUT/DELETE /api/token/*. A token's `key` travels WITHOUT the "sk-"
// prefix, as it is stored and as the relay matches it; the console shows TOKEN_KEY_PREFIX + key.
import { z } from 'zod';
import { MSG } from '../messages.js';
import { idSchema } from './ids.js';
import { listPageNumber, listPageSize, listPagedSize } from './list-page.js';
import { optionalQueryText } from './logs.js';

export const TOKEN_KEY_PREFIX = 'sk-';
export const TOKEN_KEY_LENGTH = 48;
export const TOKEN_NAME_MAX = 30;
export const TOKEN_BATCH_MAX = 100;
/** Length of the random suffix batch creation appends to every name after the first. */
export const TOKEN_NAME_SUFFIX_LENGTH = 6;
/** Form default for a new token (spec part 2 §9). */
export const TOKEN_DEFAULT_QUOTA = 500000;

const name = z
  .string({ error: MSG.tokenNameRequired })
  .trim()
  .min(1, { error: MSG.tokenNameRequired })
  .max(TOKEN_NAME_MAX, { error: MSG.tokenNameTooLong(TOKEN_NAME_MAX) });

const remainQuota = z
  .number({ error: MSG.tokenQuotaInvalid })
  .int({ error: MSG.tokenQuotaInvalid })
  .min(0, { error: MSG.tokenQuotaInvalid });

/** -1 = never expires; otherwise unix seconds (the server also requires it to be in the future). */
const expiredTime = z
  .number({ error: MSG.expiryFormatError })
  .int({ error: MSG.expiryFormatError })
  .refine((v) => v === -1 || v > 0, { error: MSG.expiryFormatError });

const flag = (field: string) => z.boolean({ error: `${field} must be true or false` });

const editableFields = {
  name,
  remain_quota: remainQuota,
  expired_time: expiredTime,
  unlimited_quota: flag('unlimited_quota'),
  model_limits_enabled: flag('model_limits_enabled'),
  /** Comma-separated model names. */
  model_limits: z.string({ error: 'model_limits must be a comma-separated string' }),
  /** One IP address or CIDR range per line; empty = any address. */
  allow_ips: z.string({ error: 'allow_ips must be text with one IP address or CIDR range per line' }),
  /** '' = the owner's own group. */
  group: z.string({ error: 'group must be a string' }).trim().max(64),
};

export const tokenCreateSchema = z.object({
  name: editableFields.name,
  remain_quota: editableFields.remain_quota.default(0),
  expired_time: editableFields.expired_time.default(-1),
  unlimited_quota: editableFields.unlimited_quota.default(false),
  model_limits_enabled: editableFields.model_limits_enabled.default(false),
  model_limits: editableFields.model_limits.default(''),
  allow_ips: editableFields.allow_ips.default(''),
  group: editableFields.group.default(''),
  /** Batch size: how many tokens to create at once. */
  count: z
    .number({ error: MSG.tokenCountInvalid(TOKEN_BATCH_MAX) })
    .int({ error: MSG.tokenCountInvalid(TOKEN_BATCH_MAX) })
    .min(1, { error: MSG.tokenCountInvalid(TOKEN_BATCH_MAX) })
    .max(TOKEN_BATCH_MAX, { error: MSG.tokenCountInvalid(TOKEN_BATCH_MAX) })
    .default(1),
});
export type TokenCreateInput = z.input<typeof tokenCreateSchema>;
export type TokenCreate = z.output<typeof tokenCreateSchema>;

const tokenId = idSchema('id must be a token id');

/** PUT /api/token/: fields left out keep their stored value; `status` is ignored (use status_only). */
export const tokenUpdateSchema = z.object({
  id: tokenId,
  name: editableFields.name.optional(),
  remain_quota: editableFields.remain_quota.optional(),
  expired_time: editableFields.expired_time.optional(),
  unlimited_quota: editableFields.unlimited_quota.optional(),
  model_limits_enabled: editableFields.model_limits_enabled.optional(),
  model_limits: editableFields.model_limits.optional(),
  allow_ips: editableFields.allow_ips.optional(),
  group: editableFields.group.optional(),
});
export type TokenUpdate = z.output<typeof tokenUpdateSchema>;

/** PUT /api/token/?status_only=true: enable (1) or disable (2). */
export const tokenStatusSchema = z.object({
  id: tokenId,
  status: z.union([z.literal(1), z.literal(2)], { error: 'status must be 1 (enabled) or 2 (disabled)' }),
});

/**
 * GET /api/token/: `p` is 0-based (spec part 2 §7) and never refused; `size` defaults to 10, at most
 * 100. `page_size` (new-api's name) takes the place of `size` and asks for the page object answer.
 */
export const tokenListQuery = z.object({ p: listPageNumber, size: listPageSize, page_size: listPagedSize });
export const tokenSearchQuery = tokenListQuery.extend({
  /** Part of the name. */
  keyword: optionalQueryText(),
  /** Part of the key, with or without "sk-". */
  token: optionalQueryText(),
});

export interface TokenView {
  id: number;
  user_id: number;
  /** Without the "sk-" prefix. */
  key: string;
  /** 1 enabled, 2 disabled, 3 expired, 4 exhausted (3 and 4 are also shown for an enabled token
   *  whose expiry time has passed or whose quota is used up). */
  status: number;
  name: string;
  created_time: number;
  accessed_time: number;
  expired_time: number;
  remain_quota: number;
  unlimited_quota: boolean;
  used_quota: number;
  model_limits_enabled: boolean;
  model_limits: string;
  allow_ips: string;
  group: string;
}
