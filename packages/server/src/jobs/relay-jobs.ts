// Background work of the relay: writing the hourly usage statistics (every node, its own numbers),
// probing auto-disabled channels so they come back when they recover, and polling unfinished
// Midjourney and Suno tasks (one node at a time).
import { CHANNEL_STATUS } from '@sluice/shared';
import { testChannel } from '../features/channels/channel-testing.js';
import type { RelayRuntime } from '../relay/pipeline/relay-runtime.js';
import { scheduleTaskPolling } from '../relay/tasks/task-poller.js';

export const CHANNEL_REENABLE_JOB = 'channel-reenable';
const REENABLE_INTERVAL_MS = 5 * 60 * 1000;

/**
 * Half-open step of the circuit breaker: each auto-disabled channel gets one real call; a channel that
 * answers within ChannelDisableThreshold is enabled again. Returns the ids brought back.
 */
export async function reenableRecoveredChannels(rt: RelayRuntime): Promise<number[]> {
  const { ctx } = rt;
  if (!ctx.options.get('AutomaticEnableChannelEnabled')) return [];
  const channels = await ctx.db
    .selectFrom('channels')
    .selectAll()
    .where('status', '=', CHANNEL_STATUS.autoDisabled)
    .orderBy('id')
    .execute();
  const back: number[] = [];
  for (const channel of channels) {
    const result = await testChannel(ctx, channel, { checkThreshold: true });
    const now = await ctx.db
      .selectFrom('channels')
      .select('status')
      .where('id', '=', channel.id)
      .executeTakeFirst();
    if (result.ok && now?.status === CHANNEL_STATUS.enabled) back.push(Number(channel.id));
  }
  return back;
}

export function scheduleRelayJobs(rt: RelayRuntime): void {
  const { ctx } = rt;
  ctx.scheduler.every(CHANNEL_REENABLE_JOB, REENABLE_INTERVAL_MS, async () => {
    await reenableRecoveredChannels(rt);
  });
  scheduleTaskPolling(rt);
  // Statistics are summed per node in memory, so every node flushes its own (no lease).
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    timer = setTimeout(
      () => {
        rt.quotaData
          .flush()
          .catch((error: unknown) => rt.logger.error({ err: error }, 'could not write usage statistics'))
          .finally(() => {
            if (timer) arm();
          });
      },
      ctx.options.get('DataExportInterval') * 60_000,
    );
    timer.unref();
  };
  arm();
  rt.onClose(() => {
    clearTimeout(timer);
    timer = undefined;
  });
}
