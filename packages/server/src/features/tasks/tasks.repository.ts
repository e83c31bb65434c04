// Drawing (midjourneys) and async task (tasks) records, newest first, filtered on submit_time.
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { MidjourneyItem, MjListQuery, TaskItem, TaskListQuery } from '@sluice/shared';
import type { Database, MidjourneyRow, TaskRow } from '../../db/tables.js';

interface Scope {
  /** Pins the self routes to the caller; the channel filter is then ignored. */
  userId?: number;
}

function common<T extends 'midjourneys' | 'tasks', O>(
  q: SelectQueryBuilder<Database, T, O>,
  f: { userId?: number; channel_id?: number; start_timestamp?: number; end_timestamp?: number },
) {
  // The two tables share these columns; Kysely cannot see that through the generic table name.
  let out = q as unknown as SelectQueryBuilder<Database, 'tasks', O>;
  if (f.userId !== undefined) out = out.where('user_id', '=', f.userId);
  else if (f.channel_id !== undefined) out = out.where('channel_id', '=', f.channel_id);
  if (f.start_timestamp !== undefined) out = out.where('submit_time', '>=', f.start_timestamp);
  if (f.end_timestamp !== undefined) out = out.where('submit_time', '<=', f.end_timestamp);
  return out as unknown as SelectQueryBuilder<Database, T, O>;
}

export async function listMidjourneys(
  db: Kysely<Database>,
  q: MjListQuery & Scope,
): Promise<{ rows: MidjourneyRow[]; total: number }> {
  const filtered = <O>(b: SelectQueryBuilder<Database, 'midjourneys', O>) => {
    const out = common(b, q);
    return q.mj_id === undefined ? out : out.where('mj_id', '=', q.mj_id);
  };
  const [rows, count] = await Promise.all([
    filtered(db.selectFrom('midjourneys').selectAll())
      .orderBy('id', 'desc')
      .limit(q.page_size)
      .offset((q.p - 1) * q.page_size)
      .execute(),
    filtered(db.selectFrom('midjourneys'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst(),
  ]);
  return { rows, total: Number(count?.n ?? 0) };
}

export async function listTasks(
  db: Kysely<Database>,
  q: TaskListQuery & Scope,
): Promise<{ rows: TaskRow[]; total: number }> {
  const filtered = <O>(b: SelectQueryBuilder<Database, 'tasks', O>) => {
    const out = common(b, q);
    return q.task_id === undefined ? out : out.where('task_id', '=', q.task_id);
  };
  const [rows, count] = await Promise.all([
    filtered(db.selectFrom('tasks').selectAll())
      .orderBy('id', 'desc')
      .limit(q.page_size)
      .offset((q.p - 1) * q.page_size)
      .execute(),
    filtered(db.selectFrom('tasks'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst(),
  ]);
  return { rows, total: Number(count?.n ?? 0) };
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
