// Redemption codes: admin CRUD under /api/redemption/*, and redeeming one (POST /api/user/topup).
import { z } from 'zod';
import { MSG } from '../messages.js';
import { idSchema } from './ids.js';
import { listPageNumber, listPageSize, listPagedSize } from './list-page.js';
import { optionalQueryText } from './logs.js';

export const REDEMPTION_KEY_LENGTH = 32;
export const REDEMPTION_NAME_MAX = 20;
export const REDEMPTION_BATCH_MAX = 100;
/** Form defaults (spec part 2 §9). */
export const REDEMPTION_DEFAULT_QUOTA = 100000;

const name = z
  .string({ error: MSG.redemptionNameRequired })
  .trim()
  .min(1, { error: MSG.redemptionNameRequired })
  .max(REDEMPTION_NAME_MAX, { error: MSG.redemptionNameTooLong(REDEMPTION_NAME_MAX) });

const quota = z
  .number({ error: MSG.redemptionQuotaInvalid })
  .int({ error: MSG.redemptionQuotaInvalid })
  .min(1, { error: MSG.redemptionQuotaInvalid });

/** POST /api/redemption/ → data: the created codes. */
export const redemptionCreateSchema = z.object({
  name,
  quota,
  count: z
    .number({ error: MSG.redemptionCountInvalid(REDEMPTION_BATCH_MAX) })
    .int({ error: MSG.redemptionCountInvalid(REDEMPTION_BATCH_MAX) })
    .min(1, { error: MSG.redemptionCountInvalid(REDEMPTION_BATCH_MAX) })
    .max(REDEMPTION_BATCH_MAX, { error: MSG.redemptionCountInvalid(REDEMPTION_BATCH_MAX) })
    .default(1),
});
export type RedemptionCreate = z.output<typeof redemptionCreateSchema>;

const redemptionId = idSchema('id must be a redemption code id');

/** PUT /api/redemption/: only an unused code (status 1) can be edited; left-out fields are kept. */
export const redemptionUpdateSchema = z.object({
  id: redemptionId,
  name: name.optional(),
  quota: quota.optional(),
});
export type RedemptionUpdate = z.output<typeof redemptionUpdateSchema>;

/** PUT /api/redemption/?status_only=true: enable (1) or disable (2); a used code cannot change. */
export const redemptionStatusSchema = z.object({
  id: redemptionId,
  status: z.union([z.literal(1), z.literal(2)], { error: 'status must be 1 (unused) or 2 (disabled)' }),
});

/** POST /api/user/topup → data: the quota gained. */
export const redeemSchema = z.object({
  key: z.string({ error: MSG.enterRedemptionCode }).trim().min(1, { error: MSG.enterRedemptionCode }),
});

/**
 * GET /api/redemption/: `p` is 0-based (spec part 2 §7) and never refused; newest first. A plain
 * array of `size` rows, or with `page_size` (new-api's name) the page object.
 */
export const redemptionListQuery = z.object({
  p: listPageNumber,
  size: listPageSize,
  page_size: listPagedSize,
});
export const redemptionSearchQuery = redemptionListQuery.extend({
  /** An id, or part of the name. */
  keyword: optionalQueryText(),
});

export interface RedemptionView {
  id: number;
  /** The admin who created it. */
  user_id: number;
  key: string;
  /** 1 unused, 2 disabled, 3 used. */
  status: number;
  name: string;
  quota: number;
  created_time: number;
  redeemed_time: number;
  /** 0 = not redeemed. */
  used_user_id: number;
}
