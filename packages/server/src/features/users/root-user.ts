// First start: an empty users table gets the root account (super admin, $200) with the password of
// INITIAL_ROOT_PASSWORD, or the spec's 123456 — which the console then makes root change before it
// lets root do anything else (`password_change_required`, enforced by the auth guard). The initial
// quota is logged with the account (type 4, `initial_quota`), so reconciliation can account for it.
import { LOG_TYPE, ROLE, USER_STATUS } from '@sluice/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { hashPassword } from '../auth/password.js';
import { randomString } from '../../platform/random.js';
import { insertId } from '../../db/insert-id.js';
import { recordLog } from '../logs/logs.repository.js';
import { initialQuotaLogText } from '../logs/log-text.js';

export const ROOT_USERNAME = 'root';
export const ROOT_DEFAULT_PASSWORD = '123456';
export const ROOT_INITIAL_QUOTA = 100_000_000;

export async function ensureRootUser(ctx: AppContext, log: FastifyBaseLogger): Promise<void> {
  const any = await ctx.db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (any) return;
  const chosen = ctx.config.initialRootPassword;
  const now = ctx.clock.now();
  const password = await hashPassword(chosen ?? ROOT_DEFAULT_PASSWORD, ctx.config.bcryptCost);
  await ctx.db
    .transaction()
    .execute(async (trx) => {
      const id = await insertId(
        trx.insertInto('users').values({
          username: ROOT_USERNAME,
          password,
          password_change_required: chosen === undefined ? 1 : 0,
          display_name: 'Root User',
          role: ROLE.root,
          status: USER_STATUS.enabled,
          quota: ROOT_INITIAL_QUOTA,
          group: 'default',
          aff_code: randomString(8),
          created_at: now,
          email: '',
          github_id: '',
          wechat_id: '',
          telegram_id: '',
          linux_do_id: '',
          access_token: null,
        }),
        ctx.dialect,
      );
      await recordLog(trx, {
        userId: id,
        username: ROOT_USERNAME,
        type: LOG_TYPE.system,
        createdAt: now,
        ...initialQuotaLogText(ctx.options, ROOT_INITIAL_QUOTA),
      });
    })
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
