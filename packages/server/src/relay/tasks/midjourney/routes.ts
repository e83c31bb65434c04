// The midjourney-proxy API as its clients call it, under /mj and the speed-mode prefixes /fast/mj,
// /turbo/mj and /relax/mj: submits (charged per call, see submit.ts), task fetches from Sluice's own
// rows (the caller's only), the image seed from the task's channel, and the image proxy. Keyed by the
// caller's Sluice token (`mj-api-secret` or Bearer); every answer, refusals included, in the proxy's
// shape.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { findNulByte } from '../../../http/envelope.js';
import { authenticateRelay } from '../../auth/relay-auth.js';
import type { RelayCaller } from '../../auth/relay-auth.js';
import { limitModelRequests } from '../../auth/model-request-limit.js';
import { RelayError } from '../../ir/errors.js';
import type { RelayRuntime } from '../../pipeline/relay-runtime.js';
import { UpstreamFailure } from '../../pipeline/upstream-client.js';
import { redactUpstreamMessage } from '../../pipeline/upstream-errors.js';
import { MJ_MODES } from './actions.js';
import type { MjMode } from './actions.js';
import { serveImage } from './image-proxy.js';
import { SUBMIT_PATHS, readSubmit } from './requests.js';
import { channelOfTask, ownTask, submitTask } from './submit.js';
import { replaceIdValues, upstreamIdOf } from './task-ids.js';
import { toTaskView } from './task-view.js';
import { NoBaseUrl, QUERY_TIMEOUT_MS, callMidjourney, parseJson, upstreamSays } from './upstream.js';
import { mjErrorBody, submitAnswer } from './wire.js';

/** Base64 images ride in the bodies: a blend of five large images fits. */
const BODY_LIMIT = 32 * 1024 * 1024;
/** Ids one list-by-condition may ask for. */
const MAX_LISTED_IDS = 1000;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The speed mode a /{mode}/mj/… route selects. */
    mjMode?: MjMode;
  }
}

function errorBody(error: FastifyError | Error): { status: number; body: ReturnType<typeof mjErrorBody> } {
  if (error instanceof RelayError) {
    return { status: error.status, body: mjErrorBody(error.status, error.message, error.code ?? error.type) };
  }
  const status = (error as FastifyError).statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const code = (error as FastifyError).code ?? 'invalid_request';
    return { status, body: mjErrorBody(status, error.message, code) };
  }
  return {
    status: 500,
    body: mjErrorBody(500, 'internal error, please contact the administrator', 'server_error'),
  };
}

function mjErrorHandler(error: FastifyError | Error, req: FastifyRequest, reply: FastifyReply) {
  const { status, body } = errorBody(error);
  if (status >= 500 && !(error instanceof RelayError))
    req.log.error({ err: error }, 'midjourney relay error');
  if (reply.sent || reply.raw.headersSent) {
    reply.raw.destroy();
    return;
  }
  return reply.status(status).send(body);
}

const callers = new WeakMap<FastifyRequest, RelayCaller>();

function callerOf(req: FastifyRequest): RelayCaller {
  const caller = callers.get(req);
  if (!caller) throw new RelayError(401, 'invalid token', 'invalid_api_key');
  return caller;
}

const idParams = z.object({ id: z.string().min(1).max(64) });
const listBody = z.looseObject({ ids: z.array(z.string()).max(MAX_LISTED_IDS).optional() });

function routeId(req: FastifyRequest): string {
  const parsed = idParams.safeParse(req.params);
  if (!parsed.success) throw new RelayError(400, 'the task id is missing or too long', 'invalid_request');
  return parsed.data.id;
}

/** GET …/task/{id}/image-seed: asked of the channel that ran the task, free of charge. */
async function imageSeed(rt: RelayRuntime, req: FastifyRequest, reply: FastifyReply) {
  const row = await ownTask(rt, callerOf(req), routeId(req));
  const channel = await channelOfTask(rt, row);
  const upstreamId = upstreamIdOf(row);
  let answer;
  try {
    answer = await callMidjourney(rt, channel, {
      method: 'GET',
      path: `/mj/task/${encodeURIComponent(upstreamId)}/image-seed`,
      mode: req.routeOptions.config.mjMode,
      timeoutMs: QUERY_TIMEOUT_MS,
    });
  } catch (error) {
    if (error instanceof NoBaseUrl) throw new RelayError(503, error.message, 'channel_misconfigured');
    const failure = error instanceof UpstreamFailure ? error : undefined;
    throw new RelayError(
      failure?.kind === 'timeout' ? 504 : 502,
      failure?.message ?? 'the upstream call failed',
      'upstream_error',
    );
  }
  const parsed = submitAnswer.safeParse(parseJson(answer.body));
  if (answer.status === 401 || answer.status === 403 || !parsed.success) {
    const said =
      answer.status === 401 || answer.status === 403
        ? "it refused the channel's key"
        : upstreamSays(answer, channel.key);
    throw new RelayError(
      502,
      `the upstream answered ${answer.status}${said ? `: ${said}` : ''}`,
      'upstream_error',
    );
  }
  const ids = new Map([[upstreamId, row.mj_id]]);
  const body = {
    ...parsed.data,
    description: redactUpstreamMessage(parsed.data.description ?? '', channel.key),
    result: replaceIdValues(parsed.data.result ?? null, ids),
    properties: replaceIdValues(parsed.data.properties ?? {}, ids),
  };
  return reply.status(answer.status >= 500 ? 502 : answer.status).send(body);
}

function registerUnder(
  scope: FastifyInstance,
  rt: RelayRuntime,
  prefix: string,
  mode: MjMode | undefined,
): void {
  const authenticated = {
    config: mode ? { mjMode: mode } : {},
    onRequest: async (req: FastifyRequest) => {
      callers.set(req, await authenticateRelay(rt, req));
    },
  };
  for (const path of SUBMIT_PATHS) {
    scope.post(`${prefix}/mj/${path}`, { ...authenticated, bodyLimit: BODY_LIMIT }, async (req, reply) => {
      const caller = callerOf(req);
      const limited = limitModelRequests(rt, req, reply, caller);
      if (limited) await limited;
      const request = readSubmit(path, req.body);
      const answer = await submitTask({ rt, caller, path, mode, request });
      return reply.status(answer.status).send(answer.body);
    });
  }
  scope.get(`${prefix}/mj/task/:id/fetch`, authenticated, async (req) => {
    const row = await ownTask(rt, callerOf(req), routeId(req));
    return toTaskView(rt.ctx.options, row);
  });
  scope.post(
    `${prefix}/mj/task/list-by-condition`,
    { ...authenticated, bodyLimit: BODY_LIMIT },
    async (req) => {
      const parsed = listBody.safeParse(req.body ?? {});
      if (!parsed.success) {
        throw new RelayError(
          400,
          `ids must be a list of at most ${MAX_LISTED_IDS} task ids`,
          'invalid_request',
        );
      }
      const ids = [...new Set(parsed.data.ids ?? [])];
      if (ids.length === 0) return [];
      const rows = await rt.ctx.db
        .selectFrom('midjourneys')
        .selectAll()
        .where('user_id', '=', callerOf(req).userId)
        .where('mj_id', 'in', ids)
        .orderBy('id')
        .execute();
      return rows.map((row) => toTaskView(rt.ctx.options, row));
    },
  );
  scope.get(`${prefix}/mj/task/:id/image-seed`, authenticated, (req, reply) => imageSeed(rt, req, reply));
  scope.get(`${prefix}/mj/image/:id`, (req, reply) => serveImage(rt, routeId(req), reply));
  // Paths the proxy has and Sluice does not serve (the proxy's admin and account routes) are refused
  // in the proxy's shape rather than with a bare 404.
  scope.route({
    method: ['GET', 'POST'],
    url: `${prefix}/mj/*`,
    handler: (req) => {
      const path = req.url.split('?')[0] ?? req.url;
      throw new RelayError(404, `${req.method} ${path} is not supported`, 'unsupported_endpoint');
    },
  });
}

export function registerMidjourneyRoutes(scope: FastifyInstance, rt: RelayRuntime): void {
  scope.setErrorHandler(mjErrorHandler);
  // No database stores a NUL byte (PostgreSQL refuses it): refused before a task id is looked up, or a
  // prompt is sent upstream whose row could then not be written.
  scope.addHook('preValidation', async (req) => {
    for (const part of [req.params, req.query, req.body]) {
      const at = findNulByte(part);
      if (at)
        throw new RelayError(
          400,
          `${at.join('.') || 'the input'} must not contain a NUL character`,
          'invalid_request',
        );
    }
  });
  registerUnder(scope, rt, '', undefined);
  for (const mode of MJ_MODES) registerUnder(scope, rt, `/${mode}`, mode);
}
