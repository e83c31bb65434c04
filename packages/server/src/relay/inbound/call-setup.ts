// Per-endpoint adjustments of one relay call that the shared pipeline does not know about: a view of
// the runtime (a per-call price scaled for this request) and the client sink (answers that are not
// JSON keep the upstream's content type). Both wrap the real objects; nothing global changes.
import type { FastifyReply } from 'fastify';
import type { OptionKey, OptionValue } from '@sluice/shared';
import type { IrRequest } from '../ir/request.js';
import { createClientSink } from '../pipeline/client-sink.js';
import type { ClientSink } from '../pipeline/client-sink.js';
import type { RelayRuntime } from '../pipeline/relay-runtime.js';
import type { UpstreamClient } from '../pipeline/upstream-client.js';

export type CallSetup = (
  rt: RelayRuntime,
  ir: IrRequest,
  reply: FastifyReply,
) => { rt: RelayRuntime; sink: ClientSink };

/** The runtime as this call sees it, with the per-call price of `model` replaced by `price`. */
export function withModelPrice(rt: RelayRuntime, model: string, price: number): RelayRuntime {
  const options = rt.ctx.options;
  const get = <K extends OptionKey>(key: K): OptionValue<K> =>
    key === 'ModelPrice'
      ? ({ ...options.get('ModelPrice'), [model]: price } as OptionValue<K>)
      : options.get(key);
  return { ...rt, ctx: { ...rt.ctx, options: { ...options, get } } };
}

const headerValue = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value[0] : value;

/**
 * Answers with the upstream's own content type (audio, plain-text transcripts, subtitles) instead of
 * JSON. Errors are still OpenAI JSON.
 */
export const passUpstreamContentType: CallSetup = (rt, _ir, reply) => {
  let contentType: string | undefined;
  const upstream: UpstreamClient = {
    ...rt.upstream,
    async send(request, cancel, timeouts) {
      const res = await rt.upstream.send(request, cancel, timeouts);
      if (res.status >= 200 && res.status < 300) contentType = headerValue(res.headers['content-type']);
      return res;
    },
  };
  const base = createClientSink(reply);
  const sink: ClientSink = {
    get aborted() {
      return base.aborted;
    },
    onAbort: (listener) => base.onAbort(listener),
    get streaming() {
      return base.streaming;
    },
    sendJson(status, body, retryAfter) {
      if (status < 200 || status >= 300 || contentType === undefined) {
        return base.sendJson(status, body, retryAfter);
      }
      void reply.code(status).header('content-type', contentType).send(body);
    },
    startStream: () => base.startStream(),
    write: (data) => base.write(data),
    end: () => base.end(),
  };
  return { rt: { ...rt, upstream }, sink };
};
