// The client side of a relay call: a JSON answer, or a stream written straight to the socket with
// backpressure. The sink is also the call's cancellation: it fires when the client goes away before
// the answer is complete, which aborts the upstream call.
import type { FastifyReply } from 'fastify';
import type { Cancellation } from './upstream-client.js';

export interface ClientSink extends Cancellation {
  /** Stream headers have been sent: the status can no longer change. */
  readonly streaming: boolean;
  /** `retryAfter`: the upstream's Retry-After, passed on with a final 429/503. */
  sendJson(status: number, body: Buffer | string, retryAfter?: string): void;
  startStream(): void;
  /**
   * Writes `data` (several pieces in a row when it is a list, in one socket write); resolves once the
   * socket can take more (or the client is gone).
   */
  write(data: Buffer | string | readonly Buffer[]): Promise<void>;
  end(): void;
}

/** One literal with every header (not a spread plus the id, which would make a hidden class per call). */
const streamHeaders = (requestId: string) => ({
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  // Proxies such as nginx must not hold events back.
  'x-accel-buffering': 'no',
  'x-request-id': requestId,
});

const jsonHeaders = (requestId: string, body: Buffer | string) => ({
  'content-type': 'application/json; charset=utf-8',
  'content-length': typeof body === 'string' ? Buffer.byteLength(body) : body.length,
  'x-request-id': requestId,
});

class ReplySink implements ClientSink {
  aborted = false;
  streaming = false;
  private listeners: Array<() => void> = [];

  constructor(private readonly reply: FastifyReply) {
    const res = reply.raw;
    res.once('close', () => {
      if (res.writableFinished || this.aborted) return;
      this.aborted = true;
      const listeners = this.listeners;
      this.listeners = [];
      for (const listener of listeners) listener();
    });
  }

  onAbort(listener: () => void): () => void {
    this.listeners.push(listener);
    return () => {
      const at = this.listeners.indexOf(listener);
      if (at >= 0) this.listeners.splice(at, 1);
    };
  }

  sendJson(status: number, body: Buffer | string, retryAfter?: string): void {
    // Written straight to the socket, as streams are: Fastify's send path (its onSend hooks, header
    // merging) cost about 2% of a same-format JSON call's instructions (callgrind). Sent even to a
    // client that left, so the request's life cycle ends as usual.
    this.reply.hijack();
    const headers: Record<string, string | number> = jsonHeaders(String(this.reply.request.id), body);
    if (retryAfter !== undefined) headers['retry-after'] = retryAfter;
    this.reply.raw.writeHead(status, headers).end(body);
  }

  startStream(): void {
    this.streaming = true;
    this.reply.hijack();
    this.reply.raw.writeHead(200, streamHeaders(String(this.reply.request.id)));
  }

  write(data: Buffer | string | readonly Buffer[]): Promise<void> {
    const res = this.reply.raw;
    if (res.destroyed || res.writableEnded) return Promise.resolve();
    // Writes in one tick leave in one socket write: Node corks the socket until the next tick.
    let ready = true;
    if (typeof data === 'string' || Buffer.isBuffer(data)) ready = res.write(data);
    else for (const piece of data) ready = res.write(piece) && ready;
    if (ready) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        res.off('drain', done);
        res.off('close', done);
        resolve();
      };
      res.on('drain', done);
      res.on('close', done);
    });
  }

  end(): void {
    const res = this.reply.raw;
    if (!res.destroyed && !res.writableEnded) res.end();
  }
}

export const createClientSink = (reply: FastifyReply): ClientSink => new ReplySink(reply);
