// :streamGenerateContent without alt=sse. Google then streams one JSON array whose elements arrive as
// they are generated: `[{…}` then `,\r\n{…}` per response and a closing `]`. The pipeline writes a
// Gemini stream as server-sent events (the upstream's own, re-encoded ones, or an error event); this
// sink re-frames each event's data as the next array element.
import type { FastifyReply } from 'fastify';
import { createClientSink } from '../../pipeline/client-sink.js';
import type { ClientSink } from '../../pipeline/client-sink.js';
import { SseDecoder } from '../../sse.js';
import type { SseEvent } from '../../sse.js';
import type { CallSetup } from '../call-setup.js';

/** SSE bytes in, JSON-array pieces out; `close` gives the array's end. */
export class ArrayFramer {
  private readonly sse = new SseDecoder();
  private started = false;

  push(data: Buffer | string): string {
    return this.frame(this.sse.push(typeof data === 'string' ? Buffer.from(data) : data));
  }

  close(): string {
    const rest = this.frame(this.sse.end());
    return rest + (this.started ? ']' : '[]');
  }

  private frame(events: SseEvent[]): string {
    let out = '';
    for (const event of events) {
      if (event.data === undefined || event.data.length === 0) continue;
      out += (this.started ? ',\r\n' : '[') + event.data;
      this.started = true;
    }
    return out;
  }
}

/** One literal with every header, as Google answers a streamed array. */
const arrayHeaders = (requestId: string) => ({
  'content-type': 'application/json; charset=UTF-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
  'x-request-id': requestId,
});

function arraySink(reply: FastifyReply): ClientSink {
  const base = createClientSink(reply);
  const framer = new ArrayFramer();
  let streaming = false;
  return {
    get aborted() {
      return base.aborted;
    },
    onAbort: (listener) => base.onAbort(listener),
    get streaming() {
      return streaming;
    },
    // Answers that are not a stream (errors before the first event) go out as plain JSON.
    sendJson: (status, body, retryAfter) => base.sendJson(status, body, retryAfter),
    startStream() {
      streaming = true;
      reply.hijack();
      reply.raw.writeHead(200, arrayHeaders(String(reply.request.id)));
    },
    write(data) {
      const out =
        typeof data === 'string' || Buffer.isBuffer(data)
          ? framer.push(data)
          : data.map((piece) => framer.push(piece)).join('');
      return out === '' ? Promise.resolve() : base.write(out);
    },
    end() {
      void base.write(framer.close());
      base.end();
    },
  };
}

/** The call setup of a streamed array: the runtime as it is, the re-framing sink. */
export const jsonArrayStream: CallSetup = (rt, _ir, reply) => ({ rt, sink: arraySink(reply) });
