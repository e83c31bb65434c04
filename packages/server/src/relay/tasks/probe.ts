// "Test channel" for task channels: a free call that needs the channel's key (never a paid submit),
// answered as a chat channel's test is.
import type { ChannelRow } from '../../db/tables.js';
import type { ProbeResult } from '../channel-probe.js';
import { toRelayChannel } from '../pipeline/channel-index.js';
import type { RelayRuntime } from '../pipeline/relay-runtime.js';
import { probeMidjourneyChannel } from './midjourney/upstream.js';
import { taskPlatformOf } from './platforms.js';
import { probeSunoChannel } from './suno/upstream.js';

/** The probe of a task channel, or undefined when the type runs no tasks. */
export function probeTaskChannel(rt: RelayRuntime, row: ChannelRow): Promise<ProbeResult> | undefined {
  const platform = taskPlatformOf(row.type);
  if (platform === undefined) return undefined;
  const channel = toRelayChannel(row);
  return platform === 'midjourney' ? probeMidjourneyChannel(rt, channel) : probeSunoChannel(rt, channel);
}
