// The relay: OpenAI-compatible endpoints under /v1 (token auth) and the console playground under /pg
// (session auth), each turned into the IR and run through the pipeline; every call ends with its
// metrics and one access log line.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import { currentUser } from '../http/auth-guard.js';
import { newCallRecord } from '../platform/metrics.js';
import { authenticateRelay, checkGroup, checkModelAllowed, checkUser, loggedIp } from './auth/relay-auth.js';
import type { RelayCaller } from './auth/relay-auth.js';
import { limitModelRequests } from './auth/model-request-limit.js';
import { openAiChat } from './inbound/openai-chat/index.js';
import { claudeMessages } from './inbound/claude-messages/index.js';
import { openAiResponses } from './inbound/openai-responses/index.js';
import { openAiCompletions } from './inbound/openai-completions/index.js';
import type { InboundFormat } from './inbound/types.js';
import { passUpstreamContentType } from './inbound/call-setup.js';
import type { CallSetup } from './inbound/call-setup.js';
import { installMultipartParser } from './inbound/audio/multipart.js';
import { openAiSpeech } from './inbound/audio/speech.js';
import { openAiTranscriptions, openAiTranslations } from './inbound/audio/transcription.js';
import { openAiEmbeddings } from './inbound/embeddings/index.js';
import { openAiImages, priceImageOrder } from './inbound/images/index.js';
import { registerModelRoutes } from './inbound/models/models.routes.js';
import { registerGeminiRoutes } from './inbound/gemini/gemini.routes.js';
import { openAiModerations } from './inbound/moderations/index.js';
import { openAiRerank } from './inbound/rerank/index.js';
import { createClientSink } from './pipeline/client-sink.js';
import { runRelayCall } from './pipeline/relay-call.js';
import { relayRuntime } from './pipeline/relay-runtime.js';
import type { RelayRuntime } from './pipeline/relay-runtime.js';
import {
  formatLabel,
  installRelayBodyParser,
  installRelayEdges,
  relayErrorHandler,
  relayErrorStatus,
} from './relay-http.js';
import { RelayError } from './ir/errors.js';
import { scheduleRelayJobs } from '../jobs/relay-jobs.js';
import { isRecord } from './wire/json.js';
import { registerTaskRelayRoutes } from './tasks/routes.js';
import { registerLegacyBillingRoutes } from './inbound/billing/billing.routes.js';

async function relay(
  rt: RelayRuntime,
  inbound: InboundFormat,
  req: FastifyRequest,
  reply: FastifyReply,
  caller: RelayCaller,
  body: unknown,
  raw: Buffer | undefined,
  setup?: CallSetup,
): Promise<FastifyReply> {
  const startedMs = Date.now();
  const record = newCallRecord(req.id, caller.userId, formatLabel(inbound), startedMs);
  req.relayRecord = record;
  rt.ctx.metrics.callStarted();
  try {
    const limited = limitModelRequests(rt, req, reply, caller);
    if (limited) await limited;
    const ir = inbound.parse(body, raw, req.headers);
    record.model = ir.model;
    record.stream = ir.stream;
    checkModelAllowed(caller, ir.model);
    const call = setup ? setup(rt, ir, reply) : { rt, sink: createClientSink(reply) };
    await runRelayCall({
      rt: call.rt,
      inbound,
      ir,
      caller,
      sink: call.sink,
      startedMs,
      requestId: req.id,
      record,
    });
    record.status = reply.statusCode;
  } catch (error) {
    // A stream that began keeps its 200; anything else is answered by relayErrorHandler with this.
    record.status = reply.raw.headersSent ? reply.statusCode : relayErrorStatus(error);
    throw error;
  } finally {
    record.durationMs = Date.now() - startedMs;
    rt.ctx.metrics.callEnded(record);
    // The access log line: the record as it stands (LOG_LEVEL=warn or above silences it).
    rt.logger.info(record, 'relay call');
  }
  return reply;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller of a token-keyed relay route. */
    relayCaller: RelayCaller | null;
  }
}

/** An OpenAI endpoint called with a token key; the key is checked before the body is read. */
function tokenRoute(
  scope: FastifyInstance,
  rt: RelayRuntime,
  url: string,
  inbound: InboundFormat,
  setup?: CallSetup,
): void {
  scope.post(
    url,
    {
      config: { relayInbound: inbound },
      onRequest: async (req) => {
        req.relayCaller = await authenticateRelay(rt, req);
      },
    },
    async (req, reply) => {
      const caller = req.relayCaller;
      if (!caller) throw new RelayError(401, 'invalid token', 'invalid_api_key');
      return relay(rt, inbound, req, reply, caller, req.body, req.rawBody ?? undefined, setup);
    },
  );
}

/**
 * A vendor's free token-count endpoint (Anthropic's count_tokens, Gemini's countTokens): the prompt
 * counted with Sluice's tokenizer, answered in the vendor's shape. Needs a valid key, charges nothing.
 */
function countTokensRoute(
  scope: FastifyInstance,
  rt: RelayRuntime,
  url: string,
  inbound: InboundFormat,
  answer: (tokens: number) => unknown,
): void {
  scope.post(
    url,
    {
      config: { relayInbound: inbound },
      onRequest: async (req) => {
        req.relayCaller = await authenticateRelay(rt, req);
      },
    },
    async (req, reply) => {
      const caller = req.relayCaller;
      if (!caller) throw new RelayError(401, 'invalid token', 'invalid_api_key');
      // count_tokens takes no max_tokens: a placeholder lets the one request schema check the rest.
      const body = isRecord(req.body) ? Object.assign({ max_tokens: 1 }, req.body) : req.body;
      const ir = inbound.parse(body, undefined, req.headers);
      checkModelAllowed(caller, ir.model);
      return reply.send(answer(await inbound.countPromptTokens(ir)));
    },
  );
}

/** The console playground: the signed-in user, billed directly, in the group the body names. */
function playgroundRoute(scope: FastifyInstance, rt: RelayRuntime): void {
  scope.post(
    '/pg/chat/completions',
    { config: { auth: 'user', relayInbound: openAiChat } },
    async (req, reply) => {
      const row = currentUser(req);
      const user = checkUser(await rt.credentials.user(Number(row.id)));
      const { group: requested, ...body } = isRecord(req.body) ? req.body : {};
      const group = typeof requested === 'string' && requested !== '' ? requested : user.group;
      checkGroup(rt, user, group);
      // The playground sends max_tokens 0 for "no limit"; upstreams read 0 literally.
      if (body.max_tokens === 0) delete body.max_tokens;
      const caller: RelayCaller = {
        userId: user.id,
        username: user.username,
        role: user.role,
        token: null,
        group,
        ip: loggedIp(user, req.ip),
      };
      return relay(rt, openAiChat, req, reply, caller, body, undefined);
    },
  );
}

export async function registerRelayRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const rt = relayRuntime(ctx, app.log);
  app.addHook('onReady', () => rt.channels.reload());
  app.addHook('onClose', () => rt.close());
  scheduleRelayJobs(rt);

  await app.register(async (scope) => {
    scope.decorateRequest('relayCaller', null);
    scope.decorateRequest('relayRecord', null);
    installRelayBodyParser(scope);
    scope.setErrorHandler(relayErrorHandler);
    installRelayEdges(scope);
    tokenRoute(scope, rt, '/v1/chat/completions', openAiChat);
    tokenRoute(scope, rt, '/v1/completions', openAiCompletions);
    tokenRoute(scope, rt, '/v1/messages', claudeMessages);
    tokenRoute(scope, rt, '/v1/responses', openAiResponses);
    countTokensRoute(scope, rt, '/v1/messages/count_tokens', claudeMessages, (n) => ({ input_tokens: n }));
    tokenRoute(scope, rt, '/v1/embeddings', openAiEmbeddings);
    tokenRoute(scope, rt, '/v1/moderations', openAiModerations);
    tokenRoute(scope, rt, '/v1/rerank', openAiRerank);
    tokenRoute(scope, rt, '/v1/images/generations', openAiImages, priceImageOrder);
    tokenRoute(scope, rt, '/v1/audio/speech', openAiSpeech, passUpstreamContentType);
    await scope.register(async (uploads) => {
      installMultipartParser(uploads);
      tokenRoute(uploads, rt, '/v1/audio/transcriptions', openAiTranscriptions, passUpstreamContentType);
      tokenRoute(uploads, rt, '/v1/audio/translations', openAiTranslations, passUpstreamContentType);
    });
    registerModelRoutes(scope, rt);
    registerLegacyBillingRoutes(scope, rt);
    registerGeminiRoutes(scope, rt, relay);
    playgroundRoute(scope, rt);
  });
  await registerTaskRelayRoutes(app, rt);
}
