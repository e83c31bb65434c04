// A Suno API server (the self-hosted Suno-API that gateways' Suno channels speak to): /suno/submit/{music,
// lyrics}, the batch fetch /suno/fetch and /suno/fetch/{id}, plus the audio, video and cover files finished
// songs point at. Answers are `{ code: "success", message: "", data }`; errors `{ code, message, data: null }`
// with an HTTP error status (code "invalid_request" or "internal_error"), as that server sends them.
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { cleanText } from '../directive.js';
import { baseHeaders, sendBody, sendRawErrorBody, sendResult, type Exchange } from '../exchange.js';
import { mockSpeech } from './audio.js';
import { MOCK_PNG } from './images.js';
import { isRecord } from './input.js';
import { lifeFromDirective, percent, TaskBook, type TaskRecord } from './task-life.js';

/** The bearer key the mock accepts unless started with its own. */
export const MOCK_SUNO_KEY = 'suno-key';

const JSON_TYPE = 'application/json; charset=utf-8';

/** Seconds each finished clip lasts. */
export const SUNO_CLIP_SECONDS = 120;

/** The Suno fields of a task. */
export interface SunoDetail {
  /** The server's own row id (its task objects carry it as `id`). */
  rowId: number;
  prompt: string;
  /** MUSIC: the model (`mv`, default chirp-v3-0), title, tags, description prompt, the two clip ids. */
  mv: string;
  title: string;
  tags: string;
  gptDescriptionPrompt: string | null;
  makeInstrumental: boolean;
  clipIds: string[];
}

/** The mock's Suno API server: its keys and tasks (tasks go on reset). */
export class SunoUpstream {
  readonly book = new TaskBook<SunoDetail>();
  /** Clip id → its task id, for the file route. */
  readonly clips = new Map<string, string>();
  private rows = 0;

  constructor(readonly keys: readonly string[]) {}

  nextRowId(): number {
    this.rows += 1;
    return this.rows;
  }

  reset(): void {
    this.book.clear();
    this.clips.clear();
  }
}

// --- errors -------------------------------------------------------------------------------------------------

export function sendSunoError(ex: Exchange, status: number, code: string, message: string): void {
  ex.res.writeHead(status, baseHeaders(ex, JSON_TYPE));
  ex.record.status = status;
  ex.res.end(JSON.stringify({ code, message, data: null }));
}

/** A missing or wrong key. */
export const sendSunoUnauthorized = (ex: Exchange): void =>
  sendSunoError(ex, 401, 'invalid_request', 'unauthorized secret token');

const errorCode = (status: number): string => (status >= 500 ? 'internal_error' : 'invalid_request');

/** The `status` directive: the server passes an upstream failure on as "<status> <reason>". */
export function sendSunoFault(ex: Exchange, status: number): void {
  if (sendRawErrorBody(ex, status)) return;
  const { error } = ex.directive;
  sendSunoError(
    ex,
    status,
    error?.code ?? errorCode(status),
    error?.message ?? `${status} ${STATUS_CODES[status] ?? 'Error'}`,
  );
}

export const sendSunoInvalid = (ex: Exchange, status: number, message: string): void =>
  sendSunoError(ex, status, errorCode(status), message);

const succeed = (ex: Exchange, data: unknown): void =>
  sendResult(ex, 200, { code: 'success', message: '', data }, JSON_TYPE);

// --- submits ------------------------------------------------------------------------------------------------

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

function handleSubmit(ex: Exchange, suno: SunoUpstream, rawAction: string): void {
  const action = rawAction.toUpperCase();
  if (action !== 'MUSIC' && action !== 'LYRICS') return sendSunoInvalid(ex, 400, 'invalid action');
  const body = ex.body;
  if (!isRecord(body)) {
    return sendSunoInvalid(
      ex,
      400,
      body === undefined ? 'unexpected end of JSON input' : 'invalid request body',
    );
  }
  const prompt = cleanText(str(body.prompt)).trim();
  const gptDescriptionPrompt = cleanText(str(body.gpt_description_prompt)).trim();
  if (action === 'LYRICS' && prompt === '') return sendSunoInvalid(ex, 400, 'prompt is empty');
  if (action === 'MUSIC') {
    if (prompt === '' && gptDescriptionPrompt === '') return sendSunoInvalid(ex, 400, 'prompt is empty');
    if (str(body.continue_clip_id) !== '' && str(body.task_id) === '') {
      return sendSunoInvalid(ex, 400, 'task_id is empty');
    }
  }
  const mv = str(body.mv) || 'chirp-v3-0';
  const clipIds = action === 'MUSIC' ? [randomUUID(), randomUUID()] : [];
  // The server's music task ids are UUIDs without dashes; a lyrics task keeps Suno's own id.
  const id = action === 'MUSIC' ? randomUUID().replaceAll('-', '') : randomUUID();
  const task = suno.book.add({
    platform: 'suno',
    id,
    action,
    key: bearer(ex),
    body,
    status: 'NOT_START',
    life: lifeFromDirective(ex.directive),
    detail: {
      rowId: suno.nextRowId(),
      prompt,
      mv,
      title: cleanText(str(body.title)).trim(),
      tags: str(body.tags),
      gptDescriptionPrompt: gptDescriptionPrompt === '' ? null : gptDescriptionPrompt,
      makeInstrumental: body.make_instrumental === true,
      clipIds,
    },
  });
  for (const clipId of clipIds) suno.clips.set(clipId, task.id);
  succeed(ex, task.id);
}

function bearer(ex: Exchange): string | undefined {
  const value = ex.req.headers.authorization;
  return value === undefined ? undefined : value.replace(/^bearer\s+/i, '').trim();
}

// --- tasks --------------------------------------------------------------------------------------------------

const seconds = (ms: number | undefined): number => (ms === undefined ? 0 : Math.floor(ms / 1000));

/** A clip's own status as Suno reports it. */
function clipStatus(task: TaskRecord<SunoDetail>): string {
  switch (task.status) {
    case 'SUCCESS':
      return 'complete';
    case 'FAILURE':
      return 'error';
    case 'IN_PROGRESS':
      return 'streaming';
    default:
      return 'submitted';
  }
}

const capitalised = (words: string): string =>
  words
    .split(/\s+/)
    .filter((word) => word !== '')
    .slice(0, 4)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');

function songTitle(detail: SunoDetail): string {
  return detail.title || capitalised(detail.gptDescriptionPrompt ?? detail.prompt) || 'Untitled';
}

const fileUrl = (ex: Exchange, clipId: string, ext: string): string =>
  `${ex.baseUrl}/suno/files/${clipId}.${ext}`;

function clipView(ex: Exchange, task: TaskRecord<SunoDetail>, clipId: string): Record<string, unknown> {
  const { detail } = task;
  const status = clipStatus(task);
  const complete = status === 'complete';
  const playable = complete || status === 'streaming';
  const failed = status === 'error';
  return {
    id: clipId,
    video_url: complete ? fileUrl(ex, clipId, 'mp4') : '',
    audio_url: playable ? fileUrl(ex, clipId, 'mp3') : '',
    image_url: playable ? fileUrl(ex, clipId, 'png') : null,
    image_large_url: playable ? fileUrl(ex, clipId, 'png') : null,
    is_video_pending: false,
    major_model_version: /chirp-(v\d+)/.exec(detail.mv)?.[1] ?? 'v3',
    model_name: detail.mv.replace(/-0$/, ''),
    is_liked: false,
    user_id: 'mock-user',
    display_name: 'mock',
    handle: 'mock',
    is_handle_updated: false,
    is_trashed: false,
    reaction: null,
    created_at: new Date(task.submittedAt).toISOString(),
    status,
    title: songTitle(detail),
    play_count: 0,
    upvote_count: 0,
    is_public: false,
    metadata: {
      tags: detail.tags,
      prompt: detail.gptDescriptionPrompt === null ? detail.prompt : '',
      gpt_description_prompt: detail.gptDescriptionPrompt,
      audio_prompt_id: null,
      history: null,
      concat_history: null,
      type: 'gen',
      duration: complete ? SUNO_CLIP_SECONDS : null,
      refund_credits: failed ? true : null,
      stream: true,
      error_type: failed ? 'internal_error' : null,
      error_message: failed ? task.failReason : null,
    },
  };
}

/** The lyrics written for a prompt. */
export const mockLyrics = (prompt: string): string =>
  `[Verse]\n${prompt}\nSinging softly through the night\n\n[Chorus]\n${prompt}\nEverything will be alright`;

function lyricsView(task: TaskRecord<SunoDetail>): Record<string, unknown> {
  const done = task.status === 'SUCCESS';
  return {
    id: task.id,
    status: done ? 'complete' : task.status === 'FAILURE' ? 'error' : 'running',
    title: done ? capitalised(task.detail.prompt) : '',
    text: done ? mockLyrics(task.detail.prompt) : '',
  };
}

/** A task as the server answers it (its row, with `progress`). */
export function sunoTaskView(ex: Exchange, task: TaskRecord<SunoDetail>): Record<string, unknown> {
  return {
    id: task.detail.rowId,
    created_at: new Date(task.submittedAt).toISOString(),
    updated_at: new Date(task.updatedAt).toISOString(),
    task_id: task.id,
    action: task.action,
    status: task.status,
    fail_reason: task.status === 'FAILURE' ? task.failReason : '',
    submit_time: seconds(task.submittedAt),
    start_time: seconds(task.startedAt),
    finish_time: seconds(task.finishedAt),
    progress: percent(task),
    search_item: '',
    data:
      task.action === 'LYRICS'
        ? lyricsView(task)
        : task.detail.clipIds.map((clipId) => clipView(ex, task, clipId)),
  };
}

/** POST /suno/fetch `{ ids, action? }`: the known tasks among the ids, in the server's row order. */
function handleFetch(ex: Exchange, suno: SunoUpstream): void {
  const body = ex.body;
  if (!isRecord(body)) return sendSunoInvalid(ex, 400, 'invalid request body');
  if (body.ids !== undefined && body.ids !== null && !Array.isArray(body.ids)) {
    return sendSunoInvalid(ex, 400, 'json: cannot unmarshal ids into a list of strings');
  }
  const list: unknown[] = Array.isArray(body.ids) ? body.ids : [];
  const ids = new Set(list.filter((id): id is string => typeof id === 'string'));
  const tasks = [...suno.book.tasks.values()].filter((task) => ids.has(task.id));
  for (const task of tasks) task.advance();
  succeed(
    ex,
    tasks.map((task) => sunoTaskView(ex, task)),
  );
}

/** GET /suno/fetch/{id}. */
function handleFetchOne(ex: Exchange, suno: SunoUpstream, id: string): void {
  const task = suno.book.read(id);
  if (!task) return sendSunoInvalid(ex, 400, 'task not exist');
  succeed(ex, sunoTaskView(ex, task));
}

/** A few bytes an MP4 player recognises: an `ftyp` box. */
const MOCK_MP4 = Buffer.from('000000186674797069736f6d0000020069736f6d6d703432', 'hex');

/** GET /suno/files/{clipId}.{mp3,mp4,png}: a clip's audio, video or cover (public, as Suno's CDN is). */
function handleFile(ex: Exchange, suno: SunoUpstream, clipId: string, ext: string): void {
  const taskId = suno.clips.get(clipId);
  const task = taskId === undefined ? undefined : suno.book.get(taskId);
  const status = task ? clipStatus(task) : 'none';
  const ready = ext === 'mp4' ? status === 'complete' : status === 'complete' || status === 'streaming';
  if (!task || !ready) return sendSunoInvalid(ex, 404, 'file not found');
  if (ext === 'mp3') return sendBody(ex, 200, 'audio/mpeg', mockSpeech(songTitle(task.detail)));
  if (ext === 'mp4') return sendBody(ex, 200, 'video/mp4', MOCK_MP4);
  sendBody(ex, 200, 'image/png', MOCK_PNG);
}

// --- routing ------------------------------------------------------------------------------------------------

export interface SunoRoute {
  handler: (ex: Exchange) => void;
  /** Public: needs no key (the files). */
  open: boolean;
}

const SUNO_PATH = /^\/suno(?:\/(.*))?$/;
const FILE_PATH = /^files\/([\w-]+)\.(mp3|mp4|png)$/;

/** The route of a path under /suno; anything unknown there is the server's plain-text 404. */
export function sunoRoute(method: string, path: string, suno: SunoUpstream): SunoRoute | undefined {
  const match = SUNO_PATH.exec(path);
  if (!match) return undefined;
  const rest = match[1] ?? '';
  const route = (handler: (ex: Exchange) => void, open = false): SunoRoute => ({ handler, open });
  if (method === 'POST') {
    const submit = /^submit\/([^/]+)$/.exec(rest);
    if (submit) return route((ex) => handleSubmit(ex, suno, submit[1] ?? ''));
    if (rest === 'fetch') return route((ex) => handleFetch(ex, suno));
  }
  if (method === 'GET') {
    const one = /^fetch\/([^/]+)$/.exec(rest);
    if (one) return route((ex) => handleFetchOne(ex, suno, decodeURIComponent(one[1] ?? '')));
    const file = FILE_PATH.exec(rest);
    if (file) return route((ex) => handleFile(ex, suno, file[1] ?? '', file[2] ?? ''), true);
  }
  return route((ex) => sendBody(ex, 404, 'text/plain', '404 page not found'), true);
}
