// The Suno API as Sluice serves it: submits of songs and lyrics (charged per call, relayed to a Suno
// channel) and fetches of the caller's own tasks (read from the database, never from the upstream).
// Keyed by the caller's Sluice token; every answer, errors included, in Suno's `{code, message, data}`.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { authenticateRelay } from '../../auth/relay-auth.js';
import type { RelayCaller } from '../../auth/relay-auth.js';
import { limitModelRequests } from '../../auth/model-request-limit.js';
import { parseOrThrow } from '../../inbound/openai-shared.js';
import { RelayError } from '../../ir/errors.js';
import type { RelayRuntime } from '../../pipeline/relay-runtime.js';
import { submitSunoTask } from './submit.js';
import { sunoActionOf, sunoError, sunoSuccess, sunoTaskView } from './task-view.js';

/** Large enough for any lyrics or prompt a client may send, with room to spare. */
const BODY_LIMIT = 32 * 1024 * 1024;
/** Ids one fetch may ask for. */
const FETCH_IDS_MAX = 1000;

const fetchSchema = z.looseObject({
  ids: z
    .array(z.string({ error: 'ids must be task ids (strings)' }), { error: 'ids must be a list of task ids' })
    .max(FETCH_IDS_MAX, { error: `at most ${FETCH_IDS_MAX} ids can be fetched at once` })
    .nullish(),
  action: z.string({ error: 'action must be a string' }).nullish(),
});

const VIEW_COLUMNS = [
  'task_id',
  'action',
  'status',
  'fail_reason',
  'submit_time',
  'start_time',
  'finish_time',
  'progress',
  'data',
] as const;

function sunoErrorHandler(error: FastifyError | Error, req: FastifyRequest, reply: FastifyReply) {
  let status: number;
  let code: string;
  let message: string;
  if (error instanceof RelayError) {
    status = error.status;
    code = error.code ?? (status >= 500 ? 'internal_error' : 'invalid_request');
    message = error.message;
  } else {
    const given = (error as FastifyError).statusCode ?? 500;
    status = given >= 400 && given < 500 ? given : 500;
    code = status === 413 ? 'request_too_large' : status < 500 ? 'invalid_request' : 'internal_error';
    message = status < 500 ? error.message : 'internal error, please contact the administrator';
  }
  if (status >= 500) req.log.error({ err: error }, 'suno relay error');
  return reply.status(status).send(sunoError(code, message));
}

/** JSON bodies; a body that does not parse is a 400 in Suno's shape, not Fastify's. */
function installJsonParser(scope: FastifyInstance): void {
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new RelayError(400, 'the request body is not valid JSON', 'invalid_request'), undefined);
    }
  });
}

export function registerSunoRoutes(scope: FastifyInstance, rt: RelayRuntime): void {
  installJsonParser(scope);
  scope.setErrorHandler(sunoErrorHandler);
  const callers = new WeakMap<FastifyRequest, RelayCaller>();
  const caller = (req: FastifyRequest): RelayCaller => {
    const found = callers.get(req);
    if (!found) throw new RelayError(401, 'invalid token', 'invalid_api_key');
    return found;
  };
  // The key is checked before the body is read.
  const keyed = {
    bodyLimit: BODY_LIMIT,
    onRequest: async (req: FastifyRequest) => {
      callers.set(req, await authenticateRelay(rt, req));
    },
  };

  scope.post<{ Params: { action: string } }>('/suno/submit/:action', keyed, async (req, reply) => {
    const action = sunoActionOf(req.params.action);
    if (!action) {
      throw new RelayError(
        400,
        `unknown action ${req.params.action}: submit music or lyrics`,
        'invalid_action',
      );
    }
    const who = caller(req);
    const limited = limitModelRequests(rt, req, reply, who);
    if (limited) await limited;
    const taskId = await submitSunoTask(rt, who, action, req.body);
    return reply.send(sunoSuccess(taskId));
  });

  scope.post('/suno/fetch', keyed, async (req, reply) => {
    const who = caller(req);
    const { ids } = parseOrThrow(fetchSchema, req.body ?? {});
    const wanted = [...new Set(ids ?? [])].filter((id) => id !== '');
    if (wanted.length === 0) return reply.send(sunoSuccess([]));
    const rows = await rt.ctx.db
      .selectFrom('tasks')
      .select(VIEW_COLUMNS)
      .where('user_id', '=', who.userId)
      .where('platform', '=', 'suno')
      .where('task_id', 'in', wanted)
      .orderBy('id')
      .execute();
    return reply.send(sunoSuccess(rows.map(sunoTaskView)));
  });

  scope.get<{ Params: { id: string } }>('/suno/fetch/:id', keyed, async (req, reply) => {
    const who = caller(req);
    const row = await rt.ctx.db
      .selectFrom('tasks')
      .select(VIEW_COLUMNS)
      .where('user_id', '=', who.userId)
      .where('platform', '=', 'suno')
      .where('task_id', '=', req.params.id)
      .executeTakeFirst();
    // Someone else's task reads exactly as one that does not exist.
    if (!row) throw new RelayError(404, `task ${req.params.id} does not exist`, 'task_not_exist');
    return reply.send(sunoSuccess(sunoTaskView(row)));
  });

  scope.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/suno/*',
    handler: (req) => {
      const path = req.url.split('?')[0] ?? req.url;
      throw new RelayError(404, `${req.method} ${path} is not a route of the Suno API`, 'not_found');
    },
  });
}
