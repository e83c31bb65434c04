// A relay call from authenticated caller to settled bill: price the model, check a channel exists,
// hold quota, try channels (retrying on others, never the same one twice), then settle exactly from
// the usage and log — or refund the hold and log the error.
import { randomUUID } from 'node:crypto';
import { CHANNEL_STATUS, quotaFor } from '@sluice/shared';
import type { Pricing } from '@sluice/shared';
import type { Hold } from '../../billing/ledger.js';
import {
  MIN_USEFUL_OUTPUT_TOKENS,
  affordableOutputTokens,
  defaultMaxTokens,
  planHold,
  resolvePricing,
} from '../../billing/pricing.js';
import type { HoldPlan } from '../../billing/pricing.js';
import { consumeLogRow, errorLogRow } from '../../billing/usage-log.js';
import type { CallIdentity } from '../../billing/usage-log.js';
import type { CallRecord } from '../../platform/metrics.js';
import { RelayError } from '../ir/errors.js';
import type { IrError } from '../ir/errors.js';
import type { IrRequest } from '../ir/request.js';
import { emptyUsage } from '../ir/usage.js';
import type { IrUsage } from '../ir/usage.js';
import type { ChatRequest } from '../ir/chat.js';
import type { ChatCodec, ChatWire } from '../wire/types.js';
import type { InboundFormat } from '../inbound/types.js';
import { adapterFor } from '../providers/registry.js';
import type { RelayCaller } from '../auth/relay-auth.js';
import { refuseShortQuota } from '../auth/relay-auth.js';
import { attemptChannel } from './attempt.js';
import type { AttemptResult, Conversion, StreamBudget } from './attempt-types.js';
import { autoDisableChannel } from './channel-health.js';
import {
  checkModelName,
  hasChannel,
  pickChannel,
  unservedChannelsError,
  unservedTypeError,
} from './channel-index.js';
import type { ChannelIndex, RelayChannel } from './channel-index.js';
import type { AttemptOutcome } from './circuit-breaker.js';
import type { ClientSink } from './client-sink.js';
import type { RelayRuntime } from './relay-runtime.js';
import type { AttemptError } from './upstream-errors.js';

export interface RelayCallInput {
  rt: RelayRuntime;
  inbound: InboundFormat;
  ir: IrRequest;
  caller: RelayCaller;
  sink: ClientSink;
  startedMs: number;
  requestId: string;
  /** What the call's metrics and access log line say; the pipeline fills in its channel and bill. */
  record: CallRecord;
}

/**
 * 404 when no channel lists the model for the group at all; 501 naming the types when its enabled
 * channels are all of types the relay cannot serve (yet); 503 when its channels are all down.
 */
const noChannel = (ir: IrRequest, group: string, index?: ChannelIndex): RelayError =>
  index && !index.listed(group, ir.model)
    ? new RelayError(404, `model ${ir.model} is not available in group ${group}`, 'model_not_found')
    : ((index && unservedChannelsError(index, group, ir.model, ir.mode)) ??
      new RelayError(
        503,
        `no channel is available for model ${ir.model} in group ${group}`,
        'model_not_available',
        'server_error',
      ));

/**
 * The dialect a call's upstream must speak when the client's format has no codec to convert it with
 * (Gemini's embeddings): undefined when any upstream will do. OpenAI's non-chat endpoints have none
 * either, but adapters of other dialects convert those themselves or do not support the mode.
 */
const onlyDialect = (inbound: InboundFormat): ChatWire | undefined =>
  inbound.codec || inbound.wireFormat === 'openai' ? undefined : inbound.wireFormat;

/** The pinned channel, if the key pins one; otherwise checks that some channel can serve the call. */
function firstChannel(input: RelayCallInput, index: ChannelIndex): RelayChannel | undefined {
  const { caller, ir } = input;
  if (caller.pinnedChannelId === undefined) {
    if (!hasChannel(index, caller.group, ir.model, ir.mode, onlyDialect(input.inbound))) {
      throw noChannel(ir, caller.group, index);
    }
    return undefined;
  }
  const pinned = index.byId.get(caller.pinnedChannelId);
  if (!pinned)
    throw new RelayError(403, `channel ${caller.pinnedChannelId} does not exist`, 'channel_not_found');
  if (pinned.status !== CHANNEL_STATUS.enabled)
    throw new RelayError(403, `channel ${pinned.id} is disabled`, 'channel_disabled');
  if (!adapterFor(pinned.type)?.supports(ir.mode)) {
    throw unservedTypeError([pinned.type], ir.mode, `channel ${pinned.id} cannot take this call`);
  }
  return pinned;
}

/**
 * Part of what a shrunk hold affords that the upstream is not offered: vendors count tokens their own
 * way, and an upstream that stops at its limit by its count must stay inside the hold by Sluice's
 * count too, or the stream's spend check (output-guard.ts) would cut its last words.
 */
const TOKENIZER_MARGIN = 0.1;

/**
 * The output limit the upstream gets so the call cannot produce more than its hold pays for: what a
 * shrunk hold affords (less the margin), or the default hold when the client set no limit; undefined
 * keeps the client's.
 */
function heldOutputLimit(
  ir: IrRequest,
  plan: HoldPlan,
  hold: Hold,
  heldOutput: number | undefined,
): number | undefined {
  if (heldOutput === undefined || plan.outputTokens === undefined) return undefined;
  if (hold.amount < plan.amount) {
    const offered = heldOutput - Math.ceil(heldOutput * TOKENIZER_MARGIN);
    return Math.max(offered, Math.min(heldOutput, MIN_USEFUL_OUTPUT_TOKENS));
  }
  return ir.maxTokens === undefined || ir.maxTokens <= 0 ? plan.outputTokens : undefined;
}

/** The output tokens a token-priced hold pays for: what it was planned for, or what a shrunk one affords. */
function heldOutputTokens(
  plan: HoldPlan,
  pricing: Pricing,
  promptEstimate: number,
  hold: Hold,
): number | undefined {
  if (plan.outputTokens === undefined || pricing.billing !== 'tokens') return undefined;
  return hold.amount < plan.amount
    ? affordableOutputTokens(pricing, promptEstimate, hold.amount, plan.outputTokens)
    : plan.outputTokens;
}

async function recordOutcome(
  rt: RelayRuntime,
  channel: RelayChannel,
  outcome: AttemptOutcome,
): Promise<void> {
  const reason = rt.breaker.record(channel.id, outcome, Date.now());
  if (reason === undefined) return;
  await autoDisableChannel(rt, channel, reason).catch((error: unknown) =>
    rt.logger.error({ err: error, channelId: channel.id }, 'could not disable a failing channel'),
  );
}

export async function runRelayCall(input: RelayCallInput): Promise<void> {
  const { rt, inbound, ir, caller, sink, record } = input;
  const { options, metrics } = rt.ctx;
  checkModelName(ir.model);
  const pricing = resolvePricing(options, ir.model, caller.group);
  const pinned = firstChannel(input, rt.channels.ready() ?? (await rt.channels.index()));

  const promptEstimate = inbound.estimatePromptTokens(ir);
  const generates = ir.mode === 'chat' || ir.mode === 'completions';
  const plan = planHold(
    pricing,
    promptEstimate,
    generates ? ir.maxTokens : undefined,
    // Endpoints that generate no text (embeddings, images, audio…) keep the flat PreConsumedQuota hold.
    generates ? defaultMaxTokens(options.get('DefaultMaxTokens'), ir.model) : options.get('PreConsumedQuota'),
  );
  const reserved = await rt.ledger.reserve({
    userId: caller.userId,
    tokenId: caller.token?.id ?? null,
    unlimitedToken: caller.token?.unlimited ?? false,
    amount: plan.amount,
    fit: generates ? plan.fit : undefined,
  });
  if (!reserved.ok) throw await refuseShortQuota(rt, caller, reserved.short, plan.amount);
  const hold = reserved.hold;
  const heldOutput = generates ? heldOutputTokens(plan, pricing, promptEstimate, hold) : undefined;
  const outputLimit = generates ? heldOutputLimit(ir, plan, hold, heldOutput) : undefined;
  const relayed = outputLimit === undefined ? ir : Object.assign({}, ir, { outputLimit });
  // A priced stream is checked event by event against its hold (see output-guard.ts).
  const budget: StreamBudget | undefined =
    generates && ir.stream && pricing.billing === 'tokens' && hold.amount > 0
      ? {
          pricing,
          promptEstimate,
          hold,
          extend: (held, extra, whole) => rt.ledger.extend(held, extra, whole),
          heldOutput,
        }
      : undefined;

  const tried: number[] = [];
  let lastFailure: AttemptError | undefined;
  let converting: Conversion | undefined;
  try {
    const attempts = pinned ? 1 : 1 + options.get('RetryTimes');
    for (let i = 0; i < attempts && !sink.aborted; i++) {
      const channel =
        pinned ??
        pickChannel(rt.channels.ready() ?? (await rt.channels.index()), {
          group: caller.group,
          model: ir.model,
          mode: ir.mode,
          exclude: new Set(tried),
          wire: onlyDialect(inbound),
        });
      const typeAdapter = channel && adapterFor(channel.type);
      if (!channel || !typeAdapter) break;
      const failed = tried[tried.length - 1];
      if (failed !== undefined) metrics.retried(failed);
      tried.push(channel.id);
      record.channelId = channel.id;
      record.attempts = tried.length;
      const upstreamModel = channel.modelMapping.get(ir.model) ?? ir.model;
      // Vendors whose models speak different dialects (Vertex) serve each model with its own adapter.
      const adapter = typeAdapter.forModel?.(upstreamModel) ?? typeAdapter;
      // OpenAI's non-chat endpoints (no codec) reach an adapter of another dialect as they are: it
      // converts them itself (Gemini embeddings) or does not support the mode.
      const conversion =
        adapter.dialects.includes(inbound.wireFormat) || !inbound.codec
          ? undefined
          : (converting ??= conversionOf(relayed, inbound.codec));
      const sentMs = Date.now();
      const result = await attemptChannel({
        rt,
        ir: relayed,
        inbound,
        channel,
        adapter,
        upstreamModel,
        sink,
        startedMs: input.startedMs,
        requestId: input.requestId,
        ...(budget ? { budget } : {}),
        ...(conversion ? { conversion } : {}),
      });
      metrics.attemptEnded(channel.id, Date.now() - sentMs);
      if (result.kind === 'delivered') {
        await recordOutcome(rt, channel, result.outcome);
        const upstreamWire = conversion ? (adapter.dialects[0] ?? inbound.wireFormat) : inbound.wireFormat;
        await settleDelivered(input, {
          hold,
          pricing,
          channel,
          upstreamModel,
          tried,
          result,
          ...(ir.mode === 'chat' ? { formats: { request: inbound.wireFormat, upstream: upstreamWire } } : {}),
        });
        return;
      }
      lastFailure = result.failure;
      await recordOutcome(rt, channel, result.failure.outcome);
      if (!result.failure.retry) break;
    }
  } catch (error) {
    // A refusal of the client's input met while converting it, or a fault of our own: the hold must
    // not stay taken either way.
    await refund(
      input,
      hold,
      tried,
      error instanceof RelayError
        ? error.toIr()
        : { status: 500, message: 'internal error', type: 'server_error', code: null },
    );
    throw error;
  }

  const error: IrError = sink.aborted
    ? {
        status: 499,
        message: 'the client closed the connection',
        type: 'client_error',
        code: 'client_closed',
      }
    : (lastFailure?.error ?? noChannel(ir, caller.group).toIr());
  await refund(input, hold, tried, error);
  sink.sendJson(
    error.status,
    JSON.stringify(
      inbound.errorBody({ ...error, message: `${error.message} (request id: ${input.requestId})` }),
    ),
    error === lastFailure?.error ? lastFailure.retryAfter : undefined,
  );
}

/**
 * How a call is converted for an upstream of another dialect: the client's request decoded once, on
 * first use, with the output limit the upstream must get, and a fresh id for the re-encoded answer
 * (never the client's x-request-id, which the client chose).
 */
function conversionOf(ir: IrRequest, codec: ChatCodec): Conversion {
  let request: ChatRequest | undefined;
  return {
    request() {
      if (request) return request;
      const decoded = codec.decodeRequest(ir.body);
      const limit = ir.outputLimit ?? decoded.maxOutputTokens;
      request = Object.assign(
        decoded,
        { model: ir.model, stream: ir.stream },
        limit === undefined ? {} : { maxOutputTokens: limit },
      );
      return request;
    },
    identity: {
      id: randomUUID().replaceAll('-', ''),
      model: ir.model,
      created: Math.floor(Date.now() / 1000),
    },
  };
}

const identity = (input: RelayCallInput): CallIdentity => ({
  userId: input.caller.userId,
  username: input.caller.username,
  tokenId: input.caller.token?.id ?? 0,
  tokenName: input.caller.token?.name ?? '',
  group: input.caller.group,
  model: input.ir.model,
  ip: input.caller.ip,
  isStream: input.ir.stream,
  requestId: input.requestId,
});

async function finalUsage(
  input: RelayCallInput,
  result: Extract<AttemptResult, { kind: 'delivered' }>,
): Promise<IrUsage> {
  if (result.usage) {
    if (!result.interruption) return result.usage;
    // A stream cut short reports usage so far (Anthropic's message_start says 1 output token): the
    // client got at least what Sluice counted it was sent.
    const sent = await result.countCompletion();
    if (sent <= result.usage.completionTokens) return result.usage;
    return Object.assign({}, result.usage, { completionTokens: sent });
  }
  // No usable count from the upstream (none, or one that failed the sanity check): our own.
  const [promptTokens, completionTokens] = await Promise.all([
    input.inbound.countPromptTokens(input.ir),
    result.countCompletion(),
  ]);
  return { promptTokens, completionTokens, cachedTokens: 0 };
}

async function settleDelivered(
  input: RelayCallInput,
  s: {
    hold: Hold;
    pricing: Pricing;
    channel: RelayChannel;
    upstreamModel: string;
    tried: number[];
    result: Extract<AttemptResult, { kind: 'delivered' }>;
    formats?: { request: ChatWire; upstream: ChatWire };
  },
): Promise<void> {
  const { rt } = input;
  const { options } = rt.ctx;
  let billed = emptyUsage();
  try {
    const usage = await finalUsage(input, s.result);
    billed = usage;
    // A stream ended for want of quota is billed what it delivered, never more than it held (the
    // prompt's own count may exceed the estimate the hold was sized with).
    const cost = quotaFor(usage, s.pricing);
    const quota = s.result.interruption?.by === 'quota' ? Math.min(cost, s.hold.amount) : cost;
    const { record } = input;
    record.promptTokens = usage.promptTokens;
    record.completionTokens = usage.completionTokens;
    record.quota = quota;
    if (input.ir.stream) record.firstByteMs = s.result.firstResponseMs;
    const endedMs = Date.now();
    const who = identity(input);
    const log = options.get('LogConsumeEnabled')
      ? consumeLogRow({
          who,
          timing: { startedMs: input.startedMs, endedMs, firstResponseMs: s.result.firstResponseMs },
          pricing: s.pricing,
          usage,
          quota,
          channelId: s.channel.id,
          channelsTried: s.tried,
          upstreamModel: s.upstreamModel,
          countedLocally: s.result.usage === undefined,
          ...(s.result.interruption ? { interruption: s.result.interruption } : {}),
          ...(s.formats ? { formats: s.formats } : {}),
        })
      : undefined;
    const now = Math.floor(endedMs / 1000);
    // Charged in memory now, written with the next batch: the answer does not wait for the commit.
    rt.ledger.settle({
      hold: s.hold,
      quota,
      channelId: s.channel.id,
      countRequest: true,
      now,
      ...(log ? { log } : {}),
    });
    if (options.get('DataExportEnabled')) {
      rt.quotaData.record({
        userId: who.userId,
        username: who.username,
        modelName: who.model,
        at: now,
        tokens: usage.promptTokens + usage.completionTokens,
        quota,
      });
    }
  } catch (error) {
    rt.logger.error({ err: error, userId: input.caller.userId }, 'could not settle a relay call');
  } finally {
    s.result.finish(billed);
  }
}

async function refund(input: RelayCallInput, hold: Hold, tried: number[], error: IrError): Promise<void> {
  const { rt } = input;
  const endedMs = Date.now();
  const log =
    rt.ctx.options.get('LogConsumeEnabled') && tried.length > 0
      ? errorLogRow({
          who: identity(input),
          timing: { startedMs: input.startedMs, endedMs },
          message: error.message,
          status: error.status,
          channelId: tried[tried.length - 1] ?? 0,
          channelsTried: tried,
        })
      : undefined;
  if (hold.amount === 0 && !log) return;
  try {
    rt.ledger.settle({
      hold,
      quota: 0,
      channelId: 0,
      countRequest: false,
      now: Math.floor(endedMs / 1000),
      ...(log ? { log } : {}),
    });
  } catch (err) {
    rt.logger.error({ err, userId: input.caller.userId }, 'could not refund a failed relay call');
  }
}
