// Sends one call to one channel and hands the answer to the JSON or the stream path.
import { countTokens } from '../../billing/token-counter.js';
import type { ParsedResponse } from '../providers/types.js';
import type { IrUsage } from '../ir/usage.js';
import type { AttemptInput, AttemptResult, Conversion } from './attempt-types.js';
import {
  CredentialFailure,
  forgetCredential,
  judgeCredentialFailure,
  withCredential,
} from './channel-credentials.js';
import { signedRequest } from './request-signing.js';
import { relayStream } from './stream-attempt.js';
import type { UpstreamFailure } from './upstream-client.js';
import type { UpstreamResponse } from './upstream-client.js';
import { RelayError } from '../ir/errors.js';
import { judgeBadAnswer, judgeFailure, judgeHttpError, judgeUnbuildable } from './upstream-errors.js';

/** Error bodies are read only this far. */
const ERROR_BODY_LIMIT = 64 * 1024;

export async function attemptChannel(input: AttemptInput): Promise<AttemptResult> {
  const { rt, ir, channel, adapter, upstreamModel, sink, conversion } = input;
  let res: UpstreamResponse;
  try {
    // An adapter whose key is exchanged for an access token gets the channel with that token.
    const target = adapter.credentials
      ? await withCredential(rt.upstream, adapter.credentials, channel)
      : channel;
    const built = adapter.buildRequest(ir, target, upstreamModel, conversion?.request(), rt.ctx.options);
    // The call's id goes upstream too (an upstream's or a proxy's logs can name it). Added before
    // signing, so SigV4 covers it like every other header; the adapter's headers are this call's own.
    built.headers['x-request-id'] = input.requestId;
    // Signed last (AWS SigV4), over exactly what is sent.
    const request = adapter.signRequest ? await signedRequest(adapter, built, target) : built;
    res = await rt.upstream.send(request, sink);
  } catch (error) {
    const failure =
      error instanceof CredentialFailure
        ? judgeCredentialFailure(error, channel.key)
        : error instanceof RelayError
          ? judgeUnbuildable(error)
          : judgeFailure(error as UpstreamFailure);
    return { kind: 'failed', failure };
  }
  if (res.status < 200 || res.status >= 300) {
    if (res.status === 401 && adapter.credentials) forgetCredential(rt.upstream, channel);
    let body: Buffer;
    try {
      body = await res.body.readAll(ERROR_BODY_LIMIT);
    } catch {
      body = Buffer.alloc(0);
    }
    const info = adapter.parseError(res.status, body);
    const retryAfter = res.headers['retry-after'];
    return {
      kind: 'failed',
      failure: judgeHttpError(
        res.status,
        info,
        channel.statusCodeMapping,
        channel.key,
        typeof retryAfter === 'string' ? retryAfter : undefined,
      ),
    };
  }
  return ir.stream ? relayStream(input, res) : relayJson(input, res);
}

async function relayJson(input: AttemptInput, res: UpstreamResponse): Promise<AttemptResult> {
  const { ir, adapter, inbound, sink, startedMs, conversion } = input;
  let body: Buffer;
  try {
    body = await res.body.readAll();
  } catch (error) {
    return { kind: 'failed', failure: judgeFailure(error as UpstreamFailure) };
  }
  let parsed: ParsedResponse;
  try {
    parsed = adapter.parseResponse(ir, body, conversion?.request());
  } catch (error) {
    return {
      kind: 'failed',
      failure: judgeBadAnswer(
        `the upstream answer is not valid: ${(error as Error).message}`,
        input.channel.key,
      ),
    };
  }
  const text = parsed.text;
  return {
    kind: 'delivered',
    ...(parsed.usage ? { usage: parsed.usage } : {}),
    countCompletion: () => countTokens(text, ir.model),
    firstResponseMs: Date.now() - startedMs,
    outcome: { ok: true },
    // Sent once the charge is written, so the balance is already right when the client reads it.
    finish: (usage) => sink.sendJson(200, clientBody(parsed, inbound, conversion, usage)),
  };
}

/** The upstream's bytes, or for a client of another dialect the answer re-encoded with its billed usage. */
function clientBody(
  parsed: ParsedResponse,
  inbound: AttemptInput['inbound'],
  conversion: Conversion | undefined,
  usage: IrUsage,
): Buffer | string {
  if (!conversion || !parsed.answer || !inbound.codec) return parsed.body;
  const answer = Object.assign({}, parsed.answer, { usage });
  return JSON.stringify(inbound.codec.encodeAnswer(answer, conversion.identity));
}
