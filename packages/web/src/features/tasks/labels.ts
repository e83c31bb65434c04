// Labels of async and drawing task states (spec part 2 §4). Pure, so the rules are tested without
// rendering. Unknown values are shown as they are rather than hidden.
import { taskDuration } from '../logs/colours';

/** Task statuses; Suno adds QUEUED and UNKNOWN, and an empty status while the task is being submitted. */
export const TASK_STATUS_NAMES = [
  'SUCCESS',
  'NOT_START',
  'SUBMITTED',
  'IN_PROGRESS',
  'FAILURE',
  'MODAL',
  'QUEUED',
  'UNKNOWN',
] as const;
export type TaskStatusName = (typeof TASK_STATUS_NAMES)[number] | 'submitting';

const STATUS_COLOURS: Record<TaskStatusName, string> = {
  SUCCESS: 'green',
  NOT_START: 'default',
  SUBMITTED: 'gold',
  IN_PROGRESS: 'blue',
  FAILURE: 'red',
  MODAL: 'volcano',
  QUEUED: 'orange',
  UNKNOWN: 'default',
  submitting: 'cyan',
};

/** The status's label key and colour, or null for a status this console does not know. */
export function taskStatus(status: string): { name: TaskStatusName; colour: string } | null {
  if (status === '') return { name: 'submitting', colour: STATUS_COLOURS.submitting };
  const known = (TASK_STATUS_NAMES as readonly string[]).includes(status);
  return known ? { name: status as TaskStatusName, colour: STATUS_COLOURS[status as TaskStatusName] } : null;
}

export const TASK_ACTIONS = ['MUSIC', 'LYRICS'] as const;
export type TaskActionName = (typeof TASK_ACTIONS)[number];

export const taskAction = (action: string): TaskActionName | null =>
  (TASK_ACTIONS as readonly string[]).includes(action) ? (action as TaskActionName) : null;

/** Statuses of a task that has not ended yet (an empty status: still being submitted). */
const UNFINISHED = new Set(['', 'NOT_START', 'SUBMITTED', 'QUEUED', 'IN_PROGRESS', 'MODAL']);

/**
 * The state of a task's progress bar: red for a failure, animated while the task runs, plain for a
 * status this console does not know. Undefined (antd's own: green at 100%) only for a success, so a
 * running task reporting "100%" does not look finished.
 */
export function progressStatus(status: string): 'exception' | 'active' | 'normal' | undefined {
  if (status === 'FAILURE') return 'exception';
  if (status === 'SUCCESS') return undefined;
  return UNFINISHED.has(status) ? 'active' : 'normal';
}

/** Progress such as "40%" as a number for a progress bar; null when there is none to show. */
export function progressPercent(progress: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(progress);
  if (!match) return null;
  return Math.min(100, Math.max(0, Number(match[1])));
}

/**
 * The unit a list stores its times in: drawing (Midjourney) rows in milliseconds, async tasks in
 * seconds, as new-api stores them.
 */
export type TimeUnit = 'ms' | 's';

/** A stored time as unix seconds (for display), whole seconds. */
export const timeInSeconds = (time: number, unit: TimeUnit): number =>
  unit === 'ms' ? Math.floor(time / 1000) : time;

/** Unix seconds (the console's date filters) in a list's unit, for its query. */
export const secondsToUnit = (seconds: number, unit: TimeUnit): number =>
  unit === 'ms' ? seconds * 1000 : seconds;

/**
 * Seconds from submit to finish, to a tenth when the times are milliseconds; null while the task
 * has not finished.
 */
export function elapsedSeconds(submitTime: number, finishTime: number, unit: TimeUnit): number | null {
  if (!Number.isFinite(submitTime) || !Number.isFinite(finishTime)) return null;
  const elapsed = taskDuration(submitTime, finishTime);
  if (elapsed === null) return null;
  return unit === 'ms' ? Math.round(elapsed / 100) / 10 : elapsed;
}
