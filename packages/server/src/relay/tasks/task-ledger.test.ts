// The money of task relays on each database: an accepted submit is charged once with its row, and a
// failed task is refunded exactly once however many writers race to end it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOG_TYPE } from '@sluice/shared';
import type { RelayCaller } from '../auth/relay-auth.js';
import { relayRuntime } from '../pipeline/relay-runtime.js';
import type { RelayRuntime } from '../pipeline/relay-runtime.js';
import { testDialects } from '../../test-support/databases.js';
import { addChannel, addToken, balances, setOptions } from '../../test-support/relay-kit.js';
import { createTestApp } from '../../test-support/test-app.js';
import type { TestApp } from '../../test-support/test-app.js';
import { MIDJOURNEY_TIMEOUT } from './midjourney/poll.js';
import { chargeAcceptedTask, finishTask, holdTaskQuota, updateTask } from './task-ledger.js';
import { failTimedOut } from './task-poller.js';
import { RelayError } from '../ir/errors.js';

const PRICE = 0.1; // $ per call: 50,000 quota at the default 500,000 per unit
const QUOTA = 50_000;

describe.each(testDialects())('task ledger on %s', (dialect) => {
  let t: TestApp;
  let rt: RelayRuntime;
  let userId: number;
  let tokenId: number;
  let channelId: number;
  let caller: RelayCaller;
  let serial = 0;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    rt = relayRuntime(t.app.ctx);
    await setOptions(t, { ModelPrice: { mj_imagine: PRICE }, ModelRatio: { mj_ratio_only: 1 } });
    const user = await t.createUser({ quota: 1_000_000 });
    userId = user.id;
    const token = await addToken(t, userId, { remain_quota: 1_000_000 });
    tokenId = token.id;
    channelId = await addChannel(t, { type: 2, base_url: 'http://127.0.0.1:9', models: 'mj_imagine' });
    const cached = await rt.credentials.token(token.key.slice(3));
    if (!cached) throw new Error('token not found');
    caller = { userId, username: user.username, role: user.role, token: cached, group: 'default', ip: '' };
  });
  afterAll(async () => {
    await t.close();
  });

  /** Submits a drawing as an accepted upstream would have it, returning its row id and public id. */
  async function acceptedDrawing(): Promise<{ id: number; mjId: string }> {
    const held = await holdTaskQuota(rt, caller, 'mj_imagine');
    const mjId = `17000000000000${String(++serial).padStart(5, '0')}`;
    await chargeAcceptedTask(rt, caller, held, {
      channelId,
      taskId: mjId,
      insert: async (trx) => {
        await trx
          .insertInto('midjourneys')
          .values({
            user_id: userId,
            token_id: tokenId,
            channel_id: channelId,
            action: 'IMAGINE',
            mj_id: mjId,
            upstream_task_id: `up-${mjId}`,
            prompt: 'a cat',
            prompt_en: '',
            description: '',
            state: '',
            image_url: '',
            fail_reason: '',
            buttons: '',
            properties: '',
            status: 'SUBMITTED',
            progress: '0%',
            code: 1,
            quota: held.quota,
            submit_time: Date.now(),
          })
          .execute();
      },
    });
    const row = await t.db.db
      .selectFrom('midjourneys')
      .select('id')
      .where('mj_id', '=', mjId)
      .executeTakeFirstOrThrow();
    return { id: Number(row.id), mjId };
  }

  const ids = () => ({ userId, tokenId, channelIds: [channelId] });

  it('charges an accepted submit once, with its row and a consumption log naming the task', async () => {
    const before = await balances(t, ids());
    const { mjId } = await acceptedDrawing();
    const after = await balances(t, ids());
    expect(before.userQuota - after.userQuota).toBe(QUOTA);
    expect(after.userUsed - before.userUsed).toBe(QUOTA);
    expect(after.requestCount - before.requestCount).toBe(1);
    expect(before.tokenRemain - after.tokenRemain).toBe(QUOTA);
    expect(after.tokenUsed - before.tokenUsed).toBe(QUOTA);
    expect(after.channelUsed - before.channelUsed).toBe(QUOTA);
    const log = await t.db.db
      .selectFrom('logs')
      .selectAll()
      .where('user_id', '=', userId)
      .where('type', '=', LOG_TYPE.consume)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(Number(log.quota)).toBe(QUOTA);
    expect(log.model_name).toBe('mj_imagine');
    expect(JSON.parse(log.other)).toMatchObject({ task_id: mjId, model_price: PRICE });
    // The node's book reads the charged balance again before the next hold: the first hold is gone
    // and the charge is counted once.
    const next = await holdTaskQuota(rt, caller, 'mj_imagine');
    expect(rt.ledger.tokenAvailable(tokenId)).toBe(after.tokenRemain - QUOTA);
    rt.ledger.settle({ hold: next.hold, quota: 0, channelId: 0, countRequest: false, now: 0 });
  });

  it('refunds a failed task exactly once when many writers end it at the same moment', async () => {
    const { id, mjId } = await acceptedDrawing();
    const charged = await balances(t, ids());
    const ends = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        finishTask(rt, {
          table: 'midjourneys',
          id,
          changes:
            i % 2 === 0
              ? { status: 'FAILURE', fail_reason: `writer ${i}`, progress: '100%' }
              : { status: 'FAILURE', fail_reason: `writer ${i}` },
          model: 'mj_imagine',
          reason: `writer ${i}`,
        }),
      ),
    );
    expect(ends.filter((e) => e.finished)).toHaveLength(1);
    expect(ends.reduce((sum, e) => sum + e.refunded, 0)).toBe(QUOTA);
    const after = await balances(t, ids());
    expect(after.userQuota - charged.userQuota).toBe(QUOTA);
    expect(charged.userUsed - after.userUsed).toBe(QUOTA);
    expect(after.tokenRemain - charged.tokenRemain).toBe(QUOTA);
    expect(charged.channelUsed - after.channelUsed).toBe(QUOTA);
    const refunds = await t.db.db
      .selectFrom('logs')
      .selectAll()
      .where('user_id', '=', userId)
      .where('type', '=', LOG_TYPE.system)
      .where('content', 'like', `%${mjId}%`)
      .execute();
    expect(refunds).toHaveLength(1);
    expect(refunds[0]?.content).toContain(`${QUOTA} quota refunded`);
    expect(JSON.parse(refunds[0]?.other ?? '{}')).toMatchObject({ task_id: mjId, refund_quota: QUOTA });
    // A final task takes no more progress.
    expect(await updateTask(rt, 'midjourneys', id, { progress: '50%' })).toBe(false);
  });

  it('refunds nothing when success and failure race and success wins, and never twice either way', async () => {
    const { id } = await acceptedDrawing();
    const charged = await balances(t, ids());
    const [success, failure] = await Promise.all([
      finishTask(rt, { table: 'midjourneys', id, changes: { status: 'SUCCESS' }, model: 'mj_imagine' }),
      finishTask(rt, { table: 'midjourneys', id, changes: { status: 'FAILURE' }, model: 'mj_imagine' }),
    ]);
    expect(Number(success.finished) + Number(failure.finished)).toBe(1);
    const after = await balances(t, ids());
    const row = await t.db.db
      .selectFrom('midjourneys')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(after.userQuota - charged.userQuota).toBe(row.status === 'FAILURE' ? QUOTA : 0);
  });

  it('times out and refunds accepted drawings only, never a refused submit imported from new-api', async () => {
    const { id: accepted } = await acceptedDrawing();
    const dayAgo = Date.now() - 25 * 3600_000;
    await t.db.db
      .updateTable('midjourneys')
      .set({ submit_time: dayAgo })
      .where('id', '=', accepted)
      .execute();
    // new-api keeps a refused submit (code 24, banned prompt) with the quota it would have cost.
    await t.db.db
      .insertInto('midjourneys')
      .values({
        user_id: userId,
        channel_id: channelId,
        action: 'IMAGINE',
        mj_id: '',
        prompt: 'refused',
        prompt_en: '',
        description: 'banned prompt',
        state: '',
        image_url: '',
        fail_reason: '',
        buttons: '',
        properties: '',
        status: '',
        code: 24,
        quota: QUOTA,
        submit_time: dayAgo,
      })
      .execute();
    const before = await balances(t, ids());
    expect(await failTimedOut(rt, MIDJOURNEY_TIMEOUT, Date.now())).toBe(1);
    const after = await balances(t, ids());
    expect(after.userQuota - before.userQuota).toBe(QUOTA);
    const row = await t.db.db
      .selectFrom('midjourneys')
      .select(['status', 'fail_reason'])
      .where('id', '=', accepted)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'FAILURE', fail_reason: 'the task did not finish within 1440 minutes' });
    // A second sweep finds nothing left to end.
    expect(await failTimedOut(rt, MIDJOURNEY_TIMEOUT, Date.now())).toBe(0);
  });

  it('refuses a task model priced only by ratio, and a balance that cannot pay', async () => {
    await expect(holdTaskQuota(rt, caller, 'mj_ratio_only')).rejects.toMatchObject({
      status: 400,
      code: 'model_price_not_set',
    });
    const poor = await t.createUser({ quota: QUOTA - 1 });
    const token = await addToken(t, poor.id);
    const cached = await rt.credentials.token(token.key.slice(3));
    if (!cached) throw new Error('token not found');
    const refused = await holdTaskQuota(
      rt,
      { ...caller, userId: poor.id, token: cached },
      'mj_imagine',
    ).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RelayError);
    expect(refused).toMatchObject({ status: 403, code: 'insufficient_user_quota' });
  });
});
