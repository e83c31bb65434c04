// Channel tests from the console: one channel on demand, or every channel in the background.
// A test records response_time/test_time and applies the automatic disable/enable options; a channel
// whose type Sluice cannot test is skipped, never disabled.
import { CHANNEL_STATUS, splitCommaList } from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import type { Transaction } from 'kysely';
import type { ChannelRow, Database } from '../../db/tables.js';
import { probeChannel } from '../../relay/channel-probe.js';
import { notifyChannelDisabled, testStatusChange } from '../../relay/pipeline/channel-health.js';
import type { ProbeResult } from '../../relay/channel-probe.js';
import { forEachLimited } from './for-each-limited.js';
import { findChannel, patchChannel } from './channels.repository.js';
import { writeChannels } from './channels.service.js';

export type ChannelTestOutcome = ProbeResult;

const TEST_ALL_CONCURRENCY = 4;

/** The model a test uses: the one asked for, else the channel's test model, else its first model. */
export const testModelFor = (channel: ChannelRow, requested?: string): string | undefined =>
  requested || channel.test_model || splitCommaList(channel.models)[0] || undefined;

/** Why a test failed (an error, or an answer slower than the threshold), or undefined when it passed. */
function testFailure(
  ctx: AppContext,
  result: ChannelTestOutcome,
  checkThreshold: boolean,
): string | undefined {
  if (!result.ok) return result.message;
  const thresholdMs = ctx.options.get('ChannelDisableThreshold') * 1000;
  if (checkThreshold && thresholdMs > 0 && result.timeMs > thresholdMs) {
    return `response time ${(result.timeMs / 1000).toFixed(2)}s exceeds the threshold of ${thresholdMs / 1000}s`;
  }
  return undefined;
}

export async function testChannel(
  ctx: AppContext,
  channel: ChannelRow,
  opts: { model?: string; checkThreshold?: boolean; publish?: boolean } = {},
): Promise<ChannelTestOutcome> {
  let result: ChannelTestOutcome;
  try {
    result = await probeChannel(ctx, channel, testModelFor(channel, opts.model));
  } catch (error) {
    result = { ok: false, timeMs: 0, message: (error as Error).message };
  }
  // Nothing was sent: no time to record, and no verdict on the channel (it may serve calls fine).
  if (result.untestable) return result;
  const measured = { response_time: Math.max(0, Math.round(result.timeMs)), test_time: ctx.clock.now() };
  // The status decision reads the row again: an admin may have changed it while the probe ran.
  const failure = testFailure(ctx, result, opts.checkThreshold ?? false);
  let disabled: string | undefined;
  const write = async (trx: Transaction<Database>) => {
    const fresh = await findChannel(trx, channel.id);
    if (!fresh) return;
    const change = testStatusChange(ctx, fresh, failure);
    await trx.updateTable('channels').set(measured).where('id', '=', channel.id).execute();
    if (change.status !== undefined) {
      const updated = await trx
        .updateTable('channels')
        .set(change)
        .where('id', '=', channel.id)
        .where('status', '=', fresh.status)
        .executeTakeFirst();
      if (change.status === CHANNEL_STATUS.autoDisabled && Number(updated.numUpdatedRows) > 0) {
        disabled = failure;
      }
    }
    await patchChannel(trx, channel.id, {});
  };
  if (opts.publish === false) await ctx.db.transaction().execute(write);
  else await writeChannels(ctx, write);
  if (disabled !== undefined) {
    ctx.metrics.channelDisabled(channel.id, 'test');
    // Not awaited, as for the relay's disables: a mail that cannot be sent does not change the result.
    void notifyChannelDisabled(ctx, { id: channel.id, name: channel.name }, disabled).catch(() => undefined);
  }
  return result;
}

const running = new WeakMap<AppContext, Promise<void>>();

/** Settles when the background "test all" run (if any) has finished. */
export const channelTestsSettled = (ctx: AppContext): Promise<void> => running.get(ctx) ?? Promise.resolve();

/**
 * Starts testing every channel not disabled by hand (auto-disabled ones too, so that a recovered
 * channel can come back when automatic enabling is on). False when a run is already going.
 */
export function startTestingAll(ctx: AppContext, onError: (error: unknown) => void): boolean {
  if (running.has(ctx)) return false;
  const run = (async () => {
    const channels = await ctx.db
      .selectFrom('channels')
      .selectAll()
      .where('status', 'in', [CHANNEL_STATUS.enabled, CHANNEL_STATUS.autoDisabled])
      .orderBy('id')
      .execute();
    await forEachLimited(channels, TEST_ALL_CONCURRENCY, async (channel) => {
      await testChannel(ctx, channel, { checkThreshold: true, publish: false });
    });
  })()
    .catch(onError)
    .finally(() => {
      running.delete(ctx);
      // One reload for the whole run rather than one per channel.
      ctx.bus.publish('channels');
    });
  running.set(ctx, run);
  return true;
}
