// The HTTP edge of the relay: a JSON parser that keeps the client's bytes (so a same-format call can
// forward them untouched) and an error handler that answers in the client's format.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../http/envelope.js';
import { RelayError } from './ir/errors.js';
import type { IrError } from './ir/errors.js';
import type { InboundFormat } from './inbound/types.js';
import { openAiErrorBody } from './inbound/openai-shared.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request body as received, on relay routes. */
    rawBody: Buffer | null;
  }
  interface FastifyContextConfig {
    /** The client-facing format of a relay route; errors are answered in it. */
    relayInbound?: InboundFormat;
  }
}

export function installRelayBodyParser(scope: FastifyInstance): void {
  scope.decorateRequest('rawBody', null);
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    const raw = body as Buffer;
    req.rawBody = raw;
    if (raw.length === 0) return done(null, undefined);
    try {
      done(null, JSON.parse(raw.toString('utf8')));
    } catch {
      done(new RelayError(400, 'the request body is not valid JSON', 'invalid_json'), undefined);
    }
  });
}

function toIrError(error: FastifyError | Error): IrError {
  if (error instanceof RelayError) return error.toIr();
  if (error instanceof ApiError) {
    return { status: error.status, message: error.message, type: 'invalid_request_error', code: null };
  }
  const status = (error as FastifyError).statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return {
      status,
      message: error.message,
      type: 'invalid_request_error',
      code: (error as FastifyError).code ?? null,
    };
  }
  return {
    status: 500,
    message: 'internal error, please contact the administrator',
    type: 'server_error',
    code: null,
  };
}

export function relayErrorHandler(error: FastifyError | Error, req: FastifyRequest, reply: FastifyReply) {
  const ir = toIrError(error);
  if (ir.status >= 500) req.log.error({ err: error }, 'relay error');
  if (reply.sent || reply.raw.headersSent) {
    // A stream already started: its own error event was written; just close it.
    reply.raw.end();
    return;
  }
  const inbound = req.routeOptions.config.relayInbound;
  return reply.status(ir.status).send(inbound ? inbound.errorBody(ir) : openAiErrorBody(ir));
}
