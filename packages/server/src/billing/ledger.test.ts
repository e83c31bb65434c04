import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../test-support/databases.js';
import { createTestApp } from '../test-support/test-app.js';
import type { TestApp } from '../test-support/test-app.js';
import { addChannel, addToken } from '../test-support/relay-kit.js';
import { LedgerOutcomeUnknown, createLedgerStore } from './ledger-store.js';
import { createLedgerWriter } from './ledger-writer.js';
import type { LedgerWriter } from './ledger-writer.js';
import { createQuotaDataRecorder } from './quota-data.js';
import { commitBatch } from './ledger.js';
import type { Hold, LedgerStore, Settlement } from './ledger.js';
import { consumeLogRow, errorLogRow } from './usage-log.js';

describe.each(testDialects())('quota ledger on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => t?.close());

  // A long interval: nothing is written unless the test drains (or the queue fills).
  const writer = () => createLedgerWriter(createLedgerStore(t.db), { bus: t.app.ctx.bus, flushMs: 60_000 });
  const user = (id: number) =>
    t.db.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const token = (id: number) =>
    t.db.db.selectFrom('tokens').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const channelUsed = async (id: number) =>
    Number(
      (
        await t.db.db
          .selectFrom('channels')
          .select('used_quota')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).used_quota,
    );
  const logsOf = (userId: number) =>
    t.db.db.selectFrom('logs').select('quota').where('user_id', '=', userId).execute();
  const settlement = (hold: Hold, quota: number, channelId = 0): Settlement => ({
    hold,
    quota,
    channelId,
    countRequest: true,
    now: 1,
    log: { user_id: hold.userId, created_at: 1, type: 2, content: '', other: '{}', quota },
  });
  const held = async (w: LedgerWriter, userId: number, tokenId: number, amount: number) => {
    const r = await w.reserve({ userId, tokenId, unlimitedToken: false, amount });
    if (!r.ok) throw new Error(`the hold was refused (${r.short})`);
    return r.hold;
  };

  it('holds quota only when both the token and the user can cover it, without writing', async () => {
    const w = writer();
    const u = await t.createUser({ quota: 100 });
    const tk = await addToken(t, u.id, { remain_quota: 50 });
    const unlimited = await addToken(t, u.id, { remain_quota: 0, unlimited_quota: 1 });
    const req = { userId: u.id, tokenId: tk.id, unlimitedToken: false };
    expect(await w.reserve({ ...req, amount: 60 })).toEqual({ ok: false, short: 'token' });
    expect(await w.reserve({ ...req, tokenId: unlimited.id, unlimitedToken: true, amount: 101 })).toEqual({
      ok: false,
      short: 'user',
    });
    expect((await w.reserve({ ...req, amount: 40 })).ok).toBe(true);
    // The hold lives in memory: the next one sees it, the database does not.
    expect(await w.reserve({ ...req, amount: 20 })).toEqual({ ok: false, short: 'token' });
    expect(w.tokenAvailable(tk.id)).toBe(10);
    expect((await user(u.id)).quota).toBe(100);
    expect((await token(tk.id)).remain_quota).toBe(50);
    await w.close();
  });

  it('grows a hold in flight only as far as both balances allow, and settles the grown hold', async () => {
    const w = writer();
    const u = await t.createUser({ quota: 100 });
    const tk = await addToken(t, u.id, { remain_quota: 70 });
    const unlimited = await addToken(t, u.id, { remain_quota: 0, unlimited_quota: 1 });
    const hold = await held(w, u.id, tk.id, 30);
    // The token has 40 left after the hold: that is all the hold can take.
    expect(await w.extend(hold, 50)).toBe(40);
    expect(hold.amount).toBe(70);
    expect(w.tokenAvailable(tk.id)).toBe(0);
    expect(await w.extend(hold, 1)).toBe(0);
    // An unlimited token is not the limit; the user's 30 left is.
    const other = await w.reserve({ userId: u.id, tokenId: unlimited.id, unlimitedToken: true, amount: 10 });
    if (!other.ok) throw new Error('the hold was refused');
    expect(await w.extend(other.hold, 100)).toBe(20);
    // A hold of 0 (a free call) never grows.
    const free = await w.reserve({ userId: u.id, tokenId: tk.id, unlimitedToken: false, amount: 0 });
    if (!free.ok) throw new Error('the hold was refused');
    expect(await w.extend(free.hold, 5)).toBe(0);
    // Settling releases the grown hold whole: the charge is what remains taken.
    w.settle(settlement(hold, 55));
    w.settle(settlement(other.hold, 0));
    await w.drain();
    expect(w.tokenAvailable(tk.id)).toBe(15);
    expect((await user(u.id)).quota).toBe(45);
    await w.close();
  });

  it('never lets concurrent holds overdraw a balance', async () => {
    const w = writer();
    const u = await t.createUser({ quota: 1_000 });
    const tk = await addToken(t, u.id, { remain_quota: 10_000 });
    const results = await Promise.all(
      Array.from({ length: 60 }, () =>
        w.reserve({ userId: u.id, tokenId: tk.id, unlimitedToken: false, amount: 50 }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(20);
    await w.close();
  });

  it('writes exact charges of concurrent calls in batches, with one log row each', async () => {
    const w = createLedgerWriter(createLedgerStore(t.db), { flushMs: 2 });
    const u = await t.createUser({ quota: 1_000_000 });
    const tk = await addToken(t, u.id, { remain_quota: 1_000_000 });
    const ch = await addChannel(t, { base_url: 'http://127.0.0.1:9' });
    const charges = Array.from({ length: 150 }, (_, i) => (i % 4 === 0 ? 0 : 37 + i));
    await Promise.all(
      charges.map(async (quota, i) => {
        const hold = await held(w, u.id, tk.id, 100);
        // Spread over several batches.
        await new Promise((resolve) => setTimeout(resolve, i % 7));
        w.settle(settlement(hold, quota, ch));
      }),
    );
    await w.drain();
    const total = charges.reduce((a, b) => a + b, 0);
    const after = await user(u.id);
    expect(after.quota).toBe(1_000_000 - total);
    expect(after.used_quota).toBe(total);
    expect(after.request_count).toBe(charges.length);
    expect((await token(tk.id)).remain_quota).toBe(1_000_000 - total);
    expect((await token(tk.id)).used_quota).toBe(total);
    expect(await channelUsed(ch)).toBe(total);
    const logs = await logsOf(u.id);
    expect(logs).toHaveLength(charges.length);
    expect(logs.reduce((a, l) => a + l.quota, 0)).toBe(total);
    expect(w.tokenAvailable(tk.id)).toBe(1_000_000 - total);
    await w.close();
  });

  it('loses at most the unwritten batch on a kill, never charging anything twice', async () => {
    const u = await t.createUser({ quota: 100_000 });
    const tk = await addToken(t, u.id, { remain_quota: 100_000 });
    const ch = await addChannel(t, { base_url: 'http://127.0.0.1:9' });
    const first = writer();
    for (let i = 0; i < 30; i++) first.settle(settlement(await held(first, u.id, tk.id, 50), 10, ch));
    await first.drain();
    // Settled (clients answered) but not yet written when the process is killed.
    for (let i = 0; i < 20; i++) first.settle(settlement(await held(first, u.id, tk.id, 50), 7, ch));
    first.abandon();

    // The restarted node reads what was written: the whole first batch and nothing of the second.
    const expectState = async (charged: number, calls: number) => {
      expect((await logsOf(u.id)).reduce((a, l) => a + l.quota, 0)).toBe(charged);
      expect(await logsOf(u.id)).toHaveLength(calls);
      expect((await user(u.id)).quota).toBe(100_000 - charged);
      expect((await user(u.id)).used_quota).toBe(charged);
      expect((await user(u.id)).request_count).toBe(calls);
      expect((await token(tk.id)).remain_quota).toBe(100_000 - charged);
      expect(await channelUsed(ch)).toBe(charged);
    };
    await expectState(300, 30);
    const second = writer();
    second.settle(settlement(await held(second, u.id, tk.id, 50), 5, ch));
    expect(second.tokenAvailable(tk.id)).toBe(100_000 - 305);
    await second.close();
    await expectState(305, 31);
  });

  it('rolls back a batch entry that cannot be written and keeps the others', async () => {
    const w = createLedgerWriter(createLedgerStore(t.db), { flushMs: 60_000 });
    const u = await t.createUser({ quota: 1_000 });
    const tk = await addToken(t, u.id, { remain_quota: 1_000 });
    const good = async (quota: number) => settlement(await held(w, u.id, tk.id, 10), quota);
    // A log row without its required content makes the insert fail after the balance updates.
    const failing = await good(5);
    const bad = { ...failing, log: { ...failing.log, content: null as unknown as string } };
    w.settle(await good(7));
    w.settle(bad as Settlement);
    w.settle(await good(11));
    await w.drain();
    expect((await user(u.id)).used_quota).toBe(18);
    expect((await user(u.id)).quota).toBe(1_000 - 18);
    expect(await logsOf(u.id)).toHaveLength(2);
    // Memory agrees with the database: the unwritten charge was given back.
    expect(w.tokenAvailable(tk.id)).toBe(1_000 - 18);
    await w.close();
  });

  it('never writes a batch twice when the writer lost track of whether it committed', async () => {
    // A store whose first commit goes through but reports an unknown outcome (a writer thread dying
    // between its commit and its answer), and whose second one is lost the same way before committing.
    const real = createLedgerStore(t.db);
    let calls = 0;
    const store: LedgerStore = {
      async commit(settlements, read) {
        if (settlements.length === 0) return real.commit(settlements, read);
        calls++;
        if (calls === 1) {
          await real.commit(settlements, read);
          throw new LedgerOutcomeUnknown('lost after the commit');
        }
        if (calls === 2) throw new LedgerOutcomeUnknown('lost before the commit');
        return real.commit(settlements, read);
      },
      close: () => real.close(),
    };
    const w = createLedgerWriter(store, { flushMs: 60_000, onError: () => undefined });
    const u = await t.createUser({ quota: 1_000 });
    const tk = await addToken(t, u.id, { remain_quota: 1_000 });
    w.settle(settlement(await held(w, u.id, tk.id, 100), 70));
    await w.drain();
    w.settle(settlement(await held(w, u.id, tk.id, 100), 50));
    await w.drain();
    // The first charge is in the database once; the second never reached it.
    expect((await user(u.id)).quota).toBe(930);
    expect((await token(tk.id)).remain_quota).toBe(930);
    expect((await logsOf(u.id)).map((l) => Number(l.quota))).toEqual([70]);
    // Memory reads the balances again and agrees with the database.
    await w.reserve({ userId: u.id, tokenId: tk.id, unlimitedToken: false, amount: 1 });
    expect(w.tokenAvailable(tk.id)).toBe(929);
    await w.close();
  });

  it('picks up a balance another writer changed when it is announced on the bus', async () => {
    const w = writer();
    const u = await t.createUser({ quota: 100 });
    const tk = await addToken(t, u.id, { remain_quota: 1_000_000 });
    const req = { userId: u.id, tokenId: tk.id, unlimitedToken: false };
    expect(await w.reserve({ ...req, amount: 150 })).toEqual({ ok: false, short: 'user' });
    await t.db.db.updateTable('users').set({ quota: 500 }).where('id', '=', u.id).execute();
    t.app.ctx.bus.publish('users', String(u.id));
    expect((await w.reserve({ ...req, amount: 150 })).ok).toBe(true);
    await w.close();
  });

  it('writes everything queued when it closes', async () => {
    const w = writer();
    const u = await t.createUser({ quota: 1_000 });
    const tk = await addToken(t, u.id, { remain_quota: 1_000 });
    for (let i = 0; i < 5; i++) w.settle(settlement(await held(w, u.id, tk.id, 20), 3));
    expect((await user(u.id)).used_quota).toBe(0);
    await w.close();
    expect((await user(u.id)).used_quota).toBe(15);
    expect(await logsOf(u.id)).toHaveLength(5);
  });

  it('stores rows of different shapes in one batch exactly as each row written alone', async () => {
    const u = await t.createUser({ quota: 10_000 });
    const twin = await t.createUser({ quota: 10_000 });
    const tk = await addToken(t, u.id, { remain_quota: 10_000 });
    const who = (userId: number) => ({
      userId,
      username: 'someone',
      tokenId: tk.id,
      tokenName: 'ci',
      group: 'default',
      model: 'gpt-4o-mini',
      ip: '127.0.0.1',
      isStream: true,
      requestId: 'call-1',
    });
    const rows = (userId: number) => [
      consumeLogRow({
        who: who(userId),
        timing: { startedMs: 1_700_000_000_000, endedMs: 1_700_000_003_000, firstResponseMs: 40 },
        pricing: {
          billing: 'tokens',
          modelRatio: 0.075,
          completionRatio: 4,
          groupRatio: 1,
          cacheRatio: 1,
          cacheWriteRatio: 1.25,
        },
        usage: { promptTokens: 1000, completionTokens: 500, cachedTokens: 0 },
        quota: 225,
        channelId: 0,
        channelsTried: [5],
        upstreamModel: 'gpt-4o-mini',
      }),
      // An error row has no token counts: the columns' defaults fill them in.
      errorLogRow({
        who: who(userId),
        timing: { startedMs: 1_700_000_000_000, endedMs: 1_700_000_001_000 },
        message: 'no channel answered',
        status: 502,
        channelId: 5,
        channelsTried: [5],
      }),
      { user_id: userId, created_at: 9, type: 4, content: 'only what is required', other: '' },
    ];
    const settlements = rows(u.id).map((log): Settlement => ({
      hold: { userId: u.id, tokenId: tk.id, amount: 0 },
      quota: log.quota ?? 0,
      channelId: 0,
      countRequest: false,
      now: 2,
      log,
    }));
    const balances = await commitBatch(t.db.db, settlements, { users: [], tokens: [] });
    expect(balances.users.get(u.id)).toBe(10_000 - 225);
    expect(balances.tokens.get(tk.id)).toBe(10_000 - 225);
    for (const log of rows(twin.id)) await t.db.db.insertInto('logs').values(log).execute();
    const stored = async (userId: number) =>
      (
        await t.db.db.selectFrom('logs').selectAll().where('user_id', '=', userId).orderBy('id').execute()
      ).map(({ id: _id, user_id: _user, ...row }) => row);
    expect(await stored(u.id)).toEqual(await stored(twin.id));
    expect((await stored(u.id))[1]).toMatchObject({ prompt_tokens: 0, completion_tokens: 0, quota: 0 });
  });

  it('writes a batch larger than one statement in order and reads back every balance', async () => {
    const u = await t.createUser({ quota: 1_000_000 });
    const tokenCount = 600;
    await t.db.db
      .insertInto('tokens')
      .values(
        Array.from({ length: tokenCount }, (_, i) => ({
          user_id: u.id,
          key: `ledger-${u.id}-${i}`,
          remain_quota: 1_000,
          model_limits: '',
          allow_ips: '',
        })),
      )
      .execute();
    const tokenIds = (
      await t.db.db.selectFrom('tokens').select('id').where('user_id', '=', u.id).orderBy('id').execute()
    ).map((r) => r.id);
    const calls = 700;
    const settlements = Array.from({ length: calls }, (_, i): Settlement => ({
      hold: { userId: u.id, tokenId: tokenIds[i % tokenCount] as number, amount: 10 },
      quota: 1 + (i % 3),
      channelId: 0,
      countRequest: true,
      now: 100 + i,
      log: { user_id: u.id, created_at: 1, type: 2, content: String(i), other: '{}', quota: 1 + (i % 3) },
    }));
    const balances = await commitBatch(t.db.db, settlements, { users: [], tokens: [] });
    const charged = (tokenIndex: number) =>
      settlements.filter((_, i) => i % tokenCount === tokenIndex).reduce((a, s) => a + s.quota, 0);
    expect(balances.tokens.size).toBe(tokenCount);
    tokenIds.forEach((id, i) => expect(balances.tokens.get(id)).toBe(1_000 - charged(i)));
    const total = settlements.reduce((a, s) => a + s.quota, 0);
    expect(balances.users.get(u.id)).toBe(1_000_000 - total);
    const logs = await t.db.db
      .selectFrom('logs')
      .select(['content', 'quota'])
      .where('user_id', '=', u.id)
      .orderBy('id')
      .execute();
    expect(logs.map((l) => l.content)).toEqual(settlements.map((_, i) => String(i)));
    expect((await user(u.id)).request_count).toBe(calls);
    expect((await token(tokenIds[0] as number)).accessed_time).toBe(100 + tokenCount);
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
