// The stream path: upstream events go to the client as they arrive, in their own bytes when the
// formats match. The client's headers wait for the first real event, so a channel that fails before
// answering can still be swapped for another; after that, a break is told inside the stream and the
// call is billed for what was produced.
import type { StreamInterruption } from '@sluice/shared';
import { CompletionCounter } from '../../billing/token-counter.js';
import { OutputGuard } from './output-guard.js';
import type { ChatDelta } from '../ir/chat.js';
import { joinDeltas } from '../ir/chat.js';
import type { IrStreamEvent } from '../ir/stream.js';
import type { IrUsage } from '../ir/usage.js';
import type { AttemptInput, AttemptResult } from './attempt-types.js';
import type { AttemptOutcome } from './circuit-breaker.js';
import { UpstreamFailure, isUpstreamFault, toUpstreamFailure } from './upstream-client.js';
import type { UpstreamResponse } from './upstream-client.js';
import { judgeBadAnswer, judgeFailure, redactUpstreamMessage } from './upstream-errors.js';

export async function relayStream(input: AttemptInput, res: UpstreamResponse): Promise<AttemptResult> {
  const { ir, inbound, adapter, sink, startedMs, conversion } = input;
  const parser = adapter.createStreamParser(ir, conversion?.request());
  // A client of another dialect gets the events re-encoded; otherwise the upstream's own bytes.
  const encoder =
    conversion && inbound.codec
      ? inbound.codec.createStreamEncoder(conversion.identity, { includeUsage: ir.clientWantsUsage })
      : undefined;
  const counter = new CompletionCounter(ir.model);
  const guard = input.budget && new OutputGuard({ ...input.budget, model: ir.model, counter });
  /** Whether the event surely may go out without asking the guard (events without text always may). */
  const surelyPaid = (event: IrStreamEvent): boolean => !guard || event.text === '' || guard.fits(event.text);
  /** The guard's exact answer, only past the cheap bound (so the common event never awaits). */
  const admitted = (event: IrStreamEvent): Promise<boolean> =>
    guard ? guard.admit(event.text) : Promise.resolve(true);
  let usage: IrUsage | undefined;
  let finished = false;
  let done = false;
  let problem: string | undefined;
  let firstResponseMs = -1;
  /** Bytes for the client: comments held until the first event, then each upstream read's events. */
  let out: Buffer[] = [];
  /**
   * Forwarded events not yet in `out`: a stretch of one read, which the next event extends when it
   * follows on. One view per run of events goes to the client, not one per event and no copy (an event
   * left out, such as a usage chunk the client did not ask for, ends a run).
   */
  let runBytes: Buffer | undefined;
  let runStart = 0;
  let runEnd = 0;
  const endRun = () => {
    if (runBytes === undefined) return;
    out.push(runBytes.subarray(runStart, runEnd));
    runBytes = undefined;
  };
  const forward = (event: IrStreamEvent) => {
    if (event.bytes === runBytes && event.start === runEnd) {
      runEnd = event.end;
      return;
    }
    endRun();
    runBytes = event.bytes;
    runStart = event.start;
    runEnd = event.end;
  };
  /** A converted stream's steps from this upstream read, re-encoded together at the flush. */
  let steps: ChatDelta[] = [];

  const open = () => {
    sink.startStream();
    firstResponseMs = Date.now() - startedMs;
  };

  /** Everything one upstream read produced goes to the socket in one write. */
  const flush = async () => {
    endRun();
    if (encoder && steps.length > 0) {
      out.push(Buffer.from(encoder.push(joinDeltas(steps))));
      steps = [];
    }
    if (!sink.streaming || out.length === 0) return;
    const pieces = out.length === 1 ? (out[0] as Buffer) : out;
    out = [];
    await sink.write(pieces);
  };

  /** False when the stream is over (end marker or error). */
  const handle = (event: IrStreamEvent): boolean => {
    if (event.error !== undefined) {
      problem = event.error;
      return false;
    }
    if (event.usage) usage = event.usage;
    counter.add(event.text);
    if (event.finished) finished = true;
    if (encoder) {
      if (event.deltas !== undefined && event.deltas.length > 0) {
        for (const delta of event.deltas) steps.push(delta);
        if (!sink.streaming) open();
      }
    } else {
      if (event.usageOnly && !ir.clientWantsUsage) return true;
      forward(event);
      // The client's headers wait for an event with content (or the end), so a channel that fails
      // before it can still be replaced.
      if (!sink.streaming && (event.done || event.content)) {
        open();
      }
    }
    if (event.done) done = true;
    return !event.done;
  };

  let failure: UpstreamFailure | undefined;
  try {
    reading: for await (const chunk of res.body) {
      for (const event of parser.push(chunk)) {
        if ((!surelyPaid(event) && !(await admitted(event))) || !handle(event)) {
          await flush();
          break reading;
        }
      }
      await flush();
    }
    if (!done && problem === undefined && !guard?.ended) {
      for (const event of parser.end()) {
        if ((!surelyPaid(event) && !(await admitted(event))) || !handle(event)) break;
      }
      await flush();
    }
  } catch (error) {
    // A fault of the relay's own code is not the channel's: it goes up (refunded, logged as a 500).
    if (!isUpstreamFault(error, sink)) throw error;
    failure = toUpstreamFailure(error, sink);
  }

  // A finish reason means the answer is whole even if the end marker never came. Usage alone does not:
  // it is usage so far (Anthropic's message_start carries one, with output_tokens 1).
  const stopped = guard?.ended === true;
  const complete = !stopped && (done || (finished && problem === undefined));
  const clientGone = sink.aborted;

  if (!sink.streaming) {
    if (clientGone) {
      return {
        kind: 'failed',
        failure: judgeFailure(new UpstreamFailure('aborted', 'the client went away')),
      };
    }
    if (!complete && !stopped) {
      if (failure) return { kind: 'failed', failure: judgeFailure(failure) };
      const why = problem ?? 'the upstream closed the stream without answering';
      return { kind: 'failed', failure: judgeBadAnswer(why, input.channel.key) };
    }
    open();
    await flush();
  }

  const streamError = encoder ? encoder.error.bind(encoder) : inbound.streamError;
  let outcome: AttemptOutcome = { ok: true };
  let interruption: StreamInterruption | undefined;
  if (complete) {
    // A converted stream's closing events carry the billed usage: written by finish().
    if (!done && !encoder) await sink.write(inbound.streamEnd);
  } else if (stopped) {
    // Not the channel's fault; billed below for exactly what the client was sent.
    interruption = { by: 'quota' };
    // Whatever the upstream said it used, the client got only what was sent: Sluice counts that.
    usage = undefined;
    await sink.write(
      streamError({
        status: 403,
        message: 'the stream was stopped: the quota left does not pay for more output',
        type: 'insufficient_quota',
        code: 'insufficient_quota',
      }),
    );
  } else if (clientGone) {
    interruption = { by: 'client' };
    outcome = { ok: null };
  } else {
    const message = redactUpstreamMessage(
      problem ?? failure?.message ?? 'the upstream closed the stream before it finished',
      input.channel.key,
    );
    interruption = { by: 'upstream', reason: message };
    outcome = { ok: false, definitive: false, reason: message };
    await sink.write(
      streamError({ status: 502, message, type: 'upstream_error', code: 'stream_interrupted' }),
    );
  }
  return {
    kind: 'delivered',
    ...(usage ? { usage } : {}),
    countCompletion: () => counter.total(),
    firstResponseMs,
    outcome,
    ...(interruption ? { interruption } : {}),
    finish: (billed) => {
      if (complete && encoder) void sink.write(encoder.end(billed));
      sink.end();
    },
  };
}
