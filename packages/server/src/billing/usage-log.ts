// The log rows of relay calls: a consumption row (type 2) for every call that reached a model, an
// error row (type 5) for calls that failed on every channel tried.
import { LOG_TYPE } from '@sluice/shared';
import type { Pricing } from '@sluice/shared';
import type { Insertable } from 'kysely';
import type { LogsTable } from '../db/tables.js';
import type { IrUsage } from '../relay/ir/usage.js';

export interface CallIdentity {
  userId: number;
  username: string;
  tokenId: number;
  tokenName: string;
  group: string;
  model: string;
  ip: string;
  isStream: boolean;
}

export interface CallTiming {
  startedMs: number;
  endedMs: number;
  /** Milliseconds to the first event of a stream, or to the whole answer otherwise. */
  firstResponseMs: number;
}

const fmt = (n: number): string => String(n);

export function priceSummary(pricing: Pricing): string {
  if (pricing.billing === 'call') {
    return `model price $${fmt(pricing.modelPrice)}, group ratio ${fmt(pricing.groupRatio)}`;
  }
  return `model ratio ${fmt(pricing.modelRatio)}, completion ratio ${fmt(pricing.completionRatio)}, group ratio ${fmt(pricing.groupRatio)}`;
}

function pricingOther(pricing: Pricing): Record<string, number> {
  return pricing.billing === 'call'
    ? {
        model_ratio: 0,
        model_price: pricing.modelPrice,
        completion_ratio: 0,
        group_ratio: pricing.groupRatio,
      }
    : {
        model_ratio: pricing.modelRatio,
        model_price: -1,
        completion_ratio: pricing.completionRatio,
        group_ratio: pricing.groupRatio,
        cache_ratio: pricing.cacheRatio,
      };
}

const baseRow = (who: CallIdentity, now: number) => ({
  user_id: who.userId,
  username: who.username,
  token_id: who.tokenId,
  token_name: who.tokenName,
  model_name: who.model,
  group: who.group,
  ip: who.ip,
  is_stream: who.isStream ? 1 : 0,
  created_at: now,
});

export function consumeLogRow(input: {
  who: CallIdentity;
  timing: CallTiming;
  pricing: Pricing;
  usage: IrUsage;
  quota: number;
  channelId: number;
  channelsTried: readonly number[];
  /** Said in the content when the call ended early (stream cut, client gone). */
  note?: string;
  upstreamModel: string;
}): Insertable<LogsTable> {
  const { who, timing, pricing, usage } = input;
  const other: Record<string, unknown> = {
    frt: timing.firstResponseMs,
    ...pricingOther(pricing),
    admin_info: { use_channel: input.channelsTried.map(String) },
  };
  if (usage.cachedTokens > 0) other.cache_tokens = usage.cachedTokens;
  if (input.upstreamModel !== who.model) other.upstream_model_name = input.upstreamModel;
  return {
    ...baseRow(who, Math.floor(timing.endedMs / 1000)),
    type: LOG_TYPE.consume,
    content: input.note ? `${priceSummary(pricing)}; ${input.note}` : priceSummary(pricing),
    quota: input.quota,
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    use_time: Math.floor((timing.endedMs - timing.startedMs) / 1000),
    channel_id: input.channelId,
    other: JSON.stringify(other),
  };
}

export function errorLogRow(input: {
  who: CallIdentity;
  timing: Omit<CallTiming, 'firstResponseMs'>;
  message: string;
  status: number;
  channelId: number;
  channelsTried: readonly number[];
}): Insertable<LogsTable> {
  const other = {
    status_code: input.status,
    admin_info: { use_channel: input.channelsTried.map(String) },
  };
  return {
    ...baseRow(input.who, Math.floor(input.timing.endedMs / 1000)),
    type: LOG_TYPE.error,
    content: input.message,
    quota: 0,
    use_time: Math.floor((input.timing.endedMs - input.timing.startedMs) / 1000),
    channel_id: input.channelId,
    other: JSON.stringify(other),
  };
}
