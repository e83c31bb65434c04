// Sends upstream calls over undici's keep-alive connection pools (one per origin). The only module
// that opens connections to providers. Calls go through undici's dispatch API with a handler of our
// own: the answer's chunks land in a small queue the relay reads (a whole JSON body in one piece, a
// stream chunk by chunk with back-pressure), without a Node stream, an AbortSignal or promise plumbing
// per call — the relay's hottest path. Timeouts are ours too (Deadlines): one timer checks every call
// in flight, instead of undici's per-call timers.
import { Agent } from 'undici';
import type { Dispatcher } from 'undici';
import type { UpstreamRequest } from '../ir/request.js';

export interface RelayTimeouts {
  /** Connect + request sent + response headers received. */
  headersMs: number;
  /** Longest silence between two body chunks. */
  bodyMs: number;
}

/** RELAY_TIMEOUT (seconds, as in one-api/new-api) bounds both waits; unset keeps undici's 300 s. */
export function relayTimeoutsFromEnv(env: NodeJS.ProcessEnv): RelayTimeouts {
  const seconds = Number(env.RELAY_TIMEOUT ?? '');
  const ms = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 300_000;
  return { headersMs: ms, bodyMs: ms };
}

/** Who may call an upstream call off: the client going away, or a deadline. */
export interface Cancellation {
  readonly aborted: boolean;
  /** Runs `listener` once when the call is cancelled; returns a function that forgets it. */
  onAbort(listener: () => void): () => void;
}

/** A Cancellation driven by an AbortSignal (deadlines such as `AbortSignal.timeout`). */
export function cancellationOf(signal: AbortSignal): Cancellation {
  return {
    get aborted() {
      return signal.aborted;
    },
    onAbort(listener) {
      signal.addEventListener('abort', listener, { once: true });
      return () => signal.removeEventListener('abort', listener);
    },
  };
}

/** The body of an upstream answer: read whole (JSON) or chunk by chunk (streams). */
export interface UpstreamBody extends AsyncIterable<Buffer> {
  /** The whole answer; fails when it is larger than `limit` bytes (the connection is dropped). */
  readAll(limit?: number): Promise<Buffer>;
  /** Stops reading and drops the connection (nothing more is needed). */
  destroy(): void;
}

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: UpstreamBody;
}

export type UpstreamFailureKind = 'timeout' | 'connection' | 'aborted';

/** The call did not produce an answer: it timed out, the connection failed, or it was cancelled. */
export class UpstreamFailure extends Error {
  constructor(
    readonly kind: UpstreamFailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'UpstreamFailure';
  }
}

/**
 * Whether an error met while reading an answer came from the upstream or the connection (ours, or
 * undici's and the socket's, which carry a code) rather than from the relay's own code.
 */
export function isUpstreamFault(error: unknown, cancel?: Cancellation): boolean {
  if (error instanceof UpstreamFailure || cancel?.aborted) return true;
  const e = error as { code?: unknown; name?: unknown } | null;
  return typeof e?.code === 'string' || e?.name === 'AbortError';
}

export function toUpstreamFailure(error: unknown, cancel?: Cancellation): UpstreamFailure {
  if (error instanceof UpstreamFailure) return error;
  const e = error as { code?: unknown; name?: unknown };
  if (cancel?.aborted || e?.name === 'AbortError' || e?.code === 'UND_ERR_ABORTED') {
    return new UpstreamFailure('aborted', 'the call was cancelled');
  }
  // Header and body deadlines are ours (Deadlines, below) and fail as 'timeout' already; only
  // connecting is timed by undici.
  if (e?.code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new UpstreamFailure('timeout', 'the upstream did not answer in time (connecting)');
  }
  // Only the error's code: its message names the upstream's address (connect ECONNREFUSED 10.0.0.5:8080).
  const code = typeof e?.code === 'string' && /^[A-Z][A-Z0-9_]*$/.test(e.code) ? ` (${e.code})` : '';
  return new UpstreamFailure('connection', `the connection to the upstream failed${code}`);
}

export interface UpstreamClient {
  send(
    request: UpstreamRequest,
    cancel: Cancellation,
    timeouts?: Partial<RelayTimeouts>,
  ): Promise<UpstreamResponse>;
  close(): Promise<void>;
}

/** Reading pauses the connection once this much is queued unread. */
const HIGH_WATER = 256 * 1024;
const DEFAULT_LIMIT = 64 * 1024 * 1024;

/** Origin and path of each URL sent to, parsed once (a handful of base URLs × endpoints). */
const targets = new Map<string, { origin: string; path: string }>();
function targetOf(url: string): { origin: string; path: string } {
  let target = targets.get(url);
  if (!target) {
    const parsed = new URL(url);
    target = { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
    if (targets.size >= 1024) targets.clear();
    targets.set(url, target);
  }
  return target;
}

const seconds = (ms: number): string => `${Math.round(ms / 100) / 10}s`;

/**
 * The deadlines of the calls in flight, checked by one timer while any call is open. undici's own
 * header and body timers are switched off: each call left one behind in undici's timer list for up to
 * a second after it ended, so every call put garbage into the old generation. A call notes the tick
 * of its last sign of life; it times out once more than its limit has passed since (a tick late at
 * most).
 */
class Deadlines {
  /** Counts the timer's ticks. */
  tick = 0;
  /**
   * The open calls, each knowing its index. An array with swap-removal, not a Set: a Set that churns
   * rehashes into new tables, and its old tables (kept for iterators) held on to finished calls until a
   * full collection, which promoted them all into the old generation.
   */
  private readonly calls: UpstreamCall[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(readonly tickMs: number) {}

  watch(call: UpstreamCall): void {
    call.deadlineSlot = this.calls.length;
    this.calls.push(call);
    if (this.timer) return;
    this.timer = setInterval(() => this.check(), this.tickMs);
    this.timer.unref();
  }

  forget(call: UpstreamCall): void {
    const slot = call.deadlineSlot;
    if (slot < 0) return;
    call.deadlineSlot = -1;
    const last = this.calls.pop() as UpstreamCall;
    if (last === call) return;
    this.calls[slot] = last;
    last.deadlineSlot = slot;
  }

  /** Ticks that must pass, since a call's last sign of life, before `limitMs` surely has. */
  ticksFor(limitMs: number): number {
    return Math.ceil(limitMs / this.tickMs) + 1;
  }

  private check(): void {
    this.tick++;
    if (this.calls.length === 0) {
      this.stop();
      return;
    }
    // A copy: a call that times out leaves the list.
    for (const call of this.calls.slice()) call.checkDeadline(this.tick);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

/**
 * One upstream call: an undici dispatch handler that is also the answer's body. Chunks queue until
 * read; a reader waits on one pending promise at a time.
 */
class UpstreamCall implements Dispatcher.DispatchHandler, UpstreamBody {
  private controller: Dispatcher.DispatchController | undefined;
  private chunks: Buffer[] = [];
  private queued = 0;
  private ended = false;
  private failure: UpstreamFailure | undefined;
  private wake: (() => void) | undefined;
  private readonly forget: () => void;
  private settleStart:
    { resolve: (res: UpstreamResponse) => void; reject: (error: UpstreamFailure) => void } | undefined;
  readonly started: Promise<UpstreamResponse>;
  /** The deadlines' tick at the call's last sign of life (sent, headers, a chunk). */
  private alive: number;
  /** Where Deadlines keeps the call while it is open; -1 once it is not. */
  deadlineSlot = -1;
  private headersArrived = false;
  /** Set by readAll: the reader takes the body whole, so reading is never paused. */
  private readingWhole = false;

  constructor(
    private readonly cancel: Cancellation,
    private readonly deadlines: Deadlines,
    private readonly timeouts: RelayTimeouts,
  ) {
    this.started = new Promise((resolve, reject) => (this.settleStart = { resolve, reject }));
    this.forget = cancel.onAbort(() => this.abort(new UpstreamFailure('aborted', 'the call was cancelled')));
    this.alive = deadlines.tick;
    deadlines.watch(this);
  }

  /** Aborts the call when the upstream has been silent for longer than it may be. */
  checkDeadline(tick: number): void {
    // Reading paused by us (a slow client) is not the upstream's silence.
    if (this.controller?.paused) {
      this.alive = tick;
      return;
    }
    const limitMs = this.headersArrived ? this.timeouts.bodyMs : this.timeouts.headersMs;
    if (limitMs <= 0 || tick - this.alive < this.deadlines.ticksFor(limitMs)) return;
    const what = this.headersArrived
      ? `no data for ${seconds(limitMs)}`
      : `no response headers within ${seconds(limitMs)}`;
    this.abort(new UpstreamFailure('timeout', `the upstream did not answer in time (${what})`));
  }

  private abort(failure: UpstreamFailure): void {
    if (this.controller && !this.controller.aborted) this.controller.abort(failure);
    else this.fail(failure);
  }

  private fail(failure: UpstreamFailure): void {
    if (this.ended || this.failure) return;
    this.failure = failure;
    this.forget();
    this.deadlines.forget(this);
    const start = this.settleStart;
    this.settleStart = undefined;
    start?.reject(failure);
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    // Cancelled or timed out while undici still held the request in its queue.
    if (this.failure) controller.abort(this.failure);
    else if (this.cancel.aborted) controller.abort(new UpstreamFailure('aborted', 'the call was cancelled'));
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    if (statusCode < 200) return; // informational answers come before the real one
    this.headersArrived = true;
    this.alive = this.deadlines.tick;
    const start = this.settleStart;
    this.settleStart = undefined;
    start?.resolve({ status: statusCode, headers, body: this });
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.alive = this.deadlines.tick;
    this.chunks.push(chunk);
    this.queued += chunk.length;
    // A whole-body read wants every byte (its limit bounds it); only a stream reader pauses the upstream.
    if (!this.readingWhole && this.queued >= HIGH_WATER && this.wake === undefined) controller.pause();
    this.notify();
  }

  onResponseEnd(): void {
    this.ended = true;
    this.forget();
    this.deadlines.forget(this);
    this.notify();
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    this.fail(toUpstreamFailure(error, this.cancel));
  }

  private waitForMore(): Promise<void> {
    const more = new Promise<void>((resolve) => (this.wake = resolve));
    // After the waker is set: resuming can hand over queued data at once, and that data must wake us
    // (before, it found no waker, paused again and the read waited forever with no deadline running).
    if (this.controller?.paused) this.controller.resume();
    return more;
  }

  async readAll(limit = DEFAULT_LIMIT): Promise<Buffer> {
    this.readingWhole = true;
    while (!this.ended) {
      if (this.failure) throw this.failure;
      if (this.queued > limit) {
        this.destroy();
        throw new UpstreamFailure('connection', `the upstream answer is larger than ${limit} bytes`);
      }
      await this.waitForMore();
    }
    if (this.queued > limit) {
      throw new UpstreamFailure('connection', `the upstream answer is larger than ${limit} bytes`);
    }
    const chunks = this.chunks;
    this.chunks = [];
    return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, this.queued);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Buffer> {
    try {
      for (;;) {
        if (this.chunks.length > 0) {
          const chunks = this.chunks;
          this.chunks = [];
          this.queued = 0;
          yield chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
          continue;
        }
        if (this.failure) throw this.failure;
        if (this.ended) return;
        await this.waitForMore();
      }
    } finally {
      // A reader that stops early (break, error) no longer wants the rest.
      if (!this.ended) this.destroy();
    }
  }

  destroy(): void {
    if (this.ended || this.failure) return;
    this.abort(new UpstreamFailure('aborted', 'the answer was not read to the end'));
  }
}

/** A quarter of the shortest timeout, between 10 ms and 1 s: how late a deadline may be noticed. */
const tickFor = (t: RelayTimeouts): number =>
  Math.min(1000, Math.max(10, Math.floor(Math.min(t.headersMs, t.bodyMs) / 4)));

export function createUpstreamClient(timeouts: RelayTimeouts): UpstreamClient {
  const agent = new Agent({
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 600_000,
    // Timed by Deadlines instead.
    headersTimeout: 0,
    bodyTimeout: 0,
    connect: { timeout: Math.min(timeouts.headersMs, 30_000) },
  });
  const deadlines = new Deadlines(tickFor(timeouts));
  return {
    send(request, cancel, override) {
      if (cancel.aborted) return Promise.reject(new UpstreamFailure('aborted', 'the call was cancelled'));
      const limits = override
        ? {
            headersMs: override.headersMs ?? timeouts.headersMs,
            bodyMs: override.bodyMs ?? timeouts.bodyMs,
          }
        : timeouts;
      const call = new UpstreamCall(cancel, deadlines, limits);
      try {
        const { origin, path } = targetOf(request.url);
        agent.dispatch(
          {
            origin,
            path,
            method: request.method,
            headers: request.headers,
            body: request.body,
          },
          call,
        );
      } catch (error) {
        call.onResponseError(undefined, error as Error);
      }
      return call.started;
    },
    close: () => {
      deadlines.stop();
      return agent.close();
    },
  };
}
