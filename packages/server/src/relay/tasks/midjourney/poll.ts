// Following drawings to their end: each round, the unfinished rows grouped by channel, one batched
// `list-by-condition` per channel (100 ids a call), and each task's news written through the task
// ledger — progress as it comes, SUCCESS once, FAILURE once with its refund. The client's notify hook
// hears of every change of status or progress. Rows whose channel is gone, or whose task the upstream
// no longer knows, are left for the timeout sweep (task-poller.ts).
import type { Updateable } from 'kysely';
import type { MidjourneysTable } from '../../../db/tables.js';
import type { RelayChannel } from '../../pipeline/channel-index.js';
import type { RelayRuntime } from '../../pipeline/relay-runtime.js';
import { redactUpstreamMessage } from '../../pipeline/upstream-errors.js';
import { FINAL_TASK_STATUSES, taskPlatformOf } from '../platforms.js';
import { finishTask, updateTask } from '../task-ledger.js';
import type { TimeoutRule } from '../task-poller.js';
import { modelOfStoredAction } from './actions.js';
import { notifyHook } from './notify.js';
import { idCandidates, replaceIdsInText, upstreamIdOf } from './task-ids.js';
import type { IdMap } from './task-ids.js';
import { toTaskView } from './task-view.js';
import type { MidjourneyRow } from './task-view.js';
import { listTasks } from './upstream.js';
import { ACCEPTED_CODES, isFinalStatus, normalStatus, storable } from './wire.js';

/** Ids per list-by-condition call. */
export const POLL_BATCH = 100;
/** Unfinished rows read per round, oldest first; more wait for the next round. */
const ROWS_PER_ROUND = 2000;

/** Drawings time out on submit_time, kept in milliseconds; a timed-out one is a refunded FAILURE. */
export const MIDJOURNEY_TIMEOUT: TimeoutRule = {
  table: 'midjourneys',
  unit: 'ms',
  acceptedCodes: [...ACCEPTED_CODES],
  modelOf: (row) => modelOfStoredAction(row.action),
  failed: (nowMs) => ({ progress: '100%', finish_time: nowMs }),
};

/** The fields of the proxy's task Sluice reads. */
interface UpstreamTask {
  id: string;
  status: string | undefined;
  progress: string | undefined;
  imageUrl: string | undefined;
  failReason: string | undefined;
  promptEn: string | undefined;
  description: string | undefined;
  buttons: unknown[] | undefined;
  properties: Record<string, unknown> | undefined;
  startTime: number | undefined;
  finishTime: number | undefined;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? storable(value) : undefined);

/** A time in milliseconds; some proxies count seconds (any time after 1973 is above 10^11 ms). */
function ms(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n) || n <= 0) return undefined;
  return Math.round(n < 100_000_000_000 ? n * 1000 : n);
}

function readTask(value: unknown): UpstreamTask | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const t = value as Record<string, unknown>;
  const id = typeof t.id === 'number' ? String(t.id) : str(t.id);
  if (!id) return undefined;
  return {
    id,
    status: normalStatus(t.status),
    progress: str(t.progress),
    imageUrl: str(t.imageUrl),
    failReason: str(t.failReason),
    promptEn: str(t.promptEn),
    description: str(t.description),
    buttons: Array.isArray(t.buttons) ? t.buttons : undefined,
    properties:
      typeof t.properties === 'object' && t.properties !== null && !Array.isArray(t.properties)
        ? (t.properties as Record<string, unknown>)
        : undefined,
    startTime: ms(t.startTime),
    finishTime: ms(t.finishTime),
  };
}

/**
 * Properties clients are shown: the prompts a task ended with. Others are the upstream's own
 * (accounts, Discord message ids, the ids of other tasks) and stay there.
 */
const SHOWN_PROPERTIES = ['finalPrompt', 'finalZhPrompt'];

/** Column widths (MySQL refuses longer values). */
const PROGRESS_WIDTH = 30;

/** What changes in a row from the upstream's news (its ids replaced by Sluice's); empty when nothing does. */
function changesOf(
  row: MidjourneyRow,
  task: UpstreamTask,
  ids: IdMap,
  key: string,
): Updateable<MidjourneysTable> {
  const text = (value: string) => replaceIdsInText(redactUpstreamMessage(value, key), ids);
  const next: Updateable<MidjourneysTable> = {};
  if (task.status !== undefined && task.status !== row.status) next.status = task.status;
  if (task.progress !== undefined) {
    const progress = task.progress.trim().slice(0, PROGRESS_WIDTH);
    if (progress !== row.progress) next.progress = progress;
  }
  if (task.imageUrl !== undefined && task.imageUrl !== row.image_url) next.image_url = task.imageUrl;
  if (task.failReason !== undefined) {
    const reason = text(task.failReason);
    if (reason !== row.fail_reason) next.fail_reason = reason;
  }
  if (task.promptEn !== undefined) {
    const promptEn = replaceIdsInText(task.promptEn, ids);
    if (promptEn !== row.prompt_en) next.prompt_en = promptEn;
  }
  if (task.description !== undefined) {
    const description = text(task.description);
    if (description !== row.description) next.description = description;
  }
  if (task.buttons !== undefined) {
    const buttons = task.buttons.length > 0 ? JSON.stringify(task.buttons) : '';
    if (buttons !== row.buttons) next.buttons = buttons;
  }
  if (task.properties !== undefined) {
    const shown = Object.fromEntries(
      SHOWN_PROPERTIES.filter((k) => typeof task.properties?.[k] === 'string').map((k) => [
        k,
        replaceIdsInText(task.properties?.[k] as string, ids),
      ]),
    );
    const properties = Object.keys(shown).length > 0 ? JSON.stringify(shown) : '';
    if (properties !== row.properties) next.properties = properties;
  }
  if (task.startTime !== undefined && task.startTime !== Number(row.start_time))
    next.start_time = task.startTime;
  if (task.finishTime !== undefined && task.finishTime !== Number(row.finish_time))
    next.finish_time = task.finishTime;
  return next;
}

/**
 * Upstream ids named in the tasks' texts (a change's description names the task it changed) that are
 * the caller's tasks on this channel too, by owner: those become Sluice's ids in what is stored.
 */
async function knownIds(
  rt: RelayRuntime,
  channelId: number,
  rows: readonly MidjourneyRow[],
  tasks: readonly UpstreamTask[],
): Promise<Map<number, Map<string, string>>> {
  const byOwner = new Map<number, Map<string, string>>();
  const add = (userId: number, upstreamId: string, mjId: string) => {
    let map = byOwner.get(userId);
    if (!map) byOwner.set(userId, (map = new Map()));
    map.set(upstreamId, mjId);
  };
  for (const row of rows) if (row.upstream_task_id) add(Number(row.user_id), row.upstream_task_id, row.mj_id);
  const own = new Set(rows.map((r) => upstreamIdOf(r)));
  const named = new Set<string>();
  for (const task of tasks) {
    for (const text of [task.description, task.failReason, task.promptEn]) {
      for (const id of idCandidates(text ?? '')) if (!own.has(id)) named.add(id);
    }
  }
  if (named.size > 0) {
    const others = await rt.ctx.db
      .selectFrom('midjourneys')
      .select(['user_id', 'mj_id', 'upstream_task_id'])
      .where('channel_id', '=', channelId)
      .where('upstream_task_id', 'in', [...named].slice(0, 500))
      .execute();
    for (const other of others) add(Number(other.user_id), other.upstream_task_id, other.mj_id);
  }
  return byOwner;
}

/** Writes one row's news; returns whether its status or progress changed (the notify hook's cue). */
async function applyNews(
  rt: RelayRuntime,
  row: MidjourneyRow,
  task: UpstreamTask,
  ids: IdMap,
  channel: RelayChannel,
  nowMs: number,
): Promise<boolean> {
  const changes = changesOf(row, task, ids, channel.key);
  if (Object.keys(changes).length === 0) return false;
  const id = Number(row.id);
  const status = task.status ?? row.status;
  if (isFinalStatus(status)) {
    const failed = status === 'FAILURE';
    const reason = changes.fail_reason ?? (row.fail_reason || 'the upstream reported the task failed');
    const { finished } = await finishTask(rt, {
      table: 'midjourneys',
      id,
      changes: {
        ...changes,
        status: failed ? 'FAILURE' : 'SUCCESS',
        progress: '100%',
        finish_time: changes.finish_time ?? (Number(row.finish_time) || nowMs),
        ...(failed ? { fail_reason: reason } : {}),
      },
      model: modelOfStoredAction(row.action),
      reason,
    });
    return finished;
  }
  const updated = await updateTask(rt, 'midjourneys', id, changes);
  return updated && (changes.status !== undefined || changes.progress !== undefined);
}

/** Tells the row's hook about its new state (read back: what the ledger wrote is what is sent). */
async function notifyChange(rt: RelayRuntime, rowId: number, hook: string): Promise<void> {
  const row = await rt.ctx.db
    .selectFrom('midjourneys')
    .selectAll()
    .where('id', '=', rowId)
    .executeTakeFirst();
  if (row) await notifyHook(rt, hook, toTaskView(rt.ctx.options, row));
}

async function pollChannel(
  rt: RelayRuntime,
  channel: RelayChannel,
  rows: readonly MidjourneyRow[],
  nowMs: number,
): Promise<void> {
  // Two rows may follow one upstream task (a modal confirmation continues the task it confirms).
  const byUpstreamId = new Map<string, MidjourneyRow[]>();
  for (const row of rows) {
    const id = upstreamIdOf(row);
    const same = byUpstreamId.get(id);
    if (same) same.push(row);
    else byUpstreamId.set(id, [row]);
  }
  const upstreamIds = [...byUpstreamId.keys()];
  const notifyEnabled = rt.ctx.options.get('MjNotifyEnabled');
  for (let i = 0; i < upstreamIds.length; i += POLL_BATCH) {
    const batch = upstreamIds.slice(i, i + POLL_BATCH);
    const tasks = (await listTasks(rt, channel, batch)).map(readTask).filter((t) => t !== undefined);
    const batchRows = batch.flatMap((id) => byUpstreamId.get(id) ?? []);
    const owners = await knownIds(rt, channel.id, batchRows, tasks);
    for (const task of tasks) {
      for (const row of byUpstreamId.get(task.id) ?? []) {
        const ids = owners.get(Number(row.user_id)) ?? new Map<string, string>();
        const changed = await applyNews(rt, row, task, ids, channel, nowMs);
        if (changed && notifyEnabled && row.notify_hook) {
          // Not awaited: a slow hook must not hold up the round.
          notifyChange(rt, Number(row.id), row.notify_hook).catch((error: unknown) =>
            rt.logger.warn({ err: error, task: row.mj_id }, 'could not notify the hook of a drawing task'),
          );
        }
      }
    }
  }
}

/** One round over every unfinished drawing. A channel's failure is logged and the others go on. */
export async function pollMidjourney(rt: RelayRuntime, nowMs: number): Promise<void> {
  const rows = await rt.ctx.db
    .selectFrom('midjourneys')
    .selectAll()
    .where('status', 'not in', FINAL_TASK_STATUSES)
    // A refused submit imported from new-api (code 4, 23, 24…) was never charged, nor is it a task.
    .where('code', 'in', [...ACCEPTED_CODES])
    .where((eb) => eb.or([eb('upstream_task_id', '!=', ''), eb('mj_id', '!=', '')]))
    .where('channel_id', '>', 0)
    .orderBy('id')
    .limit(ROWS_PER_ROUND)
    .execute();
  if (rows.length === 0) return;
  const index = rt.channels.ready() ?? (await rt.channels.index());
  const byChannel = new Map<number, MidjourneyRow[]>();
  for (const row of rows) {
    const channelId = Number(row.channel_id);
    const same = byChannel.get(channelId);
    if (same) same.push(row);
    else byChannel.set(channelId, [row]);
  }
  for (const [channelId, channelRows] of byChannel) {
    const channel = index.byId.get(channelId);
    if (!channel || taskPlatformOf(channel.type) !== 'midjourney') continue;
    try {
      await pollChannel(rt, channel, channelRows, nowMs);
    } catch (error) {
      rt.logger.warn(
        {
          err: error instanceof Error ? new Error(redactUpstreamMessage(error.message, channel.key)) : error,
          channelId,
        },
        'could not poll the drawing tasks of a channel',
      );
    }
  }
}
