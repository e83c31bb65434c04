// Payloads of the sign-in and /api/user/* calls. The server parses requests with these and the
// console validates its forms with the same rules, so a limit or a message changes in one place.
import { z } from 'zod';
import { isHttpUrl } from '../http-url.js';
import { MSG } from '../messages.js';
import { ROLE } from '../constants/roles.js';
import { idSchema } from './ids.js';
import { EMAIL_MAX_LENGTH, emailTooLong } from './verification.js';
import { listPageNumber, listPagedSize } from './list-page.js';

/** new-api's limits, kept so accounts move between the two without surprises. */
export const USERNAME_MAX_LENGTH = 20;
export const DISPLAY_NAME_MAX_LENGTH = 20;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 20;
export const GROUP_MAX_LENGTH = 64;
export const USER_PAGE_SIZE_DEFAULT = 10;

export const usernameSchema = z
  .string({ error: MSG.enterUsernamePassword })
  .trim()
  .min(1, { error: MSG.enterUsernamePassword })
  .max(USERNAME_MAX_LENGTH, { error: MSG.usernameTooLong });

export const passwordSchema = z
  .string({ error: MSG.enterUsernamePassword })
  .min(1, { error: MSG.enterUsernamePassword })
  .min(PASSWORD_MIN_LENGTH, { error: MSG.passwordTooShort })
  .max(PASSWORD_MAX_LENGTH, { error: MSG.passwordTooLong });

/** On edit forms an empty password means "keep the current one". */
export const optionalPasswordSchema = z
  .string({ error: MSG.passwordTooShort })
  .refine((p) => p === '' || p.length >= PASSWORD_MIN_LENGTH, { error: MSG.passwordTooShort })
  .refine((p) => p.length <= PASSWORD_MAX_LENGTH, { error: MSG.passwordTooLong });

export const displayNameSchema = z
  .string({ error: MSG.displayNameTooLong })
  .trim()
  .max(DISPLAY_NAME_MAX_LENGTH, { error: MSG.displayNameTooLong });

export const groupSchema = z
  .string({ error: MSG.groupInvalid })
  .trim()
  .min(1, { error: MSG.groupInvalid })
  .max(GROUP_MAX_LENGTH, { error: MSG.groupInvalid });

export const quotaSchema = z
  .number({ error: MSG.quotaInvalid })
  .int({ error: MSG.quotaInvalid })
  .min(0, { error: MSG.quotaInvalid })
  .max(Number.MAX_SAFE_INTEGER, { error: MSG.quotaInvalid });

export const userIdSchema = idSchema(MSG.userIdInvalid);

export const roleSchema = z
  .number({ error: MSG.unknownRole })
  .refine((r) => r === ROLE.user || r === ROLE.admin || r === ROLE.root, { error: MSG.unknownRole });

export const loginSchema = z.object({
  username: z
    .string({ error: MSG.enterUsernamePassword })
    .trim()
    .min(1, { error: MSG.enterUsernamePassword }),
  password: z.string({ error: MSG.enterUsernamePassword }).min(1, { error: MSG.enterUsernamePassword }),
});
export type LoginInput = z.infer<typeof loginSchema>;

/** Invitation codes are stored in 32 characters and verification codes are shorter still. */
const CODE_MAX_LENGTH = 32;

export const registerSchema = z
  .object({
    username: usernameSchema,
    password: passwordSchema,
    /** The confirmation; when sent it must equal password. */
    password2: z.string().optional(),
    email: z.string().trim().max(EMAIL_MAX_LENGTH, { error: emailTooLong }).optional(),
    verification_code: z
      .string()
      .trim()
      .max(CODE_MAX_LENGTH, { error: `the verification code must be at most ${CODE_MAX_LENGTH} characters` })
      .optional(),
    aff_code: z
      .string()
      .trim()
      .max(CODE_MAX_LENGTH, { error: `the invitation code must be at most ${CODE_MAX_LENGTH} characters` })
      .optional(),
  })
  .refine((r) => r.password2 === undefined || r.password2 === r.password, {
    error: MSG.passwordsDiffer,
    path: ['password2'],
  });
export type RegisterInput = z.infer<typeof registerSchema>;

/** POST /api/user/ (admin). */
export const userCreateSchema = z.object({
  username: usernameSchema,
  password: passwordSchema,
  display_name: displayNameSchema.optional(),
  role: roleSchema.optional(),
});
export type UserCreateInput = z.infer<typeof userCreateSchema>;

/** PUT /api/user/ (admin). Absent fields, an empty password and an empty display name keep the current value. */
export const userUpdateSchema = z.object({
  id: userIdSchema,
  username: usernameSchema.optional(),
  password: optionalPasswordSchema.optional(),
  display_name: displayNameSchema.optional(),
  group: groupSchema.optional(),
  quota: quotaSchema.optional(),
});
export type UserUpdateInput = z.infer<typeof userUpdateSchema>;

/** PUT /api/user/self. Group, quota and role are not here on purpose: unknown keys are dropped. */
export const selfUpdateSchema = z.object({
  username: usernameSchema.optional(),
  display_name: displayNameSchema.optional(),
  password: optionalPasswordSchema.optional(),
});
export type SelfUpdateInput = z.infer<typeof selfUpdateSchema>;

export const USER_ACTIONS = ['promote', 'demote', 'enable', 'disable', 'delete', 'add_quota'] as const;
export type UserAction = (typeof USER_ACTIONS)[number];

/** The signed amount of an add_quota action: a whole number of quota, negative to subtract. */
export const quotaDeltaSchema = z
  .number({ error: MSG.quotaDeltaInvalid })
  .int({ error: MSG.quotaDeltaInvalid })
  .min(-Number.MAX_SAFE_INTEGER, { error: MSG.quotaDeltaInvalid })
  .max(Number.MAX_SAFE_INTEGER, { error: MSG.quotaDeltaInvalid });

export const userManageSchema = z
  .object({
    id: userIdSchema,
    action: z.enum(USER_ACTIONS, { error: MSG.unknownUserAction }),
    value: quotaDeltaSchema.optional(),
  })
  .refine((input) => input.action !== 'add_quota' || input.value !== undefined, {
    error: MSG.quotaDeltaInvalid,
    path: ['value'],
  });
export type UserManageInput = z.infer<typeof userManageSchema>;

/** The minimum is the QuotaPerUnit option, so the schema is built from it. */
export const makeAffTransferSchema = (quotaPerUnit: number) =>
  z.object({
    quota: z
      .number({ error: MSG.transferMinimum(quotaPerUnit) })
      .int({ error: MSG.transferMinimum(quotaPerUnit) })
      .min(quotaPerUnit, { error: MSG.transferMinimum(quotaPerUnit) }),
  });
export type AffTransferInput = z.infer<ReturnType<typeof makeAffTransferSchema>>;

/**
 * GET /api/user/ — `p` is 0-based and never refused (see list-page.ts). With `page_size` the answer
 * is new-api's page object; without it, a plain array of USER_PAGE_SIZE_DEFAULT rows.
 */
export const userListQuerySchema = z.object({
  p: listPageNumber,
  page_size: listPagedSize,
});

/** GET /api/user/search — keyword matches the id exactly (when numeric) or username, display name, email. */
export const userSearchQuerySchema = userListQuerySchema.extend({
  keyword: z.string().trim().catch('').default(''),
  group: z.string().trim().catch('').default(''),
});

// ---------------------------------------------------------------------------------------------
// Quota warning settings: PUT /api/user/setting, read back as the `setting` JSON text of
// GET /api/user/self (new-api's names). When the balance falls below the threshold after a charge,
// one warning goes out by email or webhook, and no other until the balance is back above it.

export const USER_NOTIFY_TYPES = ['email', 'webhook'] as const;
export type UserNotifyType = (typeof USER_NOTIFY_TYPES)[number];
export const WEBHOOK_URL_MAX_LENGTH = 2048;
export const WEBHOOK_SECRET_MAX_LENGTH = 512;
export const NOTIFICATION_EMAIL_MAX_LENGTH = 255;

const emailShape = z.email();

export const userSettingSchema = z
  .object({
    notify_type: z.enum(USER_NOTIFY_TYPES, { error: MSG.notifyTypeInvalid }),
    /** In quota units; 0 never warns (a balance cannot fall below 0). */
    quota_warning_threshold: z
      .number({ error: MSG.quotaWarningThresholdInvalid })
      .min(0, { error: MSG.quotaWarningThresholdInvalid })
      .max(Number.MAX_SAFE_INTEGER, { error: MSG.quotaWarningThresholdInvalid }),
    /** Required for webhook warnings. */
    webhook_url: z
      .string({ error: MSG.webhookUrlInvalid })
      .trim()
      .max(WEBHOOK_URL_MAX_LENGTH, { error: MSG.webhookUrlInvalid })
      .default(''),
    /** Sent as `Authorization: Bearer <secret>` with every webhook call; '' = no header. */
    webhook_secret: z
      .string({ error: 'the webhook secret must be text' })
      .trim()
      .max(WEBHOOK_SECRET_MAX_LENGTH, {
        error: `the webhook secret is too long (at most ${WEBHOOK_SECRET_MAX_LENGTH} characters)`,
      })
      .default(''),
    /** '' = the account's email. */
    notification_email: z
      .string({ error: MSG.notificationEmailInvalid })
      .trim()
      .max(NOTIFICATION_EMAIL_MAX_LENGTH, { error: MSG.notificationEmailInvalid })
      .refine((v) => v === '' || emailShape.safeParse(v).success, { error: MSG.notificationEmailInvalid })
      .default(''),
    /**
     * new-api's consent to be served models that have no ratio or price; kept and sent back so a
     * console that saves it reads what it saved (Sluice prices such models by SelfUseModeEnabled).
     */
    accept_unset_model_ratio_model: z
      .boolean({ error: 'accept_unset_model_ratio_model must be true or false' })
      .optional(),
    /** false: the user's consumption and error logs keep no IP address. Absent: they do. */
    record_ip_log: z.boolean({ error: 'record_ip_log must be true or false' }).optional(),
  })
  .superRefine((s, ctx) => {
    if (s.notify_type === 'webhook' && s.webhook_url === '') {
      ctx.addIssue({ code: 'custom', message: MSG.webhookUrlRequired, path: ['webhook_url'] });
    } else if (s.webhook_url !== '' && !isHttpUrl(s.webhook_url)) {
      ctx.addIssue({ code: 'custom', message: MSG.webhookUrlInvalid, path: ['webhook_url'] });
    }
  });
export type UserSettingInput = z.input<typeof userSettingSchema>;
export type UserSetting = z.output<typeof userSettingSchema>;

/**
 * The settings stored as JSON text (the `setting` of GET /api/user/self); null when there are none,
 * or when they are not ones Sluice sends (e.g. imported from new-api with a notify type of its own).
 */
export function parseUserSetting(text: string | null): UserSetting | null {
  if (!text) return null;
  try {
    const parsed = userSettingSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Whether a user's logs record the caller's IP address: yes, unless the stored settings say
 * `record_ip_log: false` (read on its own, so settings Sluice does not otherwise use still count).
 */
export function recordsIpLog(text: string | null): boolean {
  if (!text) return true;
  try {
    const value: unknown = JSON.parse(text);
    return !(
      typeof value === 'object' &&
      value !== null &&
      'record_ip_log' in value &&
      value.record_ip_log === false
    );
  } catch {
    return true;
  }
}

/** A user as the server sends it: never the password hash or the access token. */
export interface PublicUser {
  id: number;
  username: string;
  display_name: string;
  role: number;
  status: number;
  email: string;
  github_id: string;
  wechat_id: string;
  telegram_id: string;
  linux_do_id: string;
  quota: number;
  used_quota: number;
  request_count: number;
  group: string;
  aff_code: string;
  aff_count: number;
  aff_quota: number;
  aff_history_quota: number;
  inviter_id: number;
  created_at: number;
  /** Non-null means deregistered (spec part 1 §3). */
  DeletedAt: number | null;
}

/** data of GET /api/user/self: the user plus their quota warning settings as JSON text ('' = none). */
export interface SelfUser extends PublicUser {
  setting: string;
  /** The console lets the account do nothing but choose a new password (root's first start). */
  password_change_required: boolean;
}

/** data of POST /api/user/login. */
export interface LoginResult {
  id: number;
  username: string;
  display_name: string;
  role: number;
  status: number;
  group: string;
  /** True when root signed in with the first-start password: the console asks to change it at once. */
  default_password: boolean;
  /** The account may do nothing but choose a new password (root's first start): the console insists. */
  password_change_required: boolean;
}

/** data of POST /api/user/manage. */
export interface ManageResult {
  status: number;
  role: number;
  /** add_quota only: the quota after the change, so the console shows it without another read. */
  quota?: number;
}

/** data of GET /api/user/self/groups: group name → its ratio and description. */
export type UserGroups = Record<string, { ratio: number; desc: string }>;
