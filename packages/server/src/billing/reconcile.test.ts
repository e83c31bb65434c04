// Reconciliation on each database: every path that moves money writes its row with the signed
// amount, so balances reconcile with the logs after each one and after a mixed workload; a balance
// changed without a row is reported with its size (here, through the root console route too).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockUpstream, withMock } from '@sluice/mock-upstream';
import type { MockDirective, MockUpstream } from '@sluice/mock-upstream';
import { LOG_TYPE, MSG, ROLE } from '@sluice/shared';
import type { LogRow } from '../db/tables.js';
import type { RelayCaller } from '../relay/auth/relay-auth.js';
import { relayRuntime } from '../relay/pipeline/relay-runtime.js';
import type { RelayRuntime } from '../relay/pipeline/relay-runtime.js';
import { chargeAcceptedTask, finishTask, holdTaskQuota } from '../relay/tasks/task-ledger.js';
import { testDialects } from '../test-support/databases.js';
import { startFakeEpay } from '../test-support/fakes/fake-epay.js';
import type { FakeEpay } from '../test-support/fakes/fake-epay.js';
import { addChannel, addToken, billingWritten, setOptions } from '../test-support/relay-kit.js';
import type { TestToken } from '../test-support/relay-kit.js';
import { createTestApp, expectRefusal } from '../test-support/test-app.js';
import type { Caller, TestApp } from '../test-support/test-app.js';
import { reconcile } from './reconcile.js';
import type { Difference, ReconcileReport } from './reconcile.js';

const MODEL = 'reconcile-model';
const TASK_MODEL = 'mj_imagine';
const TASK_QUOTA = 50_000; // $0.10 per call at 500,000 quota per dollar

interface Answer<T> {
  success: boolean;
  message: string;
  data: T;
}

describe.each(testDialects())('reconciliation of every money path on %s', (dialect) => {
  let t: TestApp;
  let rt: RelayRuntime;
  let mock: MockUpstream;
  let gateway: FakeEpay;
  let root: Caller;
  let admin: Caller;
  let taskChannel: number;
  let serial = 0;

  beforeAll(async () => {
    mock = await startMockUpstream({ record: false });
    gateway = await startFakeEpay();
    t = await createTestApp({ dialect, config: { initialRootPassword: '123456' } });
    rt = relayRuntime(t.app.ctx);
    // The gateway calls the notify URL over real HTTP.
    const serverUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    await setOptions(t, {
      ModelRatio: { [MODEL]: 2 },
      ModelPrice: { [TASK_MODEL]: 0.1 },
      GroupRatio: { default: 1 },
      RetryTimes: 0,
      PayAddress: gateway.url,
      EpayId: gateway.pid,
      EpayKey: gateway.key,
      ServerAddress: serverUrl,
      Price: 7.3,
      MinTopUp: 1,
    });
    await addChannel(t, { base_url: mock.url, models: MODEL });
    taskChannel = await addChannel(t, { type: 2, base_url: 'http://127.0.0.1:9', models: TASK_MODEL });
    root = await t.login('root', '123456');
    admin = await t.createUser({ role: ROLE.admin });
  });
  afterAll(async () => {
    await t?.close();
    await gateway?.close();
    await mock?.close();
  });

  const now = () => Math.floor(Date.now() / 1000);
  /** From the beginning: every balance against every row. */
  const check = async (): Promise<ReconcileReport> => {
    await billingWritten(t);
    return reconcile(t.db.db, t.db.dialect, { start: 0, now: now() });
  };
  const expectClean = async () => {
    const report = await check();
    expect(report.differences).toEqual([]);
    return report;
  };
  const dataOf = <T>(res: { json<R>(): R; body: string }): T => {
    const body = res.json<Answer<T>>();
    expect(body.success, res.body).toBe(true);
    return body.data;
  };
  const user = (id: number) =>
    t.db.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const rowsOf = (userId: number): Promise<LogRow[]> =>
    t.db.db.selectFrom('logs').selectAll().where('user_id', '=', userId).orderBy('id').execute();
  const factsOf = (row: LogRow | undefined): Record<string, unknown> =>
    JSON.parse(row?.other ?? '{}') as Record<string, unknown>;

  const addQuota = (id: number, value: number) =>
    t.call({
      method: 'POST',
      url: '/api/user/manage',
      as: admin,
      payload: { id, action: 'add_quota', value },
    });
  /** A user whose starting quota came from an administrator, so it has its row. */
  const fundedUser = async (quota: number): Promise<Caller> => {
    const caller = await t.createUser();
    dataOf(await addQuota(caller.id, quota));
    return caller;
  };
  const redeem = async (as: Caller, quota: number) => {
    const [key] = dataOf<string[]>(
      await t.call({
        method: 'POST',
        url: '/api/redemption/',
        as: admin,
        payload: { name: `code ${++serial}`, quota, count: 1 },
      }),
    );
    return dataOf<number>(await t.call({ method: 'POST', url: '/api/user/topup', as, payload: { key } }));
  };
  const topUp = async (as: Caller, amount: number) => {
    const pay = await t.call({
      method: 'POST',
      url: '/api/user/pay',
      as,
      payload: { amount, payment_method: 'zfb' },
    });
    const fields = pay.json<{ data: Record<string, string> }>().data;
    expect((await gateway.submit(fields)).status).toBe(200);
    expect(await gateway.pay(fields.out_trade_no as string)).toBe('success');
  };
  const chat = async (token: TestToken, content: string, directive: MockDirective = {}, stream = false) => {
    const res = await t.call({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${token.key}` },
      payload: { model: MODEL, stream, messages: [{ role: 'user', content: withMock(content, directive) }] },
    });
    return res.statusCode;
  };
  /** A drawing charged as an accepted upstream would have it, then failed: charged, then refunded. */
  const failedTask = async (as: Caller, token: TestToken) => {
    const cached = await rt.credentials.token(token.key.slice(3));
    if (!cached) throw new Error('token not found');
    const caller: RelayCaller = {
      userId: as.id,
      username: as.username,
      role: as.role,
      token: cached,
      group: 'default',
      ip: '',
    };
    const held = await holdTaskQuota(rt, caller, TASK_MODEL);
    const mjId = `1700000000${String(++serial).padStart(5, '0')}`;
    await chargeAcceptedTask(rt, caller, held, {
      channelId: taskChannel,
      taskId: mjId,
      insert: async (trx) => {
        await trx
          .insertInto('midjourneys')
          .values({
            user_id: as.id,
            token_id: token.id,
            channel_id: taskChannel,
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
    const end = await finishTask(rt, {
      table: 'midjourneys',
      id: Number(row.id),
      changes: { status: 'FAILURE', fail_reason: 'upstream refused', progress: '100%' },
      model: TASK_MODEL,
      reason: 'upstream refused',
    });
    expect(end.refunded).toBe(TASK_QUOTA);
    return mjId;
  };

  it("logs root's initial quota, so a fresh database reconciles from the beginning", async () => {
    const rows = await rowsOf(root.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ type: LOG_TYPE.system, quota: 0 });
    expect(factsOf(rows[0])).toEqual({ event: 'initial_quota', quota_delta: 100_000_000 });
    const report = await expectClean();
    expect(report).toMatchObject({ from: null, to: null });
    expect(report.totals.grant?.quota).toBe(100_000_000);
  });

  it("logs a new account's grant, the invitee's bonus, the inviter's earnings and their transfer", async () => {
    await setOptions(t, { QuotaForNewUser: 1000, QuotaForInvitee: 500, QuotaForInviter: 600_000 });
    try {
      const register = async (payload: object) =>
        dataOf(
          await t.call({
            method: 'POST',
            url: '/api/user/register',
            payload: { password: 'password123', ...payload },
          }),
        );
      const inviterName = `inv${++serial}`;
      await register({ username: inviterName });
      const inviter = await t.login(inviterName, 'password123');
      const { aff_code: affCode } = await user(inviter.id);
      const inviteeName = `new${++serial}`;
      await register({ username: inviteeName, aff_code: affCode });
      const invitee = await t.login(inviteeName, 'password123');

      const theirs = await rowsOf(invitee.id);
      expect(theirs.map((r) => r.type)).toEqual([LOG_TYPE.system, LOG_TYPE.system]);
      expect(theirs.map(factsOf)).toEqual([
        { event: 'initial_quota', quota_delta: 1000 },
        { event: 'invite_bonus', quota_delta: 500, inviter_id: inviter.id },
      ]);
      expect(Number((await user(invitee.id)).quota)).toBe(1500);
      const mine = await rowsOf(inviter.id);
      expect(mine.map(factsOf)).toEqual([
        { event: 'initial_quota', quota_delta: 1000 },
        { event: 'invite_reward', aff_quota_delta: 600_000, invitee_id: invitee.id },
      ]);
      await expectClean();

      dataOf(
        await t.call({
          method: 'POST',
          url: '/api/user/aff_transfer',
          as: inviter,
          payload: { quota: 500_000 },
        }),
      );
      const transfer = (await rowsOf(inviter.id)).at(-1);
      expect(transfer?.type).toBe(LOG_TYPE.system);
      expect(factsOf(transfer)).toEqual({
        event: 'aff_transfer',
        quota_delta: 500_000,
        aff_quota_delta: -500_000,
      });
      expect(await user(inviter.id)).toMatchObject({ quota: 501_000, aff_quota: 100_000 });
      const report = await expectClean();
      expect(report.totals.transfer).toEqual({ quota: 500_000, used_quota: 0, aff_quota: -500_000 });
    } finally {
      await setOptions(t, { QuotaForNewUser: 0, QuotaForInvitee: 0, QuotaForInviter: 0 });
    }
  });

  it('logs a redemption with its signed amount', async () => {
    const me = await t.createUser();
    expect(await redeem(me, 250_000)).toBe(250_000);
    const [row] = await rowsOf(me.id);
    expect(row).toMatchObject({ type: LOG_TYPE.topup, quota: 250_000 });
    expect(factsOf(row)).toMatchObject({ event: 'redeem', quota_delta: 250_000 });
    await expectClean();
  });

  it('logs an online top-up with its signed amount', async () => {
    const me = await t.createUser();
    await topUp(me, 2);
    expect(Number((await user(me.id)).quota)).toBe(1_000_000);
    const [row] = await rowsOf(me.id);
    expect(row).toMatchObject({ type: LOG_TYPE.topup, quota: 1_000_000 });
    expect(factsOf(row)).toMatchObject({ event: 'online_topup', quota_delta: 1_000_000 });
    await expectClean();
  });

  it("logs an administrator's additions, subtractions and settings with their signed amounts", async () => {
    const me = await t.createUser();
    dataOf(await addQuota(me.id, 3000));
    dataOf(await addQuota(me.id, -1000));
    dataOf(await t.call({ method: 'PUT', url: '/api/user/', as: admin, payload: { id: me.id, quota: 500 } }));
    const rows = await rowsOf(me.id);
    expect(rows.map((r) => r.type)).toEqual([LOG_TYPE.manage, LOG_TYPE.manage, LOG_TYPE.manage]);
    expect(rows.map((r) => factsOf(r).quota_delta)).toEqual([3000, -1000, -1500]);
    expect(Number((await user(me.id)).quota)).toBe(500);
    const report = await expectClean();
    expect(report.totals.admin?.quota).toBeGreaterThanOrEqual(500);
  });

  it('logs consumption by its quota: the user’s and the token’s balances agree with it', async () => {
    const me = await fundedUser(5_000_000);
    const token = await addToken(t, me.id, { remain_quota: 2_000_000 });
    expect(await chat(token, 'one call')).toBe(200);
    expect(await chat(token, 'a streamed call', {}, true)).toBe(200);
    await billingWritten(t);
    const spent = (await rowsOf(me.id)).filter((r) => r.type === LOG_TYPE.consume);
    expect(spent).toHaveLength(2);
    const total = spent.reduce((sum, r) => sum + Number(r.quota), 0);
    expect(total).toBeGreaterThan(0);
    expect(await user(me.id)).toMatchObject({ quota: 5_000_000 - total, used_quota: total });
    await expectClean();
  });

  it('logs a task refund with its signed amounts, for the user and the token', async () => {
    const me = await fundedUser(1_000_000);
    const token = await addToken(t, me.id, { remain_quota: 1_000_000 });
    const mjId = await failedTask(me, token);
    const refund = (await rowsOf(me.id)).find((r) => r.type === LOG_TYPE.system);
    expect(refund).toMatchObject({ token_id: token.id, channel_id: taskChannel, quota: 0 });
    expect(factsOf(refund)).toEqual({
      event: 'task_refund',
      task_id: mjId,
      refund_quota: TASK_QUOTA,
      quota_delta: TASK_QUOTA,
      used_quota_delta: -TASK_QUOTA,
      reason: 'upstream refused',
    });
    expect(await user(me.id)).toMatchObject({ quota: 1_000_000, used_quota: 0 });
    const report = await expectClean();
    expect(report.totals.refund).toMatchObject({ quota: expect.any(Number), used_quota: expect.any(Number) });
  });

  it('reconciles after a mixed workload on one account', async () => {
    const me = await fundedUser(20_000_000);
    const tokens = [
      await addToken(t, me.id, { remain_quota: 5_000_000 }),
      await addToken(t, me.id, { unlimited_quota: 1 }),
    ];
    const directives: Array<[MockDirective, boolean]> = [
      [{}, false],
      [{ cached_tokens: 3 }, true],
      [{ status: 500 }, false],
      [{ reply_tokens: 30, cut_after: 4 }, true],
      [{ no_usage: true }, false],
    ];
    await Promise.all([
      ...Array.from({ length: 15 }, (_, i) => {
        const [directive, stream] = directives[i % directives.length] as [MockDirective, boolean];
        return chat(tokens[i % 2] as TestToken, `mixed call ${i}`, directive, stream);
      }),
      redeem(me, 300_000),
      topUp(me, 1),
      addQuota(me.id, -12_345),
      failedTask(me, tokens[0] as TestToken),
    ]);
    const report = await expectClean();
    for (const category of ['consumption', 'redemption', 'topup', 'admin', 'refund'] as const) {
      expect(report.totals[category], category).toBeDefined();
    }
    const mine = await rowsOf(me.id);
    expect(mine.filter((r) => r.type === LOG_TYPE.consume).length).toBeGreaterThanOrEqual(12);
    expect(mine.filter((r) => r.type === LOG_TYPE.error)).toHaveLength(3);
  });

  it('warns that calls leave no row to account for them while LogConsumeEnabled is off', async () => {
    const me = await fundedUser(1_000_000);
    const token = await addToken(t, me.id);
    await setOptions(t, { LogConsumeEnabled: false });
    try {
      expect(await chat(token, 'charged without a row')).toBe(200);
      const report = await check();
      expect(report.warnings).toEqual([
        'LogConsumeEnabled is off: calls are charged without a consumption row, so their charges show as differences',
      ]);
      const spent = Number((await user(me.id)).used_quota);
      expect(spent).toBeGreaterThan(0);
      expect(report.differences.map((d) => [d.kind, d.field, d.difference])).toEqual([
        ['user', 'quota', -spent],
        ['user', 'used_quota', spent],
        ['token', 'used_quota', spent],
      ]);
      // Given back by hand (as an operator would after reading the report), the books balance again.
      await t.db.db
        .updateTable('users')
        .set((eb) => ({ quota: eb('quota', '+', spent), used_quota: eb('used_quota', '-', spent) }))
        .where('id', '=', me.id)
        .execute();
      await t.db.db
        .updateTable('tokens')
        .set((eb) => ({ used_quota: eb('used_quota', '-', spent) }))
        .where('id', '=', token.id)
        .execute();
    } finally {
      await setOptions(t, { LogConsumeEnabled: true });
    }
    expect((await expectClean()).warnings).toEqual([]);
  });

  it('reports a balance changed without a log row with its size, here and to root on the console', async () => {
    const me = await fundedUser(1_000_000);
    const token = await addToken(t, me.id);
    expect(await chat(token, 'before the damage')).toBe(200);
    await expectClean();
    const corrupt = async (sign: 1 | -1) => {
      await t.db.db
        .updateTable('users')
        .set((eb) => ({ quota: eb('quota', '+', sign * 4242), aff_quota: eb('aff_quota', '+', sign * 5) }))
        .where('id', '=', me.id)
        .execute();
      await t.db.db
        .updateTable('tokens')
        .set((eb) => ({ used_quota: eb('used_quota', '-', sign * 17) }))
        .where('id', '=', token.id)
        .execute();
    };
    await corrupt(1);
    try {
      const { quota, used_quota: used, aff_quota: aff } = await user(me.id);
      const tokenRow = await t.db.db
        .selectFrom('tokens')
        .select('used_quota')
        .where('id', '=', token.id)
        .executeTakeFirstOrThrow();
      const spent = Number(used);
      const expected: Difference[] = [
        {
          kind: 'user',
          id: me.id,
          name: me.username,
          field: 'quota',
          start: 0,
          end: Number(quota),
          logged: 1_000_000 - spent,
          difference: 4242,
          by: { admin: 1_000_000, consumption: -spent },
        },
        {
          kind: 'user',
          id: me.id,
          name: me.username,
          field: 'aff_quota',
          start: 0,
          end: Number(aff),
          logged: 0,
          difference: 5,
          by: {},
        },
        {
          kind: 'token',
          id: token.id,
          name: expect.any(String) as string,
          user_id: me.id,
          field: 'used_quota',
          start: 0,
          end: Number(tokenRow.used_quota),
          logged: spent,
          difference: -17,
          by: { consumption: spent },
        },
      ];
      expect((await check()).differences).toEqual(expected);

      const res = await t.call({ method: 'GET', url: '/api/reconcile?start_timestamp=0', as: root });
      const report = dataOf<ReconcileReport>(res);
      expect(report.differences).toEqual(expected);
      expect(report.users).toBeGreaterThan(3);
      expectRefusal(await t.call({ method: 'GET', url: '/api/reconcile', as: admin }), MSG.forbidden);
      expectRefusal(
        await t.call({ method: 'GET', url: '/api/reconcile?start_timestamp=yesterday', as: root }),
        'start_timestamp must be a unix time in seconds',
      );
    } finally {
      await corrupt(-1);
    }
    await expectClean();
  });
});
