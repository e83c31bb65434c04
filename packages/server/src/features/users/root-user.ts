// First start: an empty users table gets the root account (super admin, $200) with the password of
// INITIAL_ROOT_PASSWORD, or the spec's 123456 — which the console then makes root change before it
// lets root do anything else (`password_change_required`, enforced by the auth guard).
import { ROLE, USER_STATUS } from '@sluice/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { hashPassword } from '../auth/password.js';
import { randomString } from '../../platform/random.js';

export const ROOT_USERNAME = 'root';
export const ROOT_DEFAULT_PASSWORD = '123456';
export const ROOT_INITIAL_QUOTA = 100_000_000;

export async function ensureRootUser(ctx: AppContext, log: FastifyBaseLogger): Promise<void> {
  const any = await ctx.db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (any) return;
  const chosen = ctx.config.initialRootPassword;
  await ctx.db
    .insertInto('users')
    .values({
      username: ROOT_USERNAME,
      password: await hashPassword(chosen ?? ROOT_DEFAULT_PASSWORD, ctx.config.bcryptCost),
      password_change_required: chosen === undefined ? 1 : 0,
      display_name: 'Root User',
      role: ROLE.root,
      status: USER_STATUS.enabled,
      quota: ROOT_INITIAL_QUOTA,
      group: 'default',
      aff_code: randomString(8),
      created_at: ctx.clock.now(),
      email: '',
      github_id: '',
      wechat_id: '',
      telegram_id: '',
      linux_do_id: '',
      access_token: null,
    })
    .execute()
    .catch(async (error: unknown) => {
      // Another node created it at the same moment.
      const exists = await ctx.db
        .selectFrom('users')
        .select('id')
        .where('username', '=', ROOT_USERNAME)
        .executeTakeFirst();
      if (!exists) throw error;
    });
  if (chosen === undefined) {
    log.warn('created the root account with the default password 123456; log in and change it at once');
  } else {
    log.info('created the root account with the password of INITIAL_ROOT_PASSWORD');
  }
}
