// The client side of a relay call: a JSON answer, or a stream written straight to the socket with
// backpressure, and a signal that fires when the client goes away before the answer is complete.
import type { FastifyReply } from 'fastify';

export interface ClientSink {
  readonly signal: AbortSignal;
  /** Stream headers have been sent: the status can no longer change. */
  readonly streaming: boolean;
  sendJson(status: number, body: Buffer | string): void;
  startStream(): void;
  /** Resolves once the socket can take more (or the client is gone). */
  write(data: Buffer | string): Promise<void>;
  end(): void;
}

export function createClientSink(reply: FastifyReply): ClientSink {
  const res = reply.raw;
  const controller = new AbortController();
  let streaming = false;
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });

  const drained = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        res.off('drain', done);
        res.off('close', done);
        resolve();
      };
      res.on('drain', done);
      res.on('close', done);
    });

  return {
    signal: controller.signal,
    get streaming() {
      return streaming;
    },
    sendJson(status, body) {
      // Sent even to a client that left, so Fastify finishes the request's life cycle.
      void reply.code(status).header('content-type', 'application/json; charset=utf-8').send(body);
    },
    startStream() {
      streaming = true;
      reply.hijack();
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
        // Proxies such as nginx must not hold events back.
        'x-accel-buffering': 'no',
        'x-request-id': String(reply.request.id),
      });
    },
    async write(data) {
      if (res.destroyed || res.writableEnded) return;
      if (!res.write(data)) await drained();
    },
    end() {
      if (!res.destroyed && !res.writableEnded) res.end();
    },
  };
}
