// The legacy OpenAI billing endpoints that chat front-ends (ChatGPT-Next-Web and the like) poll for
// the balance behind a key: GET /dashboard/billing/subscription and /dashboard/billing/usage, also
// under /v1, answered as new-api answers them. With DisplayTokenStatEnabled (the default) they speak
// of the token — its remaining plus used quota as the limit (100,000,000 for an unlimited token), its
// expiry as access_until, its used quota as the usage; without it, of the token's user. Amounts are
// US dollars (quota / QuotaPerUnit) when DisplayInCurrencyEnabled, raw quota otherwise; usage is in
// hundredths of them. Balances are the database's: a call's charge lands there within one ledger
// flush. The key is checked as every relay call's is; refusals are OpenAI errors.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app-context.js';
import { authenticateRelay } from '../../auth/relay-auth.js';
import type { RelayCaller } from '../../auth/relay-auth.js';
import type { RelayRuntime } from '../../pipeline/relay-runtime.js';

/** What new-api reports as the limit of an unlimited token. */
const UNLIMITED_AMOUNT = 100_000_000;

/** Quota in the unit the site shows: dollars, or quota itself. `scale` multiplies before dividing. */
function amountOf(options: AppContext['options'], quota: number, scale = 1): number {
  return options.get('DisplayInCurrencyEnabled')
    ? (quota * scale) / options.get('QuotaPerUnit')
    : quota * scale;
}

/** The balances the answers speak of: the token's or its user's, as DisplayTokenStatEnabled says. */
interface Balance {
  remain: number;
  used: number;
  unlimited: boolean;
  /** Unix seconds; 0 when it never expires. */
  accessUntil: number;
}

async function balanceOf(rt: RelayRuntime, caller: RelayCaller): Promise<Balance> {
  const db = rt.ctx.db;
  const token = caller.token;
  if (token && rt.ctx.options.get('DisplayTokenStatEnabled')) {
    const row = await db
      .selectFrom('tokens')
      .select(['remain_quota', 'used_quota', 'unlimited_quota', 'expired_time'])
      .where('id', '=', token.id)
      .executeTakeFirstOrThrow();
    return {
      remain: Number(row.remain_quota),
      used: Number(row.used_quota),
      unlimited: Number(row.unlimited_quota) === 1,
      accessUntil: Math.max(0, Number(row.expired_time)),
    };
  }
  const row = await db
    .selectFrom('users')
    .select(['quota', 'used_quota'])
    .where('id', '=', caller.userId)
    .executeTakeFirstOrThrow();
  return { remain: Number(row.quota), used: Number(row.used_quota), unlimited: false, accessUntil: 0 };
}

export function registerLegacyBillingRoutes(scope: FastifyInstance, rt: RelayRuntime): void {
  const { options } = rt.ctx;
  for (const prefix of ['', '/v1']) {
    scope.get(`${prefix}/dashboard/billing/subscription`, async (req) => {
      const balance = await balanceOf(rt, await authenticateRelay(rt, req));
      const limit = balance.unlimited ? UNLIMITED_AMOUNT : amountOf(options, balance.remain + balance.used);
      return {
        object: 'billing_subscription',
        has_payment_method: true,
        soft_limit_usd: limit,
        hard_limit_usd: limit,
        system_hard_limit_usd: limit,
        access_until: balance.accessUntil,
      };
    });
    scope.get(`${prefix}/dashboard/billing/usage`, async (req) => {
      const balance = await balanceOf(rt, await authenticateRelay(rt, req));
      return { object: 'list', total_usage: amountOf(options, balance.used, 100) };
    });
  }
  // Browsers ask first when a page calls these with its key in a header.
  scope.options('/dashboard/billing/*', (_req, reply) =>
    reply
      .code(204)
      .headers({
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET, OPTIONS',
        'access-control-allow-headers': 'authorization, content-type',
        'access-control-max-age': '86400',
      })
      .send(),
  );
}
