// The HTTP edge of the relay: a JSON parser that keeps the client's bytes (so a same-format call can
// forward them untouched) and an error handler that answers in the client's format (and counts the
// calls refused before the pipeline began).
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from 'fastify';
import { ApiError } from '../http/envelope.js';
import type { CallRecord } from '../platform/metrics.js';
import { RelayError } from './ir/errors.js';
import type { IrError } from './ir/errors.js';
import type { InboundFormat } from './inbound/types.js';
import { openAiErrorBody } from './inbound/openai-shared.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request body as received, on relay routes. */
    rawBody: Buffer | null;
    /** Set once a relay call starts (relay.routes.ts), which then counts it itself. */
    relayRecord: CallRecord | null;
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

/** The status a relay route answers an error with. */
export const relayErrorStatus = (error: unknown): number =>
  toIrError(error instanceof Error ? error : new Error(String(error))).status;

/** The `format` of a call's metrics and access line: its chat dialect, or the endpoint for the rest. */
export const formatLabel = (inbound: InboundFormat): string =>
  inbound.mode === 'chat' ? inbound.wireFormat : inbound.mode;

export function relayErrorHandler(error: FastifyError | Error, req: FastifyRequest, reply: FastifyReply) {
  const ir = toIrError(error);
  if (ir.status >= 500) req.log.error({ err: error }, 'relay error');
  const inbound = req.routeOptions.config.relayInbound;
  // A call refused before relay.routes.ts began it (a bad key, a body that is not JSON) is counted
  // here; model lists (GET) are not calls.
  if (inbound && req.method === 'POST' && req.relayRecord === null) {
    req.server.ctx.metrics.callRefused(formatLabel(inbound), ir.status);
  }
  if (reply.sent || reply.raw.headersSent) {
    // A stream already started: its own error event was written; just close it.
    reply.raw.end();
    return;
  }
  return reply.status(ir.status).send(inbound ? inbound.errorBody(ir) : openAiErrorBody(ir));
}

/** Relay routes are called from browsers too (any origin: the caller's key is the credential, not a cookie). */
const CORS_PREFLIGHT_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
  'access-control-allow-headers':
    'authorization, content-type, x-api-key, x-goog-api-key, anthropic-version, anthropic-beta, ' +
    'openai-organization, openai-project, mj-api-secret, x-requested-with',
  'access-control-max-age': '86400',
};

/**
 * CORS for /v1: one header on every answer (set on the raw response, so streams written past Fastify
 * carry it too), and preflights answered 204; plus a 501 in the OpenAI shape for paths the relay does
 * not serve, instead of a bare 404.
 */
export function installRelayEdges(scope: FastifyInstance): void {
  scope.addHook('onRequest', (_req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    reply.raw.setHeader('access-control-allow-origin', '*');
    done();
  });
  scope.options('/v1/*', (_req, reply) => reply.code(204).headers(CORS_PREFLIGHT_HEADERS).send());
  scope.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/v1/*',
    handler: (req) => {
      const path = req.url.split('?')[0] ?? req.url;
      throw new RelayError(501, `${req.method} ${path} is not supported`, 'unsupported_endpoint');
    },
  });
}
