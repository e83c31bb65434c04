// Upstream balance queries for the channel types whose vendors expose one, stored on the channel
// (balance, balance_updated_time) for the list's "remaining" column.
import { Decimal } from 'decimal.js';
import { z } from 'zod';
import { CHANNEL_STATUS, MSG, channelBaseUrl } from '@sluice/shared';
import type { ChannelBalanceSummary } from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import type { ChannelRow } from '../../db/tables.js';
import { ApiError, badRequest } from '../../http/envelope.js';
import { redactUpstreamMessage } from '../../relay/pipeline/upstream-errors.js';
import { patchChannel } from './channels.repository.js';
import { writeChannels } from './channels.service.js';
import { forEachLimited } from './for-each-limited.js';
import { UpstreamError, bearer, getUpstreamJson } from './upstream-http.js';

type BalanceQuery = (baseUrl: string, key: string, now: number) => Promise<number>;

const DAY = 86_400;
const isoDay = (unixSeconds: number): string => new Date(unixSeconds * 1000).toISOString().slice(0, 10);

const parse = <T>(schema: z.ZodType<T>, body: unknown): T => {
  const result = schema.safeParse(body);
  if (!result.success) throw new UpstreamError('upstream answered in an unexpected format');
  return result.data;
};

/** OpenAI billing: credit limit (dollars) minus usage over the last 100 days (cents). */
const openAiBilling: BalanceQuery = async (baseUrl, key, now) => {
  const subscription = parse(
    z.object({ hard_limit_usd: z.number() }),
    await getUpstreamJson(`${baseUrl}/v1/dashboard/billing/subscription`, bearer(key)),
  );
  const query = `start_date=${isoDay(now - 100 * DAY)}&end_date=${isoDay(now + DAY)}`;
  const usage = parse(
    z.object({ total_usage: z.number() }),
    await getUpstreamJson(`${baseUrl}/v1/dashboard/billing/usage?${query}`, bearer(key)),
  );
  return new Decimal(subscription.hard_limit_usd).minus(new Decimal(usage.total_usage).div(100)).toNumber();
};

const numeric = z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/)]).transform(Number);

const siliconCloud: BalanceQuery = async (baseUrl, key) =>
  parse(
    z.object({ data: z.object({ totalBalance: numeric }) }),
    await getUpstreamJson(`${baseUrl}/v1/user/info`, bearer(key)),
  ).data.totalBalance;

const moonshot: BalanceQuery = async (baseUrl, key) =>
  parse(
    z.object({ data: z.object({ available_balance: numeric }) }),
    await getUpstreamJson(`${baseUrl}/v1/users/me/balance`, bearer(key)),
  ).data.available_balance;

/** Channel type → how its balance is asked for. Types not listed have no balance API. */
const BALANCE_QUERIES: ReadonlyMap<number, BalanceQuery> = new Map([
  [1, openAiBilling],
  [8, openAiBilling],
  [25, moonshot],
  [40, siliconCloud],
]);

export const supportsBalance = (type: number): boolean => BALANCE_QUERIES.has(type);

/** Asks the upstream for the balance and stores it; throws 400 (unsupported) or 502 (upstream). */
export async function updateChannelBalance(ctx: AppContext, channel: ChannelRow): Promise<number> {
  const query = BALANCE_QUERIES.get(channel.type);
  if (!query) throw badRequest(MSG.balanceNotSupported);
  const baseUrl = channelBaseUrl(channel.type, channel.base_url);
  if (baseUrl === '') throw badRequest(MSG.channelNoBaseUrl);
  let balance: number;
  try {
    balance = await query(baseUrl, channel.key, ctx.clock.now());
  } catch (error) {
    // Admins read this: an upstream that echoes the key or names its hosts must not show them.
    if (error instanceof UpstreamError) {
      const reason = redactUpstreamMessage(error.message, channel.key);
      throw new ApiError(502, `${MSG.balanceUpdateFailed}: ${reason}`);
    }
    throw error;
  }
  await writeChannels(ctx, (trx) =>
    patchChannel(trx, channel.id, { balance, balance_updated_time: ctx.clock.now() }),
  );
  return balance;
}

/** Updates every enabled channel whose type has a balance API, a few at a time. */
export async function updateAllBalances(ctx: AppContext): Promise<ChannelBalanceSummary> {
  const channels = (
    await ctx.db.selectFrom('channels').selectAll().where('status', '=', CHANNEL_STATUS.enabled).execute()
  ).filter((c) => supportsBalance(c.type));
  const summary: ChannelBalanceSummary = { updated: 0, failed: 0 };
  await forEachLimited(channels, 4, async (channel) => {
    try {
      await updateChannelBalance(ctx, channel);
      summary.updated++;
    } catch {
      summary.failed++;
    }
  });
  return summary;
}
