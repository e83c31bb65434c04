// The Suno API's vocabulary as Sluice speaks it to clients: actions and their models, the task status
// enum, the `{code, message, data}` envelope, and a task row shown as the Suno API shows a task.
import type { TaskRow } from '../../../db/tables.js';

export type SunoAction = 'MUSIC' | 'LYRICS';

/** The per-call model each action is charged as. */
export const SUNO_MODELS: Readonly<Record<SunoAction, string>> = {
  MUSIC: 'suno_music',
  LYRICS: 'suno_lyrics',
};

/** The action of a path segment (`music`, `lyrics`), case-insensitive; undefined for any other. */
export function sunoActionOf(segment: string): SunoAction | undefined {
  const upper = segment.toUpperCase();
  return upper === 'MUSIC' || upper === 'LYRICS' ? upper : undefined;
}

/** The model a row was charged as; rows of other actions (imported from elsewhere) keep their action's name. */
export const sunoModelOf = (action: string): string =>
  action === 'MUSIC' || action === 'LYRICS' ? SUNO_MODELS[action] : `suno_${action.toLowerCase()}`;

export const SUNO_STATUSES = [
  'NOT_START',
  'SUBMITTED',
  'QUEUED',
  'IN_PROGRESS',
  'FAILURE',
  'SUCCESS',
  'UNKNOWN',
] as const;
export type SunoStatus = (typeof SUNO_STATUSES)[number];

const isSunoStatus = (value: string): value is SunoStatus =>
  (SUNO_STATUSES as readonly string[]).includes(value);

/** A clip's own status word (Suno's feed) and the task status it stands for. */
const CLIP_STATUSES: ReadonlyMap<string, SunoStatus> = new Map([
  ['submitted', 'SUBMITTED'],
  ['queued', 'QUEUED'],
  ['streaming', 'IN_PROGRESS'],
  ['complete', 'SUCCESS'],
  ['error', 'FAILURE'],
]);

/** Words some servers use for a task that ended without a result: all of them end the task as FAILURE. */
const ENDED_WITHOUT_RESULT = new Set(['CANCEL', 'CANCELED', 'CANCELLED', 'FAILED', 'ERROR', 'TIMEOUT']);

/**
 * The task status an upstream's word stands for; undefined when it gave none. A word Sluice does not
 * know is UNKNOWN, which is not final: the task stays polled until it ends or times out.
 */
export function readSunoStatus(word: unknown): SunoStatus | undefined {
  if (typeof word !== 'string' || word.trim() === '') return undefined;
  const text = word.trim();
  const upper = text.toUpperCase();
  if (isSunoStatus(upper)) return upper;
  if (ENDED_WITHOUT_RESULT.has(upper)) return 'FAILURE';
  return CLIP_STATUSES.get(text.toLowerCase()) ?? 'UNKNOWN';
}

/** A task as the Suno API answers it (`GET /suno/fetch/{id}`, `POST /suno/fetch`). */
export interface SunoTaskView {
  task_id: string;
  action: string;
  status: string;
  fail_reason: string;
  submit_time: number;
  start_time: number;
  finish_time: number;
  progress: string;
  /** The upstream's data: the clips of a song, the lyrics; null until the upstream reported any. */
  data: unknown;
}

/** The row columns a view needs. */
export type SunoViewRow = Pick<
  TaskRow,
  | 'task_id'
  | 'action'
  | 'status'
  | 'fail_reason'
  | 'submit_time'
  | 'start_time'
  | 'finish_time'
  | 'progress'
  | 'data'
>;

function parseData(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Imported rows may hold text that is not JSON: shown as it is.
    return text;
  }
}

export function sunoTaskView(row: SunoViewRow): SunoTaskView {
  return {
    task_id: row.task_id,
    action: row.action,
    status: row.status,
    fail_reason: row.fail_reason ?? '',
    submit_time: Number(row.submit_time),
    start_time: Number(row.start_time),
    finish_time: Number(row.finish_time),
    progress: row.progress,
    data: parseData(row.data ?? ''),
  };
}

/** The Suno API's answer envelope. */
export interface SunoEnvelope<T> {
  code: string;
  message: string;
  data: T;
}

export const sunoSuccess = <T>(data: T): SunoEnvelope<T> => ({ code: 'success', message: '', data });

export const sunoError = (code: string, message: string): SunoEnvelope<null> => ({
  code,
  message,
  data: null,
});
