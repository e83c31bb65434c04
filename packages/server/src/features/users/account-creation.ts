// Creating an account, shared by password registration, third-party sign-up and admin creation:
// new-user quota, the invite bonus for invitee and inviter, unique usernames even under races. Every
// grant lands with its log row (type 4, signed amount in `other`) in the account's transaction.
import { LOG_TYPE, MSG, ROLE, USER_STATUS } from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import { isUniqueViolation } from '../../db/errors.js';
import { insertId } from '../../db/insert-id.js';
import type { UserRow } from '../../db/tables.js';
import { conflict } from '../../http/envelope.js';
import { randomString } from '../../platform/random.js';
import { hashPassword } from '../auth/password.js';
import { recordLog } from '../logs/logs.repository.js';
import { initialQuotaLogText, inviteBonusLogText, inviteRewardLogText } from '../logs/log-text.js';
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
          .select(['id', 'username'])
          .where('aff_code', '=', input.affCode)
          .where('deleted_at', 'is', null)
          .executeTakeFirst()
      : undefined;
  const signupQuota = grant ? ctx.options.get('QuotaForNewUser') : 0;
  const inviteeBonus = inviter ? ctx.options.get('QuotaForInvitee') : 0;
  const inviterBonus = inviter ? ctx.options.get('QuotaForInviter') : 0;
  const password = await hashPassword(input.password ?? randomString(32), ctx.config.bcryptCost);
  const now = ctx.clock.now();

  let id: number;
  try {
    id = await ctx.db.transaction().execute(async (trx) => {
      const created = await insertId(
        trx.insertInto('users').values({
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
          quota: signupQuota + inviteeBonus,
          group: 'default',
          aff_code: randomString(8),
          inviter_id: inviter ? Number(inviter.id) : 0,
          created_at: now,
        }),
        ctx.dialect,
      );
      const row = { userId: created, username: input.username, type: LOG_TYPE.system, createdAt: now };
      if (signupQuota !== 0)
        await recordLog(trx, { ...row, ...initialQuotaLogText(ctx.options, signupQuota) });
      if (inviter && inviteeBonus !== 0) {
        const text = inviteBonusLogText(ctx.options, { quota: inviteeBonus, inviterId: Number(inviter.id) });
        await recordLog(trx, { ...row, ...text });
      }
      if (inviter) {
        await trx
          .updateTable('users')
          .set((eb) => ({
            aff_count: eb('aff_count', '+', 1),
            aff_quota: eb('aff_quota', '+', inviterBonus),
            aff_history_quota: eb('aff_history_quota', '+', inviterBonus),
          }))
          .where('id', '=', Number(inviter.id))
          .execute();
        if (inviterBonus !== 0) {
          await recordLog(trx, {
            userId: Number(inviter.id),
            username: inviter.username,
            type: LOG_TYPE.system,
            createdAt: now,
            ...inviteRewardLogText(ctx.options, { quota: inviterBonus, inviteeId: created }),
          });
        }
      }
      return created;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(MSG.usernameTaken);
    throw error;
  }
  const row = await findUserById(ctx.db, id);
  if (!row) throw new Error(`user ${id} vanished right after creation`);
  return row;
}
