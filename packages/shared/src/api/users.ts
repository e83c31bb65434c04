// Payloads of the sign-in and /api/user/* calls. The server parses requests with these and the
// console validates its forms with the same rules, so a limit or a message changes in one place.
import { z } from 'zod';
import { MSG } from '../messages.js';
import { ROLE } from '../constants/roles.js';

/** new-api's limits, kept so accounts move between the two without surprises. */
export const USERNAME_MAX_LENGTH = 20;
export const DISPLAY_NAME_MAX_LENGTH = 20;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 20;
export const GROUP_MAX_LENGTH = 64;
export const USER_PAGE_SIZE_DEFAULT = 10;
export const USER_PAGE_SIZE_MAX = 100;

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
  .min(0, { error: MSG.quotaInvalid });

export const userIdSchema = z.coerce
  .number({ error: MSG.userIdInvalid })
  .int({ error: MSG.userIdInvalid })
  .positive({ error: MSG.userIdInvalid });

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

const optionalText = z.string().trim().optional();

export const registerSchema = z
  .object({
    username: usernameSchema,
    password: passwordSchema,
    /** The confirmation; when sent it must equal password. */
    password2: z.string().optional(),
    email: optionalText,
    verification_code: optionalText,
    aff_code: optionalText,
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

export const USER_ACTIONS = ['promote', 'demote', 'enable', 'disable', 'delete'] as const;
export type UserAction = (typeof USER_ACTIONS)[number];

export const userManageSchema = z.object({
  id: userIdSchema,
  action: z.enum(USER_ACTIONS, { error: MSG.unknownUserAction }),
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

/** A page number or size that does not parse falls back to the default; sizes are capped. */
const pageNumber = z.coerce.number().int().min(0).catch(0);
const pageSize = z.coerce
  .number()
  .int()
  .min(1)
  .catch(USER_PAGE_SIZE_DEFAULT)
  .transform((n) => Math.min(n, USER_PAGE_SIZE_MAX));

/** GET /api/user/ — p is 0-based. */
export const userListQuerySchema = z.object({
  p: pageNumber.default(0),
  page_size: pageSize.default(USER_PAGE_SIZE_DEFAULT),
});

/** GET /api/user/search — keyword matches the id exactly (when numeric) or username, display name, email. */
export const userSearchQuerySchema = userListQuerySchema.extend({
  keyword: z.string().trim().catch('').default(''),
  group: z.string().trim().catch('').default(''),
});

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
}

/** data of POST /api/user/manage. */
export interface ManageResult {
  status: number;
  role: number;
}

/** data of GET /api/user/self/groups: group name → its ratio and description. */
export type UserGroups = Record<string, { ratio: number; desc: string }>;
