// Google's Gemini API paths: POST models/{model}:{method} under /v1beta and, as Google also serves
// them, /v1; GET /v1beta/models[/{model}]; CORS preflights and a Google-shaped 501 for any other
// /v1beta path. Keys come from x-goog-api-key or ?key= (relay auth reads both); errors are Google's.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { countTokens } from '../../../billing/token-counter.js';
import { authenticateRelay, checkModelAllowed } from '../../auth/relay-auth.js';
import type { RelayCaller } from '../../auth/relay-auth.js';
import { RelayError } from '../../ir/errors.js';
import type { RelayRuntime } from '../../pipeline/relay-runtime.js';
import type { CallSetup } from '../call-setup.js';
import { usableModels } from '../models/models.routes.js';
import type { InboundFormat } from '../types.js';
import { jsonArrayStream } from './array-stream.js';
import { GeminiCall, countTokensText, geminiEmbedContent, geminiGenerateContent } from './index.js';
import { googleModelOf, googleModelPage } from './model-list.js';

/** How relay.routes.ts runs a call (auth done): parse, limits, the pipeline. */
export type RelayRunner = (
  rt: RelayRuntime,
  inbound: InboundFormat,
  req: FastifyRequest,
  reply: FastifyReply,
  caller: RelayCaller,
  body: unknown,
  raw: Buffer | undefined,
  setup?: CallSetup,
) => Promise<FastifyReply>;

type Wildcard = { Params: { '*': string } };
type WildcardRequest = FastifyRequest<Wildcard>;

/** What browsers may send to the Gemini paths (the SDK adds x-goog-api-client). */
const CORS_PREFLIGHT_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers':
    'content-type, x-goog-api-key, x-goog-api-client, x-goog-user-project, authorization, x-requested-with',
  'access-control-max-age': '86400',
};

const queryParam = (req: FastifyRequest, name: string): string | undefined => {
  const value = (req.query as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
};

/** `gemini-2.5-flash:generateContent` → model and method; the method follows the last colon. */
export function splitTarget(target: string): { model: string; method: string } | undefined {
  const colon = target.lastIndexOf(':');
  if (colon <= 0) return undefined;
  return { model: target.slice(0, colon).replace(/^models\//, ''), method: target.slice(colon + 1) };
}

const callerOf = (req: FastifyRequest): RelayCaller => {
  if (!req.relayCaller) throw new RelayError(401, 'API key not valid. Please pass a valid API key.');
  return req.relayCaller;
};

/** A batch is the only body of batchEmbedContents, and never one of embedContent. */
function checkEmbedMethod(method: string, body: unknown): void {
  const batch = typeof body === 'object' && body !== null && 'requests' in body;
  if (batch !== (method === 'batchEmbedContents')) {
    const expected = method === 'batchEmbedContents' ? '`requests`' : '`content`, not `requests`';
    throw new RelayError(
      400,
      `Invalid JSON payload received: ${method} takes ${expected}.`,
      'invalid_request',
    );
  }
}

export function registerGeminiRoutes(scope: FastifyInstance, rt: RelayRuntime, relay: RelayRunner): void {
  const config = { relayInbound: geminiGenerateContent };
  const onRequest = async (req: FastifyRequest) => {
    req.relayCaller = await authenticateRelay(rt, req);
  };

  const method = async (req: WildcardRequest, reply: FastifyReply) => {
    const target = splitTarget(req.params['*']);
    if (!target)
      throw new RelayError(404, `${req.method} ${req.url.split('?')[0]} is not found`, 'not_found');
    const caller = callerOf(req);
    const raw = req.rawBody ?? undefined;
    const { model } = target;
    switch (target.method) {
      case 'generateContent':
      case 'streamGenerateContent': {
        const stream = target.method === 'streamGenerateContent';
        // Without alt=sse Google streams one JSON array; clients reading it get that framing.
        const setup = stream && queryParam(req, 'alt') !== 'sse' ? jsonArrayStream : undefined;
        const call = new GeminiCall(model, stream, req.body);
        return relay(rt, geminiGenerateContent, req, reply, caller, call, raw, setup);
      }
      case 'embedContent':
      case 'batchEmbedContents':
        checkEmbedMethod(target.method, req.body);
        return relay(rt, geminiEmbedContent, req, reply, caller, new GeminiCall(model, false, req.body), raw);
      case 'countTokens': {
        // Free, like Google's: the prompt counted with Sluice's tokenizer.
        const text = countTokensText(req.body);
        checkModelAllowed(caller, model);
        const totalTokens = await countTokens(text, model);
        return { totalTokens, promptTokensDetails: [{ modality: 'TEXT', tokenCount: totalTokens }] };
      }
      default:
        throw new RelayError(501, `the method ${target.method} is not supported`, 'unsupported_endpoint');
    }
  };
  for (const prefix of ['/v1beta', '/v1']) {
    scope.post<Wildcard>(`${prefix}/models/*`, { config, onRequest }, method);
  }

  scope.get('/v1beta/models', { config, onRequest }, async (req) =>
    googleModelPage(
      (await usableModels(rt, callerOf(req))).map((m) => m.id),
      req.query,
    ),
  );
  scope.get<Wildcard>('/v1beta/models/*', { config, onRequest }, async (req) =>
    googleModelOf(
      (await usableModels(rt, callerOf(req))).map((m) => m.id),
      req.params['*'],
    ),
  );

  scope.options('/v1beta/*', (_req, reply) => reply.code(204).headers(CORS_PREFLIGHT_HEADERS).send());
  scope.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/v1beta/*',
    config,
    handler: (req) => {
      const path = req.url.split('?')[0] ?? req.url;
      throw new RelayError(501, `${req.method} ${path} is not supported`, 'unsupported_endpoint');
    },
  });
}
