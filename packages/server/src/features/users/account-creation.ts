// Creating an account, shared by password registration, third-party sign-up and admin creation:
// new-user quota, the invite bonus for invitee and inviter, unique usernames even under races.
import { MSG, ROLE, USER_STATUS } from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import { isUniqueViolation } from '../../db/errors.js';
import { insertId } from '../../db/insert-id.js';
import type { UserRow } from '../../db/tables.js';
import { conflict } from '../../http/envelope.js';
import { randomString } from '../../platform/random.js';
import { hashPassword } from '../auth/password.js';
import { findUserById } from './users.repository.js';

export interface NewAccount {
  username: string;
  /** Plain text; when absent (third-party sign-up) the account gets an unusable random password. */
  password?: string;
  display_name?: string;
  email?: string;
  github_id?: string;
  wechat_id?: string;
  telegram_id?: string;
  linux_do_id?: string;
  /** The inviter's aff_code, from the invite link. Unknown codes are ignored. */
  affCode?: string;
  role?: number;
  /** Admin-created accounts get no sign-up bonus. */
  grantSignupQuota?: boolean;
}

export async function createAccount(ctx: AppContext, input: NewAccount): Promise<UserRow> {
  const grant = input.grantSignupQuota ?? true;
  const inviter =
    grant && input.affCode
      ? await ctx.db
          .selectFrom('users')
          .select('id')
          .where('aff_code', '=', input.affCode)
          .where('deleted_at', 'is', null)
          .executeTakeFirst()
      : undefined;
  const quota = grant
    ? ctx.options.get('QuotaForNewUser') + (inviter ? ctx.options.get('QuotaForInvitee') : 0)
    : 0;
  const password = await hashPassword(input.password ?? randomString(32), ctx.config.bcryptCost);

  let id: number;
  try {
    id = await insertId(
      ctx.db.insertInto('users').values({
        username: input.username,
        password,
        display_name: input.display_name || input.username,
        role: input.role ?? ROLE.user,
        status: USER_STATUS.enabled,
        email: input.email ?? '',
        github_id: input.github_id ?? '',
        wechat_id: input.wechat_id ?? '',
        telegram_id: input.telegram_id ?? '',
        linux_do_id: input.linux_do_id ?? '',
        access_token: null,
        quota,
        group: 'default',
        aff_code: randomString(8),
        inviter_id: inviter ? Number(inviter.id) : 0,
        created_at: ctx.clock.now(),
      }),
      ctx.dialect,
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(MSG.usernameTaken);
    throw error;
  }

  if (inviter) {
    const bonus = ctx.options.get('QuotaForInviter');
    await ctx.db
      .updateTable('users')
      .set((eb) => ({
        aff_count: eb('aff_count', '+', 1),
        aff_quota: eb('aff_quota', '+', bonus),
        aff_history_quota: eb('aff_history_quota', '+', bonus),
      }))
      .where('id', '=', Number(inviter.id))
      .execute();
  }
  const row = await findUserById(ctx.db, id);
  if (!row) throw new Error(`user ${id} vanished right after creation`);
  return row;
}
