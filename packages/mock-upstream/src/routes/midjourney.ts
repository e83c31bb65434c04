// A midjourney-proxy server (novicezk/midjourney-proxy and the "Plus" servers that extend its API): task
// submits under /mj/submit and /mj/insight-face, task fetches and image seeds under /mj/task, all also under
// the mode prefixes /mj-fast, /mj-turbo and /mj-relax; and the image files finished tasks point at. Submits
// answer `{ code, description, result, properties }` with HTTP 200 whatever the code, as the proxy does.
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { baseHeaders, sendBody, sendRawErrorBody, sendResult, type Exchange } from '../exchange.js';
import { MOCK_PNG } from './images.js';
import { isRecord } from './input.js';
import {
  isDataUrl,
  isRefusal,
  MJ_CODE,
  REFUSALS,
  scriptedRefusal,
  SUBMITS,
  type Check,
} from './midjourney-checks.js';
import { midjourneyButtons, midjourneyResults, type MidjourneyDetail } from './midjourney-results.js';
import { lifeFromDirective, percent, TaskBook, type MidjourneyMode, type TaskRecord } from './task-life.js';

/** The `mj-api-secret` the mock accepts unless started with its own. */
export const MOCK_MIDJOURNEY_SECRET = 'mj-secret';

/** The mock's midjourney-proxy: its secrets, tasks and uploaded images (tasks and uploads go on reset). */
export class MidjourneyUpstream {
  readonly book = new TaskBook<MidjourneyDetail>();
  /** Names (without .png) of uploaded images the attachment route serves. */
  readonly uploads = new Set<string>();
  private seq = 0;

  constructor(readonly secrets: readonly string[]) {}

  /** A fresh task id: milliseconds and three more digits, as the proxy makes them. */
  newId(): string {
    let id: string;
    do {
      this.seq = (this.seq + 1) % 1000;
      id = `${Date.now()}${String(this.seq).padStart(3, '0')}`;
    } while (this.book.tasks.has(id));
    return id;
  }

  reset(): void {
    this.book.clear();
    this.uploads.clear();
  }
}

export const attachmentUrl = (ex: Exchange, name: string): string =>
  `${ex.baseUrl}/mj/attachments/${name}.png`;

// --- errors -------------------------------------------------------------------------------------------------

/** The proxy's refusal of a missing or wrong `mj-api-secret`: 401 with an empty body. */
export function sendMidjourneyUnauthorized(ex: Exchange): void {
  const headers = baseHeaders(ex, 'application/json');
  delete headers['content-type'];
  headers['content-length'] = '0';
  ex.res.writeHead(401, headers);
  ex.record.status = 401;
  ex.res.end();
}

/** An HTTP error as the proxy's framework (Spring Boot) answers it: `{ timestamp, status, error, path }`. */
export function sendMidjourneyError(ex: Exchange, status: number, message?: string): void {
  if (status === 401) return sendMidjourneyUnauthorized(ex);
  ex.res.writeHead(status, baseHeaders(ex, 'application/json'));
  ex.record.status = status;
  ex.res.end(
    JSON.stringify({
      timestamp: new Date().toISOString(),
      status,
      error: STATUS_CODES[status] ?? 'Error',
      ...(message === undefined ? {} : { message }),
      path: ex.record.path,
    }),
  );
}

/** The `status` directive on a midjourney route. */
export function sendMidjourneyFault(ex: Exchange, status: number): void {
  if (sendRawErrorBody(ex, status)) return;
  sendMidjourneyError(ex, status, ex.directive.error?.message);
}

// --- submits ---------------------------------------------------------------------------------------------

function answer(ex: Exchange, code: number, description: string, result: unknown, properties = {}): void {
  sendResult(ex, 200, { code, description, result, properties });
}

function handleSubmit(
  ex: Exchange,
  mj: MidjourneyUpstream,
  mode: MidjourneyMode | undefined,
  check: Check,
): void {
  const body = isRecord(ex.body) ? ex.body : {};
  const checked = check(mj.book, body);
  if (isRefusal(checked)) return answer(ex, checked.code, checked.description, null, checked.properties);
  const refusal = scriptedRefusal(ex, checked);
  if (refusal) return answer(ex, refusal.code, refusal.description, null, refusal.properties);
  const { directive } = ex;
  if (checked.confirms) {
    // Only the fields the confirmation's directive gives change the life the task was created with.
    const life = lifeFromDirective(directive);
    checked.confirms.detail = checked.detail;
    checked.confirms.confirm({
      outcome: directive.task_outcome === undefined ? undefined : life.outcome,
      steps: directive.task_steps === undefined ? undefined : life.steps,
      failReason: directive.task_fail_reason === undefined ? undefined : life.failReason,
    });
    return answer(ex, MJ_CODE.SUCCESS, 'Submit success', checked.confirms.id);
  }
  const task = mj.book.add({
    platform: 'midjourney',
    id: mj.newId(),
    action: checked.action,
    mode,
    key: ex.req.headers['mj-api-secret']?.toString(),
    body: ex.body,
    status: checked.modal ? 'MODAL' : 'SUBMITTED',
    life: lifeFromDirective(directive),
    detail: checked.detail,
  });
  if (checked.modal) {
    return answer(ex, MJ_CODE.EXISTED, 'Waiting for window confirm', task.id, {
      finalPrompt: task.detail.prompt ?? '',
      remix: true,
    });
  }
  if (directive.submit_code === MJ_CODE.EXISTED) {
    return answer(ex, MJ_CODE.EXISTED, 'Task already exists', task.id, {
      status: task.status,
      imageUrl: task.status === 'SUCCESS' ? attachmentUrl(ex, task.id) : null,
    });
  }
  if (directive.submit_code === MJ_CODE.IN_QUEUE) {
    return answer(ex, MJ_CODE.IN_QUEUE, 'In queue, there is 1 task ahead', task.id, { numberOfQueues: 1 });
  }
  answer(ex, MJ_CODE.SUCCESS, 'Submit success', task.id);
}

/** /mj/submit/upload-discord-images: the images' URLs, no task. */
function handleUpload(ex: Exchange, mj: MidjourneyUpstream): void {
  const images = isRecord(ex.body) ? ex.body.base64Array : undefined;
  if (!Array.isArray(images) || images.length === 0) {
    return answer(ex, MJ_CODE.VALIDATION_ERROR, 'base64Array cannot be empty', null);
  }
  if (!images.every(isDataUrl)) return answer(ex, MJ_CODE.VALIDATION_ERROR, 'base64 format error', null);
  const code = ex.directive.submit_code;
  if (code !== undefined && code !== MJ_CODE.SUCCESS) {
    return answer(ex, code, ex.directive.error?.message ?? REFUSALS[code] ?? 'Submit failed', null);
  }
  const urls = images.map(() => {
    const name = `upload-${randomUUID()}`;
    mj.uploads.add(name);
    return attachmentUrl(ex, name);
  });
  answer(ex, MJ_CODE.SUCCESS, 'Submit success', urls);
}

// --- tasks --------------------------------------------------------------------------------------------------

/** A task as the proxy answers it. */
export function midjourneyTaskView(
  ex: Exchange,
  task: TaskRecord<MidjourneyDetail>,
): Record<string, unknown> {
  const { detail } = task;
  const done = task.status === 'SUCCESS';
  const results = midjourneyResults(task);
  const prompt = done && task.action === 'DESCRIBE' ? results.finalPrompt : detail.prompt;
  const finalPrompt = done ? results.finalPrompt : detail.prompt;
  return {
    id: task.id,
    action: task.action,
    customId: detail.customId,
    botType: detail.botType,
    prompt,
    promptEn: prompt,
    description: detail.description,
    state: detail.state,
    submitTime: task.submittedAt,
    startTime: task.startedAt ?? null,
    finishTime: task.finishedAt ?? null,
    imageUrl: done && results.image ? attachmentUrl(ex, task.id) : null,
    status: task.status,
    progress: percent(task),
    failReason: task.status === 'FAILURE' ? task.failReason : null,
    buttons: done ? midjourneyButtons(task) : [],
    properties: {
      ...(finalPrompt === null ? {} : { finalPrompt }),
      ...(detail.notifyHook === null ? {} : { notifyHook: detail.notifyHook }),
      ...(detail.parentId === undefined ? {} : { parentId: detail.parentId }),
    },
  };
}

/** GET …/task/{id}/fetch: the task, advanced one step; an unknown id gets an empty 200 (a null task). */
function handleFetch(ex: Exchange, mj: MidjourneyUpstream, id: string): void {
  const task = mj.book.read(id);
  if (!task) return sendBody(ex, 200, 'application/json', '');
  sendResult(ex, 200, midjourneyTaskView(ex, task));
}

/** POST …/task/list-by-condition `{ ids }`: the known tasks among them, each advanced one step. */
function handleListByCondition(ex: Exchange, mj: MidjourneyUpstream): void {
  const ids = isRecord(ex.body) && Array.isArray(ex.body.ids) ? ex.body.ids : [];
  const tasks = [...new Set(ids.filter((id): id is string => typeof id === 'string'))]
    .map((id) => mj.book.read(id.trim()))
    .filter((task) => task !== undefined);
  sendResult(
    ex,
    200,
    tasks.map((task) => midjourneyTaskView(ex, task)),
  );
}

/** GET …/task/{id}/image-seed: the seed of a finished drawing (a "Plus" route). */
function handleImageSeed(ex: Exchange, mj: MidjourneyUpstream, id: string): void {
  const task = mj.book.get(id);
  if (!task) {
    return sendResult(ex, 404, {
      code: MJ_CODE.NOT_FOUND,
      description: 'The associated task does not exist or has expired',
      result: null,
      properties: {},
    });
  }
  if (task.status !== 'SUCCESS') {
    return sendResult(ex, 400, {
      code: MJ_CODE.VALIDATION_ERROR,
      description: 'The associated task status is wrong',
      result: null,
      properties: {},
    });
  }
  answer(ex, MJ_CODE.SUCCESS, 'Success', midjourneyResults(task).seed);
}

/** GET /mj/attachments/{name}.png: the image of a finished task or of an upload (public, as a CDN is). */
function handleAttachment(ex: Exchange, mj: MidjourneyUpstream, name: string): void {
  const task = mj.book.get(name);
  const served = task ? task.status === 'SUCCESS' && midjourneyResults(task).image : mj.uploads.has(name);
  if (!served) return sendMidjourneyError(ex, 404);
  sendBody(ex, 200, 'image/png', MOCK_PNG);
}

// --- routing ------------------------------------------------------------------------------------------------

export interface MidjourneyRoute {
  handler: (ex: Exchange) => void;
  /** Public: needs no `mj-api-secret` (the image files). */
  open: boolean;
}

const MJ_PATH = /^\/(?:mj-(fast|turbo|relax)\/)?mj(?:\/(.*))?$/;
const TASK_PATH = /^task\/([^/]+)\/(fetch|image-seed)$/;
const ATTACHMENT_PATH = /^attachments\/([\w-]+)\.png$/;

/** The route of a path under /mj (or a mode prefix); anything unknown there is the proxy's 404. */
export function midjourneyRoute(
  method: string,
  path: string,
  mj: MidjourneyUpstream,
): MidjourneyRoute | undefined {
  const match = MJ_PATH.exec(path);
  if (!match) return undefined;
  const mode = match[1] as MidjourneyMode | undefined;
  const rest = match[2] ?? '';
  const route = (handler: (ex: Exchange) => void, open = false): MidjourneyRoute => ({ handler, open });
  if (method === 'POST') {
    const check = SUBMITS[rest];
    if (check) return route((ex) => handleSubmit(ex, mj, mode, check));
    if (rest === 'submit/upload-discord-images') return route((ex) => handleUpload(ex, mj));
    if (rest === 'task/list-by-condition') return route((ex) => handleListByCondition(ex, mj));
  }
  if (method === 'GET') {
    const task = TASK_PATH.exec(rest);
    if (task) {
      const id = decodeURIComponent(task[1] ?? '');
      return route((ex) => (task[2] === 'fetch' ? handleFetch(ex, mj, id) : handleImageSeed(ex, mj, id)));
    }
    const file = mode === undefined ? ATTACHMENT_PATH.exec(rest) : null;
    if (file) return route((ex) => handleAttachment(ex, mj, file[1] ?? ''), true);
  }
  return route((ex) => sendMidjourneyError(ex, 404));
}
