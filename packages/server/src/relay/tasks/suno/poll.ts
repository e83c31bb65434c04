// Follows unfinished Suno tasks: their rows grouped by channel, each channel asked once per round (in
// batches of at most 100 ids) what became of them, and every change written through the task ledger —
// progress as it comes, a success once, a failure once with its refund. Rows whose channel is gone,
// or that the upstream no longer knows, are left for the timeout sweep.
import type { RelayChannel } from '../../pipeline/channel-index.js';
import type { RelayRuntime } from '../../pipeline/relay-runtime.js';
import { redactUpstreamMessage } from '../../pipeline/upstream-errors.js';
import { FINAL_TASK_STATUSES, taskPlatformOf } from '../platforms.js';
import { finishTask, updateTask } from '../task-ledger.js';
import type { TimeoutRule } from '../task-poller.js';
import { readSunoStatus, sunoModelOf } from './task-view.js';
import { fetchFromSuno } from './upstream.js';

/** Ids per fetch. */
const BATCH = 100;
/** Unfinished rows one round looks at (the oldest first). */
const ROUND_ROWS = 5000;
/** Columns `progress` and `status` are short; a reason is kept readable. */
const PROGRESS_LENGTH = 20;
const REASON_LENGTH = 2000;

export const SUNO_TIMEOUT: TimeoutRule = {
  table: 'tasks',
  platform: 'suno',
  unit: 's',
  modelOf: (row) => sunoModelOf(row.action),
  failed: (nowMs) => {
    const now = Math.floor(nowMs / 1000);
    return { progress: '100%', finish_time: now, updated_at: now };
  },
};

interface PendingRow {
  id: number;
  action: string;
  status: string;
  fail_reason: string;
  start_time: number;
  finish_time: number;
  progress: string;
  data: string;
  /** The id the upstream knows the task by. */
  upstreamId: string;
}

/** Upstream times in seconds; a server that answers milliseconds is read as seconds too. */
function seconds(value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  if (!Number.isFinite(n) || n <= 0) return 0;
  return Math.floor(n > 1e11 ? n / 1000 : n);
}

function progressOf(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return `${Math.round(value)}%`;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  return value.trim().slice(0, PROGRESS_LENGTH);
}

type Changes = {
  status: string;
  fail_reason: string;
  start_time: number;
  finish_time: number;
  progress: string;
  data: string;
};

/** What the upstream's word on one task changes in its row; undefined when nothing changes. */
function changesOf(
  row: PendingRow,
  task: Record<string, unknown>,
  channelKey: string,
  now: number,
): Changes | undefined {
  const said = readSunoStatus(task.status) ?? row.status;
  const reason =
    typeof task.fail_reason === 'string' && task.fail_reason.trim() !== ''
      ? redactUpstreamMessage(task.fail_reason.trim(), channelKey).slice(0, REASON_LENGTH)
      : row.fail_reason;
  // A reason without a success is a failure, as new-api reads it.
  const status = said === 'FAILURE' || (said !== 'SUCCESS' && reason !== '') ? 'FAILURE' : said;
  const final = status === 'SUCCESS' || status === 'FAILURE';
  const started = seconds(task.start_time) || row.start_time || (status === 'IN_PROGRESS' || final ? now : 0);
  const changes: Changes = {
    status,
    fail_reason:
      status === 'FAILURE' && reason === '' ? 'the Suno API server reported the task failed' : reason,
    start_time: started,
    finish_time: final ? seconds(task.finish_time) || row.finish_time || now : row.finish_time,
    progress: final ? '100%' : (progressOf(task.progress) ?? row.progress),
    data: task.data === undefined || task.data === null ? row.data : JSON.stringify(task.data),
  };
  const same = (Object.keys(changes) as Array<keyof Changes>).every((k) => changes[k] === row[k]);
  return same ? undefined : changes;
}

async function applyTask(rt: RelayRuntime, row: PendingRow, changes: Changes, now: number): Promise<void> {
  if (changes.status === 'SUCCESS' || changes.status === 'FAILURE') {
    await finishTask(rt, {
      table: 'tasks',
      id: row.id,
      changes: { ...changes, status: changes.status, updated_at: now },
      model: sunoModelOf(row.action),
      reason: changes.fail_reason || undefined,
    });
    return;
  }
  await updateTask(rt, 'tasks', row.id, { ...changes, updated_at: now });
}

/** One channel's rows: one fetch per batch of ids, each answer written row by row. */
async function pollChannel(
  rt: RelayRuntime,
  channel: RelayChannel,
  rows: readonly PendingRow[],
  now: number,
): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) {
    const batch = rows.slice(i, i + BATCH);
    const byUpstreamId = new Map(batch.map((row) => [row.upstreamId, row]));
    const actions = new Set(batch.map((row) => row.action));
    const action = actions.size === 1 ? (batch[0]?.action ?? '') : '';
    const tasks = await fetchFromSuno(rt, channel, [...byUpstreamId.keys()], action);
    for (const task of tasks) {
      const row = typeof task.task_id === 'string' ? byUpstreamId.get(task.task_id) : undefined;
      if (!row) continue;
      const changes = changesOf(row, task, channel.key, now);
      if (!changes) continue;
      try {
        await applyTask(rt, row, changes, now);
      } catch (error) {
        rt.logger.error({ err: error, taskRowId: row.id }, 'could not write the progress of a Suno task');
      }
    }
  }
}

/** One round over every unfinished Suno task. A channel that fails is logged; the others go on. */
export async function pollSuno(rt: RelayRuntime, nowMs: number): Promise<void> {
  const rows = await rt.ctx.db
    .selectFrom('tasks')
    .select([
      'id',
      'channel_id',
      'task_id',
      'upstream_task_id',
      'action',
      'status',
      'fail_reason',
      'start_time',
      'finish_time',
      'progress',
      'data',
    ])
    .where('platform', '=', 'suno')
    .where('status', 'not in', FINAL_TASK_STATUSES)
    .orderBy('id')
    .limit(ROUND_ROWS)
    .execute();
  if (rows.length === 0) return;
  const index = rt.channels.ready() ?? (await rt.channels.index());
  const byChannel = new Map<number, PendingRow[]>();
  for (const row of rows) {
    const channelId = Number(row.channel_id);
    let list = byChannel.get(channelId);
    if (!list) byChannel.set(channelId, (list = []));
    list.push({
      id: Number(row.id),
      action: row.action,
      status: row.status,
      fail_reason: row.fail_reason,
      start_time: Number(row.start_time),
      finish_time: Number(row.finish_time),
      progress: row.progress,
      data: row.data,
      // Rows imported from new-api keep the upstream's id as their own.
      upstreamId: row.upstream_task_id || row.task_id,
    });
  }
  const now = Math.floor(nowMs / 1000);
  await Promise.all(
    [...byChannel].map(async ([channelId, pending]) => {
      const channel = index.byId.get(channelId);
      // A channel deleted, or turned into another type: its tasks wait for the timeout.
      if (!channel || taskPlatformOf(channel.type) !== 'suno') return;
      try {
        await pollChannel(rt, channel, pending, now);
      } catch (error) {
        rt.logger.warn(
          { channelId, tasks: pending.length, reason: (error as Error).message },
          'could not poll the Suno tasks of a channel',
        );
      }
    }),
  );
}
