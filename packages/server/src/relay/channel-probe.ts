// One small real chat call through a channel's adapter (a free key check for task channels), for the
// console's "test channel" and the background re-enable job. Bills nobody and writes nothing.
import { MSG, channelTypeLabel } from '@sluice/shared';
import type { AppContext } from '../app-context.js';
import type { ChannelRow } from '../db/tables.js';
import type { IrRequest } from './ir/request.js';
import { CredentialFailure, forgetCredential, withCredential } from './pipeline/channel-credentials.js';
import { toRelayChannel } from './pipeline/channel-index.js';
import { relayRuntime } from './pipeline/relay-runtime.js';
import { signedRequest } from './pipeline/request-signing.js';
import { cancellationOf, toUpstreamFailure } from './pipeline/upstream-client.js';
import { redactUpstreamMessage } from './pipeline/upstream-errors.js';
import { adapterFor } from './providers/registry.js';
import { openAiChatCodec } from './wire/openai/index.js';
import { probeTaskChannel } from './tasks/probe.js';

export interface ProbeResult {
  ok: boolean;
  /** Milliseconds from sending to the whole answer. */
  timeMs: number;
  message: string;
  /**
   * No call was made: Sluice has no chat adapter for the channel's type. Says nothing about the
   * upstream, so it must never count as a failure of the channel.
   */
  untestable?: true;
}

const PROBE_TIMEOUT_MS = 60_000;
const FALLBACK_MODEL = 'gpt-4o-mini';

const firstModel = (models: string): string | undefined =>
  models
    .split(',')
    .map((m) => m.trim())
    .find((m) => m !== '');

export async function probeChannel(ctx: AppContext, row: ChannelRow, model?: string): Promise<ProbeResult> {
  const task = probeTaskChannel(relayRuntime(ctx), row);
  if (task) return task;
  const typeAdapter = adapterFor(row.type);
  if (!typeAdapter?.supports('chat')) {
    const type = `${channelTypeLabel(row.type)} (${row.type})`;
    return { ok: false, untestable: true, timeMs: 0, message: MSG.channelTypeNotTestable(type) };
  }
  const channel = toRelayChannel(row);
  const requested = model || row.test_model || firstModel(row.models) || FALLBACK_MODEL;
  const upstreamModel = channel.modelMapping.get(requested) ?? requested;
  const adapter = typeAdapter.forModel?.(upstreamModel) ?? typeAdapter;
  const body = { model: requested, messages: [{ role: 'user', content: 'hi' }] };
  const ir: IrRequest = { mode: 'chat', model: requested, stream: false, clientWantsUsage: false, body };
  // The probe speaks OpenAI chat; an upstream of another dialect gets it converted, as a relayed
  // call would be (Anthropic would refuse an OpenAI body: it has no max_tokens).
  const chat = adapter.dialects.includes('openai')
    ? undefined
    : Object.assign(openAiChatCodec.decodeRequest(body), { model: requested, stream: false });
  const started = Date.now();
  const signal = AbortSignal.timeout(PROBE_TIMEOUT_MS);
  const { upstream } = relayRuntime(ctx);
  try {
    const target = await withCredential(upstream, adapter.credentials, channel);
    const built = adapter.buildRequest(ir, target, upstreamModel, chat, ctx.options);
    const res = await upstream.send(
      adapter.signRequest ? await signedRequest(adapter, built, target) : built,
      cancellationOf(signal),
      {
        headersMs: PROBE_TIMEOUT_MS,
        bodyMs: PROBE_TIMEOUT_MS,
      },
    );
    const answer = await res.body.readAll();
    const timeMs = Date.now() - started;
    if (res.status < 200 || res.status >= 300) {
      if (res.status === 401 && adapter.credentials) forgetCredential(upstream, channel);
      // Admins read this: an upstream that echoes the key or names its hosts must not show them.
      const message = redactUpstreamMessage(adapter.parseError(res.status, answer).message, row.key);
      return { ok: false, timeMs, message };
    }
    try {
      adapter.parseResponse(ir, answer, chat);
    } catch (error) {
      return { ok: false, timeMs, message: `the upstream answer is not valid: ${(error as Error).message}` };
    }
    return { ok: true, timeMs, message: '' };
  } catch (error) {
    if (error instanceof CredentialFailure) {
      return {
        ok: false,
        timeMs: Date.now() - started,
        message: redactUpstreamMessage(error.message, row.key),
      };
    }
    const failure = toUpstreamFailure(error, cancellationOf(signal));
    const message = signal.aborted ? `no answer within ${PROBE_TIMEOUT_MS / 1000}s` : failure.message;
    return { ok: false, timeMs: Date.now() - started, message };
  }
}
