// The log rows of relay calls: a consumption row (type 2) for every call that reached a model, an
// error row (type 5) for calls that failed on every channel tried. `content` is English; the facts
// in `other` (prices, interruption, status) let the console word the row in the reader's language.
import { LOG_TYPE } from '@sluice/shared';
import type { Pricing, StreamInterruption } from '@sluice/shared';
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
  /** The call's request id (the x-request-id its client got back); '' when it had none. */
  requestId: string;
}

export interface CallTiming {
  startedMs: number;
  endedMs: number;
  /** Milliseconds to the first event of a stream, or to the whole answer otherwise. */
  firstResponseMs: number;
}

const fmt = (n: number): string => String(n);

export function priceSummary(pricing: Pricing): string {
  return pricingText(pricing).summary;
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
        cache_creation_ratio: pricing.cacheWriteRatio,
      };
}

/** What a log row says about a price: the content's summary and the price keys of `other` as JSON. */
interface PricingText {
  summary: string;
  /** The keys and values of pricingOther, without the braces. */
  otherKeys: string;
}

function describePricing(pricing: Pricing): PricingText {
  const summary =
    pricing.billing === 'call'
      ? `model price $${fmt(pricing.modelPrice)}, group ratio ${fmt(pricing.groupRatio)}`
      : `model ratio ${fmt(pricing.modelRatio)}, completion ratio ${fmt(pricing.completionRatio)}, group ratio ${fmt(pricing.groupRatio)}`;
  return { summary, otherKeys: JSON.stringify(pricingOther(pricing)).slice(1, -1) };
}

// Every call brings its own Pricing object, but a node sees few distinct prices: their texts are
// kept by value (looked up by the price or model ratio, then the rest compared) and all forgotten
// at once when there are too many.
const PRICE_TEXTS = 256;
interface PriceEntry {
  pricing: Pricing;
  text: PricingText;
}
const priceTexts = { call: new Map<number, PriceEntry[]>(), tokens: new Map<number, PriceEntry[]>() };
let priceTextCount = 0;

const samePrice = (a: Pricing, b: Pricing): boolean =>
  a.billing === 'call'
    ? b.billing === 'call' && a.modelPrice === b.modelPrice && a.groupRatio === b.groupRatio
    : b.billing === 'tokens' &&
      a.modelRatio === b.modelRatio &&
      a.completionRatio === b.completionRatio &&
      a.groupRatio === b.groupRatio &&
      a.cacheRatio === b.cacheRatio &&
      a.cacheWriteRatio === b.cacheWriteRatio;

function pricingText(pricing: Pricing): PricingText {
  const texts = priceTexts[pricing.billing];
  const key = pricing.billing === 'call' ? pricing.modelPrice : pricing.modelRatio;
  const entries = texts.get(key);
  if (entries) {
    for (const entry of entries) if (samePrice(entry.pricing, pricing)) return entry.text;
  }
  const text = describePricing(pricing);
  if (priceTextCount >= PRICE_TEXTS) {
    priceTexts.call.clear();
    priceTexts.tokens.clear();
    priceTextCount = 0;
  }
  // A copy: the entry must not change if the caller's object does.
  const entry = { pricing: { ...pricing }, text };
  const list = texts.get(key);
  if (list) list.push(entry);
  else texts.set(key, [entry]);
  priceTextCount++;
  return text;
}

/** A number as JSON.stringify writes it. */
const jsonNumber = (n: number): string => (Number.isFinite(n) ? String(n) : 'null');

/** {"use_channel":["3","5"]}: channel ids are integers, so nothing needs escaping. */
function adminInfo(channelsTried: readonly number[]): string {
  let ids = '';
  for (const id of channelsTried) ids += `${ids === '' ? '' : ','}"${String(id)}"`;
  return `{"use_channel":[${ids}]}`;
}

export function consumeLogRow(input: {
  who: CallIdentity;
  timing: CallTiming;
  pricing: Pricing;
  usage: IrUsage;
  quota: number;
  channelId: number;
  channelsTried: readonly number[];
  /** How a stream ended early (client gone, upstream broke off), when it did. */
  interruption?: StreamInterruption;
  upstreamModel: string;
  /** The tokens were counted by Sluice: the upstream sent no usable usage. */
  countedLocally?: boolean;
  /** A chat call's dialects: the client's and the upstream's (they differ when it was converted). */
  formats?: { request: string; upstream: string };
  /** A task relay's submit: Sluice's id of the task it charged. */
  taskId?: string;
}): Insertable<LogsTable> {
  const { who, timing, pricing, usage, interruption } = input;
  // The JSON.stringify of { frt, ...pricingOther(pricing), admin_info, cache_tokens?,
  // cache_creation_tokens?, reasoning_tokens?, usage_source?, upstream_model_name?, request_format?,
  // upstream_format?, stream_interrupted?, stream_error? }, written out: the price part is the same text for every
  // call at a price.
  const text = pricingText(pricing);
  let other = `{"frt":${jsonNumber(timing.firstResponseMs)},${text.otherKeys},"admin_info":${adminInfo(input.channelsTried)}`;
  if (usage.cachedTokens > 0) other += `,"cache_tokens":${jsonNumber(usage.cachedTokens)}`;
  const cacheWriteTokens = usage.cacheWriteTokens ?? 0;
  if (cacheWriteTokens > 0) other += `,"cache_creation_tokens":${jsonNumber(cacheWriteTokens)}`;
  const reasoningTokens = usage.reasoningTokens ?? 0;
  if (reasoningTokens > 0) other += `,"reasoning_tokens":${jsonNumber(reasoningTokens)}`;
  if (input.countedLocally) other += ',"usage_source":"local"';
  if (input.upstreamModel !== who.model) {
    other += `,"upstream_model_name":${JSON.stringify(input.upstreamModel)}`;
  }
  // Dialect names are fixed words (openai, responses, anthropic, gemini): nothing to escape.
  if (input.formats) {
    other += `,"request_format":"${input.formats.request}","upstream_format":"${input.formats.upstream}"`;
  }
  if (input.taskId !== undefined) other += `,"task_id":${JSON.stringify(input.taskId)}`;
  let content = text.summary;
  if (input.taskId !== undefined) content += `; task ${input.taskId}`;
  if (cacheWriteTokens > 0 && pricing.billing === 'tokens') {
    content += `; ${fmt(cacheWriteTokens)} prompt tokens written to the cache at cache-write ratio ${fmt(pricing.cacheWriteRatio)}`;
  }
  if (interruption?.by === 'client') {
    other += ',"stream_interrupted":"client"';
    content += '; the client disconnected before the stream ended';
  } else if (interruption?.by === 'quota') {
    other += ',"stream_interrupted":"quota"';
    content += '; the stream was stopped when the quota left paid for no more output';
  } else if (interruption?.by === 'upstream') {
    other += `,"stream_interrupted":"upstream","stream_error":${JSON.stringify(interruption.reason)}`;
    content += `; the stream broke off: ${interruption.reason}`;
  }
  // One literal, not a spread of baseRow: spreading into a row this wide is the slowest part of it.
  return {
    user_id: who.userId,
    username: who.username,
    token_id: who.tokenId,
    token_name: who.tokenName,
    model_name: who.model,
    group: who.group,
    ip: who.ip,
    is_stream: who.isStream ? 1 : 0,
    created_at: Math.floor(timing.endedMs / 1000),
    type: LOG_TYPE.consume,
    content,
    quota: input.quota,
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    use_time: Math.floor((timing.endedMs - timing.startedMs) / 1000),
    channel_id: input.channelId,
    other: `${other}}`,
    request_id: who.requestId,
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
  const { who, timing } = input;
  return {
    user_id: who.userId,
    username: who.username,
    token_id: who.tokenId,
    token_name: who.tokenName,
    model_name: who.model,
    group: who.group,
    ip: who.ip,
    is_stream: who.isStream ? 1 : 0,
    created_at: Math.floor(timing.endedMs / 1000),
    type: LOG_TYPE.error,
    content: input.message,
    quota: 0,
    use_time: Math.floor((timing.endedMs - timing.startedMs) / 1000),
    channel_id: input.channelId,
    other: `{"status_code":${jsonNumber(input.status)},"admin_info":${adminInfo(input.channelsTried)}}`,
    request_id: who.requestId,
  };
}
