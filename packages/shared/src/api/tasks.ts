// Drawing (GET /api/mj/, /api/mj/self/) and async tasks (GET /api/task/, /api/task/self), paged as
// new-api pages them so its console works unchanged: `p` counts from 0 (./list-page.ts), `data` is
// a plain array of rows (a short page is the last one), and numbers that do not parse ("NaN", "",
// "abc") are read as absent rather than refused, the rule of every list (./list-page.ts): its
// console sends `start_timestamp=NaN` when a date is cleared. Drawing times are unix milliseconds,
// async task times unix seconds, as new-api stores them; both lists filter on submit_time.
import { z } from 'zod';
import { lenientQueryInt, lenientTimeBound, listPageNumber, listPageSize } from './list-page.js';
import { optionalQueryText } from './logs.js';

const recordListFields = {
  p: listPageNumber,
  /** Optional, as in new-api's console, which never sends it. */
  page_size: listPageSize,
  /** Admin only (ignored on the self routes). */
  channel_id: lenientQueryInt(),
  start_timestamp: lenientTimeBound(),
  end_timestamp: lenientTimeBound(),
};

export const mjListQuery = z.object({ ...recordListFields, mj_id: optionalQueryText() });
export type MjListQuery = z.output<typeof mjListQuery>;

export const taskListQuery = z.object({ ...recordListFields, task_id: optionalQueryText() });
export type TaskListQuery = z.output<typeof taskListQuery>;

/** `channel_id` is present for admins only. */
export interface MidjourneyItem {
  id: number;
  user_id: number;
  code: number;
  action: string;
  mj_id: string;
  prompt: string;
  prompt_en: string;
  description: string;
  state: string;
  /** Unix milliseconds, as are start_time and finish_time (0: not yet). */
  submit_time: number;
  start_time: number;
  finish_time: number;
  image_url: string;
  status: string;
  progress: string;
  fail_reason: string;
  channel_id?: number;
  quota: number;
  buttons: string;
  properties: string;
}

/** `channel_id` is present for admins only. */
export interface TaskItem {
  id: number;
  user_id: number;
  created_at: number;
  updated_at: number;
  task_id: string;
  platform: string;
  channel_id?: number;
  quota: number;
  action: string;
  status: string;
  fail_reason: string;
  /** Unix seconds, as are start_time and finish_time (0: not yet). */
  submit_time: number;
  start_time: number;
  finish_time: number;
  progress: string;
  properties: string;
  data: string;
}
