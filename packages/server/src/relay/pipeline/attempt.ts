// Sends one call to one channel and hands the answer to the JSON or the stream path.
import { countTokens } from '../../billing/token-counter.js';
import type { ParsedResponse } from '../providers/types.js';
import type { AttemptInput, AttemptResult } from './attempt-types.js';
import { relayStream } from './stream-attempt.js';
import type { UpstreamFailure } from './upstream-client.js';
import type { UpstreamResponse } from './upstream-client.js';
import { judgeBadAnswer, judgeFailure, judgeHttpError } from './upstream-errors.js';

/** Error bodies are read only this far. */
const ERROR_BODY_LIMIT = 64 * 1024;

export async function attemptChannel(input: AttemptInput): Promise<AttemptResult> {
  const { rt, ir, channel, adapter, upstreamModel, sink } = input;
  let res: UpstreamResponse;
  try {
    res = await rt.upstream.send(adapter.buildRequest(ir, channel, upstreamModel), sink);
  } catch (error) {
    return { kind: 'failed', failure: judgeFailure(error as UpstreamFailure) };
  }
  if (res.status < 200 || res.status >= 300) {
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
  const { ir, adapter, sink, startedMs } = input;
  let body: Buffer;
  try {
    body = await res.body.readAll();
  } catch (error) {
    return { kind: 'failed', failure: judgeFailure(error as UpstreamFailure) };
  }
  let parsed: ParsedResponse;
  try {
    parsed = adapter.parseResponse(ir, body);
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
    finish: () => sink.sendJson(200, parsed.body),
  };
}
