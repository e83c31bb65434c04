// Reconciliation over periods on each database: a snapshot is stored only when the period up to it
// reconciles (or the differences are accepted), later checks start from it, a period can end at a
// later snapshot, and logs purged before a period's start do not disturb it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockUpstream } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { LOG_TYPE, ROLE } from '@sluice/shared';
import { deleteLogsBefore } from '../features/logs/logs.repository.js';
import { testDialects } from '../test-support/databases.js';
import { addChannel, addToken, billingWritten, setOptions } from '../test-support/relay-kit.js';
import { createTestApp } from '../test-support/test-app.js';
import type { Caller, TestApp } from '../test-support/test-app.js';
import { SNAPSHOT_MARGIN_S, reconcile, takeSnapshot } from './reconcile.js';
import type { ReconcileReport, SnapshotResult } from './reconcile.js';

const MODEL = 'snapshot-model';

interface Answer<T> {
  success: boolean;
  message: string;
  data: T;
}

const now = () => Math.floor(Date.now() / 1000);

describe.each(testDialects())('reconciliation periods on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let root: Caller;
  let admin: Caller;

  beforeAll(async () => {
    mock = await startMockUpstream({ record: false });
    t = await createTestApp({ dialect, config: { initialRootPassword: '123456' } });
    await setOptions(t, { ModelRatio: { [MODEL]: 2 }, GroupRatio: { default: 1 } });
    await addChannel(t, { base_url: mock.url, models: MODEL });
    root = await t.login('root', '123456');
    admin = await t.createUser({ role: ROLE.admin });
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  const api = async <T>(method: 'GET' | 'POST', url: string, payload?: object): Promise<T> => {
    await billingWritten(t);
    const res = await t.call({ method, url, as: root, ...(payload ? { payload } : {}) });
    const body = res.json<Answer<T>>();
    expect(body.success, res.body).toBe(true);
    return body.data;
  };
  const fundedUser = async (quota: number) => {
    const me = await t.createUser();
    const res = await t.call({
      method: 'POST',
      url: '/api/user/manage',
      as: admin,
      payload: { id: me.id, action: 'add_quota', value: quota },
    });
    expect(res.json<Answer<unknown>>().success).toBe(true);
    return me;
  };
  const chat = async (key: string) => {
    const res = await t.call({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${key}` },
      payload: { model: MODEL, messages: [{ role: 'user', content: 'a call' }] },
    });
    expect(res.statusCode).toBe(200);
  };
  const shift = (table: 'users' | 'tokens', column: 'quota' | 'used_quota', id: number, by: number) =>
    t.db.db
      .updateTable(table as 'users')
      .set((eb) => ({ [column]: eb(column, '+', by) }))
      .where('id', '=', id)
      .execute();
  const sizes = (report: ReconcileReport) =>
    report.differences.map((d) => [d.kind, d.id, d.field, d.difference]);

  it('stores a snapshot only when the period reconciles or its differences are accepted, and checks from it', async () => {
    const me = await fundedUser(2_000_000);
    const token = await addToken(t, me.id);
    await chat(token.key);
    await shift('users', 'quota', me.id, 1000);

    await billingWritten(t);
    const refused = await takeSnapshot(t.db.db, t.db.dialect, { now: now() });
    expect(refused.saved).toBeNull();
    expect(sizes(refused.report)).toEqual([['user', me.id, 'quota', 1000]]);
    expect(await api<number[]>('GET', '/api/reconcile/snapshots')).toEqual([]);

    const before = now();
    const accepted = await api<SnapshotResult>('POST', '/api/reconcile/snapshot', { accept: true });
    expect(sizes(accepted.report)).toEqual([['user', me.id, 'quota', 1000]]);
    expect(accepted.saved).toBeGreaterThanOrEqual(before - SNAPSHOT_MARGIN_S);
    expect(accepted.saved).toBeLessThanOrEqual(now() - SNAPSHOT_MARGIN_S);
    const first = accepted.saved as number;
    expect(await api<number[]>('GET', '/api/reconcile/snapshots')).toEqual([first]);

    // From the snapshot the accepted difference is part of the starting point; from the beginning not.
    const since = await api<ReconcileReport>('GET', '/api/reconcile');
    expect(since).toMatchObject({ from: first, to: null, differences: [] });
    expect(sizes(await api<ReconcileReport>('GET', '/api/reconcile?start_timestamp=0'))).toEqual([
      ['user', me.id, 'quota', 1000],
    ]);

    // Money moving after it reconciles; a balance changed without a row does not.
    await chat(token.key);
    await shift('tokens', 'used_quota', token.id, 7);
    const damaged = await api<ReconcileReport>('GET', '/api/reconcile');
    expect(sizes(damaged)).toEqual([['token', token.id, 'used_quota', 7]]);
    expect(damaged.totals.consumption?.used_quota).toBeGreaterThan(0);
    expect((await takeSnapshot(t.db.db, t.db.dialect, { now: now() + 1 })).saved).toBeNull();

    await shift('tokens', 'used_quota', token.id, -7);
    const next = await takeSnapshot(t.db.db, t.db.dialect, { now: now() + 1 });
    expect(next.report.differences).toEqual([]);
    expect(next.saved).toBeGreaterThan(first);
    expect(await api<ReconcileReport>('GET', '/api/reconcile')).toMatchObject({
      from: next.saved,
      differences: [],
    });
    // A check from a time before every snapshot starts from the beginning.
    expect((await reconcile(t.db.db, t.db.dialect, { start: first - 1, now: now() })).from).toBeNull();
  });
});

describe.each(testDialects())('reconciliation between snapshots and after a purge on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ dialect, config: { initialRootPassword: '123456' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** An administrator's change made at `at`: the balance and its row, as they were written then. */
  const pastChange = async (userId: number, delta: number, at: number) => {
    await t.db.db
      .updateTable('users')
      .set((eb) => ({ quota: eb('quota', '+', delta) }))
      .where('id', '=', userId)
      .execute();
    await t.db.db
      .insertInto('logs')
      .values({
        user_id: userId,
        created_at: at,
        type: LOG_TYPE.manage,
        content: `administrator added ${delta} quota`,
        other: JSON.stringify({ event: 'admin_add_quota', quota_delta: delta, admin_info: { admin_id: 1 } }),
      })
      .execute();
  };

  it('checks a period that ends at a later snapshot, and one whose older logs were purged', async () => {
    const t0 = now();
    const me = await t.createUser();
    await pastChange(me.id, 700, t0 - 7200);
    const a = await takeSnapshot(t.db.db, t.db.dialect, { now: t0 - 3600 });
    expect(a.report.differences).toEqual([]);
    expect(a.saved).toBe(t0 - 3600 - SNAPSHOT_MARGIN_S);
    await pastChange(me.id, 300, t0 - 3000);
    const b = await takeSnapshot(t.db.db, t.db.dialect, { now: t0 });
    expect(b.report).toMatchObject({ from: a.saved, differences: [] });
    expect(b.saved).toBe(t0 - SNAPSHOT_MARGIN_S);
    const [from, to] = [a.saved as number, b.saved as number];

    const between = await reconcile(t.db.db, t.db.dialect, { start: from, end: to, now: now() });
    expect(between).toMatchObject({ from, to, log_rows: 1, differences: [] });
    expect(between.totals.admin?.quota).toBe(300);

    // The end of the period is the later snapshot's balances.
    const nudge = (by: number) =>
      t.db.db
        .updateTable('balance_snapshots')
        .set((eb) => ({ quota: eb('quota', '+', by) }))
        .where('as_of', '=', to)
        .where('kind', '=', 'user')
        .where('account_id', '=', me.id)
        .execute();
    await nudge(9);
    const off = await reconcile(t.db.db, t.db.dialect, { start: from, end: to, now: now() });
    expect(off.differences).toMatchObject([
      { kind: 'user', id: me.id, field: 'quota', start: 700, end: 1009, logged: 300, difference: 9 },
    ]);
    await nudge(-9);

    // Logs older than a day purged: checks from either snapshot still hold; from the beginning the
    // purged change shows, with the warning that says why.
    await t.app.ctx.options.set('LogRetentionDays', '1');
    expect(await deleteLogsBefore(t.db.db, t0 - 3600)).toBe(1);
    const latest = await reconcile(t.db.db, t.db.dialect, { now: now() });
    expect(latest).toMatchObject({ from: to, differences: [], warnings: [] });
    expect((await reconcile(t.db.db, t.db.dialect, { start: from, now: now() })).differences).toEqual([]);
    const all = await reconcile(t.db.db, t.db.dialect, { start: 0, now: now() });
    expect(all.differences).toMatchObject([{ kind: 'user', id: me.id, field: 'quota', difference: 700 }]);
    expect(all.warnings).toEqual([
      'LogRetentionDays is 1: rows older than that may have been deleted; reconcile from a snapshot taken within the last 1 days',
    ]);
  });
});
