// The one owner of automatic channel status changes: a channel is taken out of rotation (status 3,
// with the reason and time in other_info) when the circuit breaker trips or a channel test fails, and
// put back when a test of an auto-disabled channel passes — as the AutomaticDisableChannelEnabled /
// AutomaticEnableChannelEnabled options and the channel's auto_ban allow. Root is mailed on a disable.
import { CHANNEL_STATUS, ROLE } from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import { syncAbilities } from '../../db/abilities.js';
import type { ChannelRow } from '../../db/tables.js';
import type { RelayRuntime } from './relay-runtime.js';
import type { RelayChannel } from './channel-index.js';
import { escapeHtml } from '../../platform/html.js';

const parseObject = (text: string): Record<string, unknown> => {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
};

/** other_info with the reason and time of an automatic disable. */
const disabledInfo = (ctx: AppContext, otherInfo: string, reason: string): string =>
  JSON.stringify({ ...parseObject(otherInfo), status_reason: reason, status_time: ctx.clock.now() });

/**
 * What a channel test's result changes, under the options: `failure` (why the test failed, or
 * undefined when it passed) disables an enabled channel, a pass enables an auto-disabled one. The
 * caller writes the change with the test's timings and mails root (`notifyChannelDisabled`).
 */
export function testStatusChange(
  ctx: AppContext,
  channel: ChannelRow,
  failure: string | undefined,
): { status?: number; other_info?: string } {
  if (
    failure !== undefined &&
    channel.status === CHANNEL_STATUS.enabled &&
    channel.auto_ban === 1 &&
    ctx.options.get('AutomaticDisableChannelEnabled')
  ) {
    return {
      status: CHANNEL_STATUS.autoDisabled,
      other_info: disabledInfo(ctx, channel.other_info, failure),
    };
  }
  if (
    failure === undefined &&
    channel.status === CHANNEL_STATUS.autoDisabled &&
    ctx.options.get('AutomaticEnableChannelEnabled')
  ) {
    return { status: CHANNEL_STATUS.enabled };
  }
  return {};
}

const disabling = new WeakMap<RelayRuntime, Set<number>>();

/** Disables the channel unless options or the channel forbid it. Returns whether it did. */
export async function autoDisableChannel(
  rt: RelayRuntime,
  channel: RelayChannel,
  reason: string,
): Promise<boolean> {
  const { ctx } = rt;
  if (!ctx.options.get('AutomaticDisableChannelEnabled') || !channel.autoBan) return false;
  let busy = disabling.get(rt);
  if (!busy) disabling.set(rt, (busy = new Set()));
  if (busy.has(channel.id)) return false;
  busy.add(channel.id);
  try {
    const done = await ctx.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('channels')
        .selectAll()
        .where('id', '=', channel.id)
        .executeTakeFirst();
      if (!row || row.status !== CHANNEL_STATUS.enabled) return false;
      const otherInfo = disabledInfo(ctx, row.other_info, reason);
      const updated = await trx
        .updateTable('channels')
        .set({ status: CHANNEL_STATUS.autoDisabled, other_info: otherInfo })
        .where('id', '=', channel.id)
        .where('status', '=', CHANNEL_STATUS.enabled)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return false;
      await syncAbilities(trx, { ...row, status: CHANNEL_STATUS.autoDisabled });
      return true;
    });
    if (done) {
      rt.breaker.forget(channel.id);
      ctx.metrics.channelDisabled(channel.id, 'breaker');
      rt.logger.warn({ channelId: channel.id, reason }, 'channel disabled automatically');
      ctx.bus.publish('channels');
      // Not awaited: the call that tripped the breaker does not wait for SMTP.
      void notifyChannelDisabled(ctx, channel, reason).catch((error: unknown) =>
        rt.logger.error(
          { err: error, channelId: channel.id },
          'could not tell root about a disabled channel',
        ),
      );
    }
    return done;
  } finally {
    busy.delete(channel.id);
  }
}

/** Mails root that a channel was taken out of rotation, when SMTP and root's address are set. */
export async function notifyChannelDisabled(
  ctx: AppContext,
  channel: { id: number; name: string },
  reason: string,
): Promise<void> {
  if (!ctx.mailer.configured()) return;
  const root = await ctx.db
    .selectFrom('users')
    .select('email')
    .where('role', '>=', ROLE.root)
    .where('email', '<>', '')
    .orderBy('id')
    .executeTakeFirst();
  if (!root) return;
  await ctx.mailer.send({
    to: root.email,
    subject: `Channel "${channel.name}" (#${channel.id}) was disabled`,
    html:
      `<p>Channel <strong>${escapeHtml(channel.name)}</strong> (#${channel.id}) was disabled automatically.</p>` +
      `<p>Reason: ${escapeHtml(reason)}</p>`,
  });
}
