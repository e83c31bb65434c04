// The money of task relays (Midjourney, Suno): a submit holds its per-call price like any call, an
// accepted submit is charged in the same transaction that writes its task row, and a task that fails
// is refunded in the same transaction that makes its status final — so a task is charged once and
// refunded at most once, whichever node polls it and however often (docs/task-relay-design.md).
import { LOG_EVENT, LOG_TYPE, callQuota } from '@sluice/shared';
import type { Pricing, TaskRefundLogFacts } from '@sluice/shared';
import { sql } from 'kysely';
import type { Updateable } from 'kysely';
import { inTransaction } from '../../billing/ledger.js';
import type { Hold, Trx } from '../../billing/ledger.js';
import { resolvePricing } from '../../billing/pricing.js';
import { consumeLogRow } from '../../billing/usage-log.js';
import type { MidjourneysTable, TasksTable } from '../../db/tables.js';
import { invalidateTokenCache, invalidateUserCache } from '../cache-invalidation.js';
import { checkModelAllowed, refuseShortQuota } from '../auth/relay-auth.js';
import type { RelayCaller } from '../auth/relay-auth.js';
import { RelayError } from '../ir/errors.js';
import { emptyUsage } from '../ir/usage.js';
import type { RelayRuntime } from '../pipeline/relay-runtime.js';
import { FINAL_TASK_STATUSES } from './platforms.js';

/** A submit's price, set aside in the node's balance book until the upstream answers. */
export interface TaskHold {
  hold: Hold;
  model: string;
  /** What an accepted submit costs (0 when the model is free). */
  quota: number;
  pricing: Pricing;
  startedMs: number;
}

/**
 * Prices the model per call and holds the price. Refused: a model the token may not use (403), a
 * model without a ModelPrice (400 `model_price_not_set`; free under SelfUseModeEnabled), a balance
 * that cannot pay (403 `insufficient_user_quota` / `insufficient_token_quota`).
 */
export async function holdTaskQuota(rt: RelayRuntime, caller: RelayCaller, model: string): Promise<TaskHold> {
  checkModelAllowed(caller, model);
  const pricing = resolvePricing(rt.ctx.options, model, caller.group);
  // resolvePricing answers a ratio-only model with token pricing; a task produces no tokens, so only a
  // per-call price (or self-use mode's ratio 0) can price it.
  if (pricing.billing === 'tokens' && pricing.modelRatio !== 0) {
    throw new RelayError(
      400,
      `model ${model} has no per-call price: an administrator must set its price (ModelPrice) in the operation settings`,
      'model_price_not_set',
    );
  }
  const quota = pricing.billing === 'call' ? callQuota(pricing) : 0;
  const token = caller.token;
  const reserved = await rt.ledger.reserve({
    userId: caller.userId,
    tokenId: token?.id ?? null,
    unlimitedToken: token?.unlimited ?? false,
    amount: quota,
  });
  if (!reserved.ok) throw await refuseShortQuota(rt, caller, reserved.short, quota);
  return { hold: reserved.hold, model, quota, pricing, startedMs: Date.now() };
}

/** Gives the hold back: the upstream refused the submit, or it never answered. Nothing is written. */
export function releaseTaskHold(rt: RelayRuntime, held: TaskHold): void {
  rt.ledger.settle({
    hold: held.hold,
    quota: 0,
    channelId: 0,
    countRequest: false,
    now: rt.ctx.clock.now(),
  });
}

/** The node's balance books (this one's and the others') read the caller's balances again. */
function announceBalances(rt: RelayRuntime, userId: number, tokenId: number | null): void {
  invalidateUserCache(rt.ctx.bus, userId);
  if (tokenId !== null) invalidateTokenCache(rt.ctx.bus, tokenId);
}

export interface AcceptedTask {
  channelId: number;
  /** Sluice's id of the task, named in the log. */
  taskId: string;
  /** Writes the task row (with `quota` = the hold's quota) inside the charging transaction. */
  insert(trx: Trx): Promise<void>;
}

/**
 * The upstream accepted the submit: the task row, the charge of the user, token and channel and the
 * consumption log commit together; then the hold is released and the balances announced, so the next
 * hold on any node reads them again. On a database failure the hold is released and the error thrown.
 */
export async function chargeAcceptedTask(
  rt: RelayRuntime,
  caller: RelayCaller,
  held: TaskHold,
  task: AcceptedTask,
): Promise<void> {
  const { quota } = held;
  const tokenId = caller.token?.id ?? null;
  const now = rt.ctx.clock.now();
  const endedMs = Date.now();
  const log = consumeLogRow({
    who: {
      userId: caller.userId,
      username: caller.username,
      tokenId: tokenId ?? 0,
      tokenName: caller.token?.name ?? '',
      group: caller.group,
      model: held.model,
      ip: caller.ip,
      isStream: false,
      // The task's own id (in the content and `other.task_id`) is how a task is followed.
      requestId: '',
    },
    timing: { startedMs: held.startedMs, endedMs, firstResponseMs: endedMs - held.startedMs },
    pricing: held.pricing,
    usage: emptyUsage(),
    quota,
    channelId: task.channelId,
    channelsTried: [task.channelId],
    upstreamModel: held.model,
    taskId: task.taskId,
  });
  try {
    await inTransaction(rt.ctx.db, async (trx) => {
      await task.insert(trx);
      await trx
        .updateTable('users')
        .set({
          quota: sql`quota - ${quota}`,
          used_quota: sql`used_quota + ${quota}`,
          request_count: sql`request_count + 1`,
        })
        .where('id', '=', caller.userId)
        .execute();
      if (tokenId !== null) {
        await trx
          .updateTable('tokens')
          .set({
            remain_quota: sql`remain_quota - ${quota}`,
            used_quota: sql`used_quota + ${quota}`,
            accessed_time: now,
          })
          .where('id', '=', tokenId)
          .execute();
      }
      await trx
        .updateTable('channels')
        .set({ used_quota: sql`used_quota + ${quota}` })
        .where('id', '=', task.channelId)
        .execute();
      await trx.insertInto('logs').values(log).execute();
    });
  } finally {
    // Announced before the hold goes, so no hold on this node spends the charge a second time from
    // the balance it read before the charge.
    announceBalances(rt, caller.userId, tokenId);
    releaseTaskHold(rt, held);
  }
}

type TaskTable = 'midjourneys' | 'tasks';
type TaskChanges<T extends TaskTable> = Updateable<T extends 'midjourneys' ? MidjourneysTable : TasksTable>;

/** Writes progress of a task that is not final yet; false when it already is (or is gone). */
export async function updateTask<T extends TaskTable>(
  rt: RelayRuntime,
  table: T,
  id: number,
  changes: TaskChanges<T>,
): Promise<boolean> {
  // The two tables share id and status; Kysely cannot see that through the generic table name.
  const result = await rt.ctx.db
    .updateTable(table as 'tasks')
    .set(changes as TaskChanges<'tasks'>)
    .where('id', '=', id)
    .where('status', 'not in', FINAL_TASK_STATUSES)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export interface TaskEnd<T extends TaskTable> {
  table: T;
  /** Row id. */
  id: number;
  /** Every column to write, `status` included ('SUCCESS' or 'FAILURE'). */
  changes: TaskChanges<T> & { status: (typeof FINAL_TASK_STATUSES)[number] };
  /** The model the task was charged as (for the refund's log row). */
  model: string;
  /** Why it failed, for the refund's log row. */
  reason?: string;
}

/**
 * Makes a task final, once: only the first writer of a final status changes the row. A FAILURE
 * written by that writer also refunds the task's quota (user, token, channel) and logs it (type 4),
 * in the same transaction. Returns whether this call ended the task and what it refunded.
 */
export async function finishTask<T extends TaskTable>(
  rt: RelayRuntime,
  end: TaskEnd<T>,
): Promise<{ finished: boolean; refunded: number }> {
  const table = end.table as 'tasks';
  const refund = end.changes.status === 'FAILURE';
  const outcome = await inTransaction(rt.ctx.db, async (trx) => {
    const changed = await trx
      .updateTable(table)
      .set(end.changes as TaskChanges<'tasks'>)
      .where('id', '=', end.id)
      .where('status', 'not in', FINAL_TASK_STATUSES)
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) === 0) return { finished: false, refunded: 0, who: undefined };
    if (!refund) return { finished: true, refunded: 0, who: undefined };
    const row = await trx
      .selectFrom(table)
      .select(['user_id', 'token_id', 'channel_id', 'quota'])
      .where('id', '=', end.id)
      .executeTakeFirstOrThrow();
    const taskId =
      end.table === 'midjourneys'
        ? (
            await trx
              .selectFrom('midjourneys')
              .select('mj_id')
              .where('id', '=', end.id)
              .executeTakeFirstOrThrow()
          ).mj_id
        : (await trx.selectFrom('tasks').select('task_id').where('id', '=', end.id).executeTakeFirstOrThrow())
            .task_id;
    const quota = Number(row.quota);
    const userId = Number(row.user_id);
    const tokenId = Number(row.token_id);
    if (quota <= 0) return { finished: true, refunded: 0, who: undefined };
    await trx
      .updateTable('users')
      .set({ quota: sql`quota + ${quota}`, used_quota: sql`used_quota - ${quota}` })
      .where('id', '=', userId)
      .execute();
    if (tokenId > 0) {
      await trx
        .updateTable('tokens')
        .set({ remain_quota: sql`remain_quota + ${quota}`, used_quota: sql`used_quota - ${quota}` })
        .where('id', '=', tokenId)
        .execute();
    }
    await trx
      .updateTable('channels')
      .set({ used_quota: sql`used_quota - ${quota}` })
      .where('id', '=', Number(row.channel_id))
      .execute();
    const user = await trx.selectFrom('users').select('username').where('id', '=', userId).executeTakeFirst();
    const token =
      tokenId > 0
        ? await trx.selectFrom('tokens').select('name').where('id', '=', tokenId).executeTakeFirst()
        : undefined;
    const reason = end.reason ?? 'the task failed';
    // The signed changes, for reconciliation: quota back up, used quota (user, token, channel) down.
    const refundFacts: TaskRefundLogFacts = {
      event: LOG_EVENT.taskRefund,
      task_id: taskId,
      refund_quota: quota,
      quota_delta: quota,
      used_quota_delta: -quota,
      reason,
    };
    await trx
      .insertInto('logs')
      .values({
        user_id: userId,
        username: user?.username ?? '',
        token_id: tokenId,
        token_name: token?.name ?? '',
        model_name: end.model,
        created_at: rt.ctx.clock.now(),
        type: LOG_TYPE.system,
        content: `task ${taskId} failed (${reason}): ${quota} quota refunded`,
        quota: 0,
        channel_id: Number(row.channel_id),
        other: JSON.stringify(refundFacts),
      })
      .execute();
    return { finished: true, refunded: quota, who: { userId, tokenId } };
  });
  if (outcome.who)
    announceBalances(rt, outcome.who.userId, outcome.who.tokenId > 0 ? outcome.who.tokenId : null);
  return { finished: outcome.finished, refunded: outcome.refunded };
}
