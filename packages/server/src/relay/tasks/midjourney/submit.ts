// A submit from price to answer: the channel (the original task's for an action on it, else one picked
// for the action's model), the hold, the upstream call, then either the charge with the task row (codes
// 1, 21, 22) or the hold given back and the upstream's refusal passed on. Never retried elsewhere: a
// prompt one proxy refuses, another would refuse too, and a submit that timed out may have been taken.
import { CHANNEL_STATUS } from '@sluice/shared';
import type { Insertable } from 'kysely';
import type { MidjourneysTable } from '../../../db/tables.js';
import type { RelayCaller } from '../../auth/relay-auth.js';
import { RelayError } from '../../ir/errors.js';
import { pickChannel } from '../../pipeline/channel-index.js';
import type { RelayChannel } from '../../pipeline/channel-index.js';
import type { RelayRuntime } from '../../pipeline/relay-runtime.js';
import { UpstreamFailure } from '../../pipeline/upstream-client.js';
import { redactUpstreamMessage } from '../../pipeline/upstream-errors.js';
import { taskPlatformOf } from '../platforms.js';
import { chargeAcceptedTask, holdTaskQuota, releaseTaskHold } from '../task-ledger.js';
import { clearModeFlags, modelOfAction } from './actions.js';
import type { MjAction, MjMode } from './actions.js';
import { validHook } from './notify.js';
import type { Body, SubmitPath, SubmitRequest } from './requests.js';
import { newMjId, replaceIdValues, upstreamIdOf } from './task-ids.js';
import { forwardedImageUrl } from './task-view.js';
import type { MidjourneyRow } from './task-view.js';
import { SUBMIT_TIMEOUT_MS, NoBaseUrl, callMidjourney, parseJson, upstreamSays } from './upstream.js';
import type { MjAnswer } from './upstream.js';
import { ACCEPTED_CODES, MJ_CODE, normalStatus, storable, submitAnswer } from './wire.js';
import type { SubmitAnswer } from './wire.js';

/** What the route sends back: the HTTP status and the proxy-shaped body. */
export interface SubmitReply {
  status: number;
  body: unknown;
}

/** The caller's own drawing by Sluice's id (the newest, should imported rows share one). */
export async function ownTask(rt: RelayRuntime, caller: RelayCaller, mjId: string): Promise<MidjourneyRow> {
  const row = await rt.ctx.db
    .selectFrom('midjourneys')
    .selectAll()
    .where('mj_id', '=', mjId)
    .where('user_id', '=', caller.userId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) throw new RelayError(404, `task ${mjId} not found`, 'task_not_found');
  return row;
}

/** The channel that ran a task: actions on it must go there (only that proxy knows the task). */
export async function channelOfTask(rt: RelayRuntime, row: MidjourneyRow): Promise<RelayChannel> {
  const index = rt.channels.ready() ?? (await rt.channels.index());
  const channel = index.byId.get(Number(row.channel_id));
  if (!channel || taskPlatformOf(channel.type) !== 'midjourney') {
    throw new RelayError(503, `the channel that ran task ${row.mj_id} no longer exists`, 'channel_not_found');
  }
  if (channel.status !== CHANNEL_STATUS.enabled) {
    throw new RelayError(503, `the channel that ran task ${row.mj_id} is disabled`, 'channel_disabled');
  }
  return channel;
}

/** A channel for a new task: the pinned one (admins), else one picked for the model in the caller's group. */
async function channelForModel(rt: RelayRuntime, caller: RelayCaller, model: string): Promise<RelayChannel> {
  const index = rt.channels.ready() ?? (await rt.channels.index());
  if (caller.pinnedChannelId !== undefined) {
    const pinned = index.byId.get(caller.pinnedChannelId);
    if (!pinned)
      throw new RelayError(403, `channel ${caller.pinnedChannelId} does not exist`, 'channel_not_found');
    if (pinned.status !== CHANNEL_STATUS.enabled) {
      throw new RelayError(403, `channel ${pinned.id} is disabled`, 'channel_disabled');
    }
    if (taskPlatformOf(pinned.type) !== 'midjourney') {
      throw new RelayError(
        400,
        `channel ${pinned.id} is not a Midjourney channel`,
        'channel_type_unsupported',
      );
    }
    return pinned;
  }
  const { group } = caller;
  const channel = pickChannel(index, { group, model, mode: 'midjourney', exclude: new Set() });
  if (channel) return channel;
  if (!index.listed(group, model)) {
    throw new RelayError(404, `model ${model} is not available in group ${group}`, 'model_not_found');
  }
  throw new RelayError(
    503,
    `no channel is available for model ${model} in group ${group}`,
    'model_not_available',
  );
}

/** The task an action works on, checked: the caller's own, and finished well when the site asks for that. */
async function originalTask(rt: RelayRuntime, caller: RelayCaller, request: SubmitRequest) {
  const original = request.original;
  if (!original) return undefined;
  const row = await ownTask(rt, caller, original.id);
  if (rt.ctx.options.get('MjActionCheckSuccessEnabled')) {
    const allowed = row.status === 'SUCCESS' || (original.modal && row.status === 'MODAL');
    if (!allowed) {
      throw new RelayError(
        400,
        `task ${row.mj_id} has not succeeded (status ${row.status || 'unknown'}): only a finished task can be acted on`,
        'task_not_succeeded',
      );
    }
  }
  return { row, upstreamId: upstreamIdOf(row) };
}

/** The body the upstream gets: the original named by its id, and the site's options applied. */
function upstreamBody(rt: RelayRuntime, request: SubmitRequest, upstreamId: string | undefined): Body {
  const { options } = rt.ctx;
  const body =
    request.original && upstreamId !== undefined ? request.original.bodyFor(upstreamId) : { ...request.body };
  // Sluice calls the client's hook itself; the upstream must not (it would see the upstream's ids).
  delete body.notifyHook;
  if (!options.get('MjAccountFilterEnabled')) delete body.accountFilter;
  if (options.get('MjModeClearEnabled') && typeof body.prompt === 'string')
    body.prompt = clearModeFlags(body.prompt);
  return body;
}

/** The upstream's id of an accepted task (a string, or a number some proxies send). */
function acceptedId(result: unknown): string | undefined {
  if (typeof result === 'number' && Number.isSafeInteger(result)) return String(result);
  if (typeof result !== 'string') return undefined;
  const id = result.trim();
  // The proxies' ids are digits (others' UUIDs); anything else cannot be an id Sluice stores and sends back.
  return /^[\w.:-]{1,191}$/.test(id) ? id : undefined;
}

/** Modal actions keep code 21 so clients know to confirm them; other codes of a taken submit read as 1. */
const WAITS_FOR_MODAL: ReadonlySet<MjAction> = new Set(['INPAINT', 'CUSTOM_ZOOM']);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

interface NewRow {
  status: string;
  progress: string;
  imageUrl: string;
  finished: boolean;
}

/** How a taken submit starts out: an upload is done at once; 21 may report a task that already ended. */
function startOf(action: MjAction, answer: SubmitAnswer, uploads: string[]): NewRow {
  if (action === 'UPLOAD')
    return { status: 'SUCCESS', progress: '100%', imageUrl: uploads[0] ?? '', finished: true };
  if (answer.code === MJ_CODE.queued)
    return { status: 'NOT_START', progress: '0%', imageUrl: '', finished: false };
  if (answer.code === MJ_CODE.exists) {
    const props = isObject(answer.properties) ? answer.properties : {};
    const status = normalStatus(props.status);
    if (status === 'SUCCESS') {
      const imageUrl = typeof props.imageUrl === 'string' ? props.imageUrl : '';
      return { status, progress: '100%', imageUrl, finished: true };
    }
    // A failure is left to polling, which ends it with its refund; an open status is kept.
    if (status !== undefined && status !== 'FAILURE')
      return { status, progress: '0%', imageUrl: '', finished: false };
    return {
      status: status === 'FAILURE' ? 'SUBMITTED' : 'MODAL',
      progress: '0%',
      imageUrl: '',
      finished: false,
    };
  }
  return { status: 'SUBMITTED', progress: '0%', imageUrl: '', finished: false };
}

/** The upstream's answer to a submit that was not taken, passed on: its code and words, no task id. */
function refusal(answer: MjAnswer, parsed: SubmitAnswer, channel: RelayChannel): SubmitReply {
  const description = redactUpstreamMessage(parsed.description ?? '', channel.key);
  const hideResult = typeof parsed.result === 'string' || typeof parsed.result === 'number';
  return {
    status: answer.status >= 500 ? 502 : answer.status,
    body: { ...parsed, description, ...(hideResult ? { result: null } : {}) },
  };
}

/** An upstream HTTP error without the proxy's answer shape. */
function httpError(answer: MjAnswer, channel: RelayChannel): RelayError {
  if (answer.status === 401 || answer.status === 403) {
    // The channel's key, not the caller's: never the caller's 401.
    return new RelayError(
      503,
      `the upstream service is unavailable (it refused the channel's key)`,
      'upstream_unavailable',
    );
  }
  const said = upstreamSays(answer, channel.key);
  const status = answer.status >= 500 || answer.status < 400 ? 502 : answer.status;
  return new RelayError(
    status,
    `the upstream answered ${answer.status}${said ? `: ${said}` : ''}`,
    'upstream_error',
  );
}

async function send(
  rt: RelayRuntime,
  channel: RelayChannel,
  path: SubmitPath,
  mode: MjMode | undefined,
  body: Body,
) {
  try {
    return await callMidjourney(rt, channel, {
      method: 'POST',
      path: `/mj/${path}`,
      mode,
      body,
      timeoutMs: SUBMIT_TIMEOUT_MS,
    });
  } catch (error) {
    if (error instanceof NoBaseUrl) throw new RelayError(503, error.message, 'channel_misconfigured');
    const failure =
      error instanceof UpstreamFailure
        ? error
        : new UpstreamFailure('connection', 'the upstream call failed');
    throw new RelayError(failure.kind === 'timeout' ? 504 : 502, failure.message, `upstream_${failure.kind}`);
  }
}

export interface SubmitInput {
  rt: RelayRuntime;
  caller: RelayCaller;
  path: SubmitPath;
  mode: MjMode | undefined;
  request: SubmitRequest;
}

export async function submitTask(input: SubmitInput): Promise<SubmitReply> {
  const { rt, caller, request } = input;
  const { options } = rt.ctx;
  const model = modelOfAction(request.action);
  const hook = options.get('MjNotifyEnabled') ? request.body.notifyHook : undefined;
  const notify = hook === undefined || hook === null || hook === '' ? undefined : validHook(hook);
  if (hook !== undefined && hook !== null && hook !== '' && notify === undefined) {
    throw new RelayError(400, 'notifyHook must be an http(s) URL', 'invalid_request');
  }
  const original = await originalTask(rt, caller, request);
  const channel = original ? await channelOfTask(rt, original.row) : await channelForModel(rt, caller, model);
  const held = await holdTaskQuota(rt, caller, model);
  let charged = false;
  try {
    const answer = await send(
      rt,
      channel,
      input.path,
      input.mode,
      upstreamBody(rt, request, original?.upstreamId),
    );
    const parsed = submitAnswer.safeParse(parseJson(answer.body));
    if (!parsed.success)
      throw answer.status >= 200 && answer.status < 300 ? badAnswer() : httpError(answer, channel);
    if (answer.status < 200 || answer.status >= 300) {
      if (answer.status === 401 || answer.status === 403) throw httpError(answer, channel);
      return refusal(answer, parsed.data, channel);
    }
    if (!ACCEPTED_CODES.has(parsed.data.code)) return refusal(answer, parsed.data, channel);
    const taken = planAccepted({ ...input, channel, answer: parsed.data, notify, original: original?.row });
    // From here the hold is the charge's: chargeAcceptedTask releases it whatever happens.
    charged = true;
    await chargeAcceptedTask(rt, caller, held, {
      channelId: channel.id,
      taskId: taken.mjId,
      insert: async (trx) => {
        await trx
          .insertInto('midjourneys')
          .values({ ...taken.row, quota: held.quota })
          .execute();
      },
    });
    return taken.reply;
  } finally {
    if (!charged) releaseTaskHold(rt, held);
  }
}

const badAnswer = () =>
  new RelayError(502, 'the upstream answer is not a midjourney-proxy answer', 'bad_upstream_response');

interface Accepted extends SubmitInput {
  channel: RelayChannel;
  answer: SubmitAnswer;
  notify: string | undefined;
  original: MidjourneyRow | undefined;
}

interface PlannedTask {
  mjId: string;
  /** The row to insert (its quota is the hold's). */
  row: Omit<Insertable<MidjourneysTable>, 'quota'>;
  /** The answer under Sluice's id. */
  reply: SubmitReply;
}

/** The row and the answer of a taken submit; throws (nothing charged) when the task cannot be followed. */
function planAccepted(a: Accepted): PlannedTask {
  const { rt, caller, request, answer, channel } = a;
  const { options } = rt.ctx;
  const uploads =
    request.action === 'UPLOAD' && Array.isArray(answer.result)
      ? answer.result.filter((u): u is string => typeof u === 'string')
      : [];
  const upstreamId = request.action === 'UPLOAD' ? '' : acceptedId(answer.result);
  // Without the task's id the task cannot be followed: not charged, as if refused.
  if (upstreamId === undefined || (request.action === 'UPLOAD' && uploads.length === 0)) throw badAnswer();
  const mjId = newMjId();
  const nowMs = Date.now();
  const start = startOf(request.action, answer, uploads);
  const description = storable(redactUpstreamMessage(answer.description ?? '', channel.key));
  const row: PlannedTask['row'] = {
    user_id: caller.userId,
    token_id: caller.token?.id ?? 0,
    channel_id: channel.id,
    code: answer.code,
    action: request.action,
    mj_id: mjId,
    upstream_task_id: upstreamId,
    prompt: request.prompt ?? a.original?.prompt ?? '',
    prompt_en: '',
    description,
    state: typeof request.body.state === 'string' ? request.body.state : '',
    submit_time: nowMs,
    start_time: start.finished ? nowMs : 0,
    finish_time: start.finished ? nowMs : 0,
    image_url: storable(start.imageUrl),
    status: start.status,
    progress: start.progress,
    fail_reason: '',
    buttons: '',
    properties: '',
    notify_hook: a.notify ?? null,
  };
  const ids = new Map(upstreamId === '' ? [] : [[upstreamId, mjId]]);
  let properties = replaceIdValues(answer.properties ?? {}, ids);
  if (isObject(properties) && typeof properties.imageUrl === 'string' && options.get('MjForwardUrlEnabled')) {
    properties = { ...properties, imageUrl: forwardedImageUrl(options, mjId) };
  }
  const code =
    answer.code === MJ_CODE.exists && WAITS_FOR_MODAL.has(request.action)
      ? MJ_CODE.exists
      : MJ_CODE.submitted;
  const result = request.action === 'UPLOAD' ? uploads : mjId;
  return { mjId, row, reply: { status: 200, body: { ...answer, code, description, result, properties } } };
}
