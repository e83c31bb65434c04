import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../test-support/databases.js';
import { createTestApp } from '../test-support/test-app.js';
import type { TestApp } from '../test-support/test-app.js';
import { addChannel, addToken } from '../test-support/relay-kit.js';
import { createLedgerWriter } from './ledger-writer.js';
import { createQuotaDataRecorder } from './quota-data.js';
import { refundStaleHolds, reserveQuota, settleQuota } from './ledger.js';
import type { HoldRequest } from './ledger.js';

describe.each(testDialects())('quota ledger on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => t?.close());

  const reserve = (hold: Omit<HoldRequest, 'now'>, now = 1_000) =>
    reserveQuota(t.db.db, t.db.dialect, { ...hold, now });
  const user = (id: number) =>
    t.db.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const token = (id: number) =>
    t.db.db.selectFrom('tokens').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('holds quota only when both the token and the user can cover it', async () => {
    const u = await t.createUser({ quota: 100 });
    const tk = await addToken(t, u.id, { remain_quota: 50 });
    expect(await reserve({ userId: u.id, tokenId: tk.id, amount: 60 })).toEqual({
      ok: false,
      short: 'token',
    });
    const unlimited = await addToken(t, u.id, { remain_quota: 0, unlimited_quota: 1 });
    expect(await reserve({ userId: u.id, tokenId: unlimited.id, amount: 101 })).toEqual({
      ok: false,
      short: 'user',
    });
    expect((await reserve({ userId: u.id, tokenId: tk.id, amount: 40 })).ok).toBe(true);
    expect((await user(u.id)).quota).toBe(60);
    expect((await token(tk.id)).remain_quota).toBe(10);
    // A refused hold left nothing behind.
    expect((await token(unlimited.id)).remain_quota).toBe(0);
  });

  it('never lets concurrent holds overdraw a balance', async () => {
    const u = await t.createUser({ quota: 1_000 });
    const tk = await addToken(t, u.id, { remain_quota: 10_000 });
    const results = await Promise.all(
      Array.from({ length: 60 }, () => reserve({ userId: u.id, tokenId: tk.id, amount: 50 })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(20);
    expect((await user(u.id)).quota).toBe(0);
    expect((await token(tk.id)).remain_quota).toBe(10_000 - 20 * 50);
  });

  it('settles holds to the exact charge under concurrency, with one log row each', async () => {
    const u = await t.createUser({ quota: 1_000_000 });
    const tk = await addToken(t, u.id, { remain_quota: 1_000_000 });
    const ch = await addChannel(t, { base_url: 'http://127.0.0.1:9' });
    const charges = Array.from({ length: 80 }, (_, i) => (i % 4 === 0 ? 0 : 37 + i));
    await Promise.all(
      charges.map(async (quota) => {
        const reserved = await reserve({ userId: u.id, tokenId: tk.id, amount: 100 });
        if (!reserved.ok) throw new Error('the hold was refused');
        await settleQuota(t.db.db, {
          hold: reserved.hold,
          quota,
          channelId: ch,
          countRequest: quota > 0,
          now: 1,
          log: { user_id: u.id, created_at: 1, type: 2, content: '', other: '{}', quota },
        });
      }),
    );
    const total = charges.reduce((a, b) => a + b, 0);
    const after = await user(u.id);
    expect(after.quota).toBe(1_000_000 - total);
    expect(after.used_quota).toBe(total);
    expect(after.request_count).toBe(charges.filter((q) => q > 0).length);
    expect((await token(tk.id)).remain_quota).toBe(1_000_000 - total);
    expect((await token(tk.id)).used_quota).toBe(total);
    const channel = await t.db.db
      .selectFrom('channels')
      .select('used_quota')
      .where('id', '=', ch)
      .executeTakeFirstOrThrow();
    expect(channel.used_quota).toBe(total);
    const logs = await t.db.db.selectFrom('logs').select('quota').where('user_id', '=', u.id).execute();
    expect(logs).toHaveLength(80);
    expect(logs.reduce((a, l) => a + l.quota, 0)).toBe(total);
  });

  it('refunds holds that never settled, and a late settle then charges in full', async () => {
    const u = await t.createUser({ quota: 1_000 });
    const tk = await addToken(t, u.id, { remain_quota: 1_000 });
    const old = await reserve({ userId: u.id, tokenId: tk.id, amount: 300 }, 1_000);
    const fresh = await reserve({ userId: u.id, tokenId: tk.id, amount: 200 }, 5_000);
    if (!old.ok || !fresh.ok) throw new Error('the holds were refused');
    expect((await user(u.id)).quota).toBe(500);
    // Older holds left by earlier cases (never settled) go back too.
    expect(await refundStaleHolds(t.db.db, 2_000)).toBeGreaterThanOrEqual(1);
    expect((await user(u.id)).quota).toBe(800);
    expect((await token(tk.id)).remain_quota).toBe(800);
    // The cut-off call turns out to finish after all: it pays its 120, once.
    await settleQuota(t.db.db, { hold: old.hold, quota: 120, channelId: 0, countRequest: true, now: 3_000 });
    await settleQuota(t.db.db, { hold: fresh.hold, quota: 50, channelId: 0, countRequest: true, now: 6_000 });
    expect((await user(u.id)).quota).toBe(1_000 - 120 - 50);
    expect((await token(tk.id)).remain_quota).toBe(1_000 - 120 - 50);
    expect(await refundStaleHolds(t.db.db, 10_000)).toBe(0);
    const left = await t.db.db.selectFrom('quota_holds').select('id').where('user_id', '=', u.id).execute();
    expect(left).toHaveLength(0);
  });

  it('commits concurrent holds and settlements in shared transactions with the same results', async () => {
    const writer = createLedgerWriter(t.db.db, t.db.dialect);
    const u = await t.createUser({ quota: 10_000 });
    const tk = await addToken(t, u.id, { remain_quota: 1_000_000 });
    const outcomes = await Promise.all(
      Array.from({ length: 150 }, async (_, i) => {
        const reserved = await writer.reserve({ userId: u.id, tokenId: tk.id, amount: 100, now: 1 });
        if (!reserved.ok) return 0;
        const quota = i % 3;
        await writer.settle({ hold: reserved.hold, quota, channelId: 0, countRequest: true, now: 1 });
        return quota;
      }),
    );
    await writer.drain();
    const charged = outcomes.reduce((a, b) => a + b, 0);
    expect((await user(u.id)).quota).toBe(10_000 - charged);
    expect((await user(u.id)).used_quota).toBe(charged);
    expect((await token(tk.id)).used_quota).toBe(charged);
    expect((await token(tk.id)).remain_quota).toBe(1_000_000 - charged);
  });

  it('fails only the entry that cannot be written when a shared transaction fails', async () => {
    const writer = createLedgerWriter(t.db.db, t.db.dialect);
    const u = await t.createUser({ quota: 1_000 });
    const good = (quota: number) => ({
      hold: { userId: u.id, tokenId: null, amount: 0, id: null },
      quota,
      channelId: 0,
      countRequest: true,
      now: 1,
    });
    // A log row without its required content makes the insert fail.
    const bad = {
      ...good(5),
      log: { user_id: u.id, created_at: 1, type: 2, content: null as unknown as string, other: '{}' },
    };
    const results = await Promise.allSettled([
      writer.settle(good(7)),
      writer.settle(bad),
      writer.settle(good(11)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await user(u.id)).used_quota).toBe(18);
  });

  it('sums usage per user, model and hour into quota_data, adding to rows already written', async () => {
    const recorder = createQuotaDataRecorder(t.db.db, t.db.dialect);
    const hour = 1_700_000_000 - (1_700_000_000 % 3600);
    recorder.record({ userId: 7, username: 'u7', modelName: 'm', at: hour + 10, tokens: 100, quota: 5 });
    recorder.record({ userId: 7, username: 'u7', modelName: 'm', at: hour + 3599, tokens: 50, quota: 3 });
    recorder.record({ userId: 7, username: 'u7', modelName: 'm', at: hour + 3600, tokens: 1, quota: 1 });
    await recorder.flush();
    recorder.record({ userId: 7, username: 'u7', modelName: 'm', at: hour + 20, tokens: 10, quota: 2 });
    await recorder.flush();
    const rows = await t.db.db
      .selectFrom('quota_data')
      .selectAll()
      .where('user_id', '=', 7)
      .orderBy('created_at')
      .execute();
    expect(rows.map((r) => [r.created_at, r.token_used, r.count, r.quota])).toEqual([
      [hour, 160, 3, 10],
      [hour + 3600, 1, 1, 1],
    ]);
  });
});
