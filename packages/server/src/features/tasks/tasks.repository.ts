// Drawing (midjourneys) and async task (tasks) records, newest first, filtered on submit_time and
// paged as new-api pages them (0-based page, no total). Drawing times are unix milliseconds, task
// times unix seconds; the filters arrive in the same unit as the table's.
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { MidjourneyItem, MjListQuery, TaskItem, TaskListQuery } from '@sluice/shared';
import type { Database, MidjourneyRow, TaskRow } from '../../db/tables.js';

interface Scope {
  /** Pins the self routes to the caller; the channel filter is then ignored. */
  userId?: number;
}

interface CommonFilters extends Scope {
  p: number;
  page_size: number;
  channel_id?: number | undefined;
  start_timestamp?: number | undefined;
  end_timestamp?: number | undefined;
}

function filterAndPage<T extends 'midjourneys' | 'tasks', O>(
  q: SelectQueryBuilder<Database, T, O>,
  f: CommonFilters,
): SelectQueryBuilder<Database, T, O> {
  // The two tables share these columns; Kysely cannot see that through the generic table name.
  let out = q as unknown as SelectQueryBuilder<Database, 'tasks', O>;
  if (f.userId !== undefined) out = out.where('user_id', '=', f.userId);
  else if (f.channel_id !== undefined) out = out.where('channel_id', '=', f.channel_id);
  if (f.start_timestamp !== undefined) out = out.where('submit_time', '>=', f.start_timestamp);
  if (f.end_timestamp !== undefined) out = out.where('submit_time', '<=', f.end_timestamp);
  out = out
    .orderBy('id', 'desc')
    .limit(f.page_size)
    .offset(f.p * f.page_size);
  return out as unknown as SelectQueryBuilder<Database, T, O>;
}

export async function listMidjourneys(
  db: Kysely<Database>,
  q: MjListQuery & Scope,
): Promise<MidjourneyRow[]> {
  let query = db.selectFrom('midjourneys').selectAll();
  if (q.mj_id !== undefined) query = query.where('mj_id', '=', q.mj_id);
  return filterAndPage(query, q).execute();
}

export async function listTasks(db: Kysely<Database>, q: TaskListQuery & Scope): Promise<TaskRow[]> {
  let query = db.selectFrom('tasks').selectAll();
  if (q.task_id !== undefined) query = query.where('task_id', '=', q.task_id);
  return filterAndPage(query, q).execute();
}

export function toMidjourneyItem(row: MidjourneyRow, asAdmin: boolean): MidjourneyItem {
  const item: MidjourneyItem = {
    id: Number(row.id),
    user_id: Number(row.user_id),
    code: row.code,
    action: row.action,
    mj_id: row.mj_id,
    prompt: row.prompt,
    prompt_en: row.prompt_en,
    description: row.description,
    state: row.state,
    submit_time: Number(row.submit_time),
    start_time: Number(row.start_time),
    finish_time: Number(row.finish_time),
    image_url: row.image_url,
    status: row.status,
    progress: row.progress,
    fail_reason: row.fail_reason,
    quota: Number(row.quota),
    buttons: row.buttons,
    properties: row.properties,
  };
  if (asAdmin) item.channel_id = Number(row.channel_id);
  return item;
}

export function toTaskItem(row: TaskRow, asAdmin: boolean): TaskItem {
  const item: TaskItem = {
    id: Number(row.id),
    user_id: Number(row.user_id),
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
    task_id: row.task_id,
    platform: row.platform,
    quota: Number(row.quota),
    action: row.action,
    status: row.status,
    fail_reason: row.fail_reason,
    submit_time: Number(row.submit_time),
    start_time: Number(row.start_time),
    finish_time: Number(row.finish_time),
    progress: row.progress,
    properties: row.properties,
    data: row.data,
  };
  if (asAdmin) item.channel_id = Number(row.channel_id);
  return item;
}
