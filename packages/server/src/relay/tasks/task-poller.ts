// The background job of the task relays: one node at a time (the scheduler's lease `task-poll`) asks
// the upstreams about unfinished tasks every TASK_POLL_INTERVAL_SECONDS, and fails (refunding) the
// tasks that outlived TASK_TIMEOUT_MINUTES. Each platform polls its own rows (batched per channel);
// every status change goes through task-ledger.ts, so racing pollers cannot refund twice.
import { sql } from 'kysely';
import type { RelayRuntime } from '../pipeline/relay-runtime.js';
import { pollMidjourney, MIDJOURNEY_TIMEOUT } from './midjourney/poll.js';
import { pollSuno, SUNO_TIMEOUT } from './suno/poll.js';
import { FINAL_TASK_STATUSES } from './platforms.js';
import { finishTask } from './task-ledger.js';

export const TASK_POLL_JOB = 'task-poll';

/** How a platform's rows time out: its table, the unit of its times and the failure it writes. */
export interface TimeoutRule {
  table: 'midjourneys' | 'tasks';
  /** Rows of `tasks` belong to several platforms: only this one's time out by this rule. */
  platform?: string;
  /**
   * Drawings: only rows whose submit the upstream accepted were charged (rows imported from new-api
   * keep refused submits with their would-be quota); the others never time out into a refund.
   */
  acceptedCodes?: readonly number[];
  /** `submit_time` unit: new-api keeps drawings in milliseconds and tasks in seconds. */
  unit: 'ms' | 's';
  /** The model a timed-out row was charged as (for the refund's log). */
  modelOf(row: { action: string }): string;
  /** Extra columns a timed-out row gets with its FAILURE (progress, finish time…). */
  failed(nowMs: number, reason: string): Record<string, unknown>;
}

/** Fails every unfinished row submitted before the timeout; returns how many it ended. */
export async function failTimedOut(rt: RelayRuntime, rule: TimeoutRule, nowMs: number): Promise<number> {
  const { timeoutMinutes } = rt.ctx.config.tasks;
  const cutoffMs = nowMs - timeoutMinutes * 60_000;
  const cutoff = rule.unit === 'ms' ? cutoffMs : Math.floor(cutoffMs / 1000);
  let query = rt.ctx.db
    .selectFrom(rule.table as 'tasks')
    .select(['id', 'action'])
    .where('status', 'not in', FINAL_TASK_STATUSES)
    .where('submit_time', '>', 0)
    .where('submit_time', '<', cutoff);
  if (rule.platform !== undefined) query = query.where('platform', '=', rule.platform);
  if (rule.acceptedCodes !== undefined) {
    // Only the drawings table has `code`; Kysely cannot see it through the generic table name.
    query = query.where(sql.ref<number>('code'), 'in', rule.acceptedCodes);
  }
  const rows = await query.orderBy('id').limit(500).execute();
  let ended = 0;
  const reason = `the task did not finish within ${timeoutMinutes} minutes`;
  for (const row of rows) {
    const { finished } = await finishTask(rt, {
      table: rule.table,
      id: Number(row.id),
      changes: { ...rule.failed(nowMs, reason), status: 'FAILURE', fail_reason: reason },
      model: rule.modelOf(row),
      reason,
    });
    if (finished) ended++;
  }
  return ended;
}

/** One round: every platform's unfinished tasks, then the timeouts. A platform's failure is logged. */
export async function pollTasks(rt: RelayRuntime, nowMs = rt.ctx.clock.now() * 1000): Promise<void> {
  const rounds: Array<[string, () => Promise<unknown>]> = [
    ['midjourney', () => pollMidjourney(rt, nowMs)],
    ['suno', () => pollSuno(rt, nowMs)],
    ['midjourney timeouts', () => failTimedOut(rt, MIDJOURNEY_TIMEOUT, nowMs)],
    ['suno timeouts', () => failTimedOut(rt, SUNO_TIMEOUT, nowMs)],
  ];
  for (const [name, round] of rounds) {
    try {
      await round();
    } catch (error) {
      rt.logger.error({ err: error, platform: name }, 'could not poll tasks');
    }
  }
}

export function scheduleTaskPolling(rt: RelayRuntime): void {
  rt.ctx.scheduler.every(TASK_POLL_JOB, rt.ctx.config.tasks.pollIntervalMs, () => pollTasks(rt));
}
