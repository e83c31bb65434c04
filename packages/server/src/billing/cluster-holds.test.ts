// Holds across nodes: two ledgers (two nodes' worth) on one database and one Redis. CI sets
// TEST_REDIS_URL; the database is PostgreSQL when TEST_PG_DSN is set, as a cluster runs on.
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomString } from '../platform/random.js';
import { createTestApp } from '../test-support/test-app.js';
import type { TestApp } from '../test-support/test-app.js';
import { addToken } from '../test-support/relay-kit.js';
import { createClusterHolds } from './cluster-holds.js';
import type { ClusterHoldsOptions } from './cluster-holds.js';
import { createLedgerStore } from './ledger-store.js';
import { createLedgerWriter } from './ledger-writer.js';
import type { LedgerWriter } from './ledger-writer.js';
import type { Hold, HoldRequest, Settlement } from './ledger.js';

const url = process.env.TEST_REDIS_URL;

describe.skipIf(!url)('holds across nodes', () => {
  let t: TestApp;
  let prefix: string;
  const open: Array<{ writer: LedgerWriter; redis: Redis }> = [];

  beforeAll(async () => {
    t = await createTestApp({ dialect: process.env.TEST_PG_DSN ? 'postgres' : 'sqlite' });
  });
  afterEach(async () => {
    // Holds are left in flight on purpose: the nodes stop as if killed, and their keys go.
    for (const { writer, redis } of open.splice(0)) {
      writer.abandon();
      redis.disconnect();
    }
    const admin = new Redis(url as string);
    const keys = await admin.keys(`${prefix}*`);
    if (keys.length > 0) await admin.del(...keys);
    admin.disconnect();
  });
  afterAll(async () => t?.close());

  /** One node's ledger; every node of a test shares the test's key prefix. */
  const node = (options: ClusterHoldsOptions = {}) => {
    const redis = new Redis(url as string, { maxRetriesPerRequest: 1 });
    const writer = createLedgerWriter(createLedgerStore(t.db), {
      bus: t.app.ctx.bus,
      flushMs: 5,
      cluster: createClusterHolds(redis, { prefix, ...options }),
    });
    open.push({ writer, redis });
    return writer;
  };
  const fresh = () => {
    prefix = `sluice-test-${randomString(8)}:`;
  };
  const settlement = (hold: Hold, quota: number): Settlement => ({
    hold,
    quota,
    channelId: 0,
    countRequest: true,
    now: 1,
    log: { user_id: hold.userId, created_at: 1, type: 2, content: '', other: '{}', quota },
  });
  const account = async (quota: number, remain: number) => {
    const u = await t.createUser({ quota });
    const tk = await addToken(t, u.id, { remain_quota: remain });
    return { userId: u.id, tokenId: tk.id, unlimitedToken: false };
  };
  const userQuota = async (id: number) =>
    (await t.db.db.selectFrom('users').select('quota').where('id', '=', id).executeTakeFirstOrThrow()).quota;
  const granted = async (w: LedgerWriter, req: HoldRequest) => {
    const r = await w.reserve(req);
    if (!r.ok) throw new Error(`refused (${r.short})`);
    return r.hold;
  };

  it('40 parallel calls over two nodes on a token worth 10 holds: 10 are held, 30 refused', async () => {
    fresh();
    const [a, b] = [node(), node()];
    const req = await account(1_000_000, 1_000);
    // Both nodes have read the balances before the race, as nodes serving traffic have.
    await Promise.all(
      [a, b].map(async (w) => w.settle(settlement(await granted(w, { ...req, amount: 1 }), 0))),
    );
    await Promise.all([a.drain(), b.drain()]);
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).reserve({ ...req, amount: 100 })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(10);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.short === 'token')).toBe(true);
  });

  it('a user is not overspent through two tokens on two nodes', async () => {
    fresh();
    const [a, b] = [node(), node()];
    const first = await account(500, 10_000);
    const second = await addToken(t, first.userId, { remain_quota: 10_000 });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2
          ? a.reserve({ ...first, amount: 100 })
          : b.reserve({ ...first, tokenId: second.id, amount: 100 }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.short === 'user')).toBe(true);
  });

  it("one node's holds, and what it gives back and charges, are seen by the other within a flush interval", async () => {
    fresh();
    const [a, b] = [node(), node()];
    const req = await account(1_000, 1_000_000);
    await b.reserve({ ...req, amount: 1 }).then((r) => r.ok && b.settle(settlement(r.hold, 0)));
    const hold = await granted(a, { ...req, amount: 900 });
    expect((await b.reserve({ ...req, amount: 200 })).ok).toBe(false);
    // Settled for 300: the 600 left of the hold come back and the 300 are written with A's next cycle.
    a.settle(settlement(hold, 300));
    await a.drain();
    expect(await b.reserve({ ...req, amount: 701 })).toEqual({ ok: false, short: 'user' });
    const rest = await granted(b, { ...req, amount: 700 });
    b.settle(settlement(rest, 700));
    await Promise.all([a.drain(), b.drain()]);
    expect(await userQuota(req.userId)).toBe(0);
    expect((await a.reserve({ ...req, amount: 1 })).ok).toBe(false);
  });

  it('a hold shrinks to what is left across nodes when the call allows it', async () => {
    fresh();
    const [a, b] = [node(), node()];
    const req = await account(1_000, 1_000_000);
    await granted(a, { ...req, amount: 650 });
    const hold = await granted(b, { ...req, amount: 800, fit: (room) => (room >= 100 ? room : undefined) });
    expect(hold.amount).toBe(350);
    expect(
      (await b.reserve({ ...req, amount: 80, fit: (room) => (room >= 100 ? room : undefined) })).ok,
    ).toBe(false);
  });

  it("a stream's hold grows only into what no other node holds", async () => {
    fresh();
    const [a, b] = [node(), node()];
    const req = await account(1_000, 1_000_000);
    const hold = await granted(a, { ...req, amount: 200 });
    await granted(b, { ...req, amount: 500 });
    expect(await a.extend(hold, 1_000)).toBe(300);
    expect(hold.amount).toBe(500);
    expect(await b.extend(hold, 1)).toBe(0);
  });

  it("a killed node's holds are given back once its heartbeat stops; what it wrote stays charged", async () => {
    fresh();
    const short = { nodeTtlMs: 400, heartbeatMs: 100 };
    const [a, b] = [node(short), node(short)];
    const req = await account(1_000, 1_000_000);
    const charged = await granted(a, { ...req, amount: 300 });
    a.settle(settlement(charged, 300));
    await a.drain();
    await granted(a, { ...req, amount: 600 });
    a.abandon();
    // Until the node is known dead, its hold counts.
    expect((await b.reserve({ ...req, amount: 200 })).ok).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await b.reserve({ ...req, amount: 701 })).toEqual({ ok: false, short: 'user' });
    expect((await b.reserve({ ...req, amount: 700 })).ok).toBe(true);
  });

  it('a node writes its holds again when Redis has lost them', async () => {
    fresh();
    const [a, b] = [node({ heartbeatMs: 50 }), node({ heartbeatMs: 50 })];
    const req = await account(1_000, 1_000_000);
    await granted(a, { ...req, amount: 800 });
    await b.reserve({ ...req, amount: 1 }).then((r) => r.ok && b.settle(settlement(r.hold, 0)));
    // What a restarted Redis without persistence looks like: none of the keys.
    const admin = new Redis(url as string);
    const keys = await admin.keys(`${prefix}*`);
    await admin.del(...keys);
    admin.disconnect();
    // The next heartbeat finds the node unknown; its next batch writes its pending again. Twenty
    // heartbeats' time, so a loaded machine gets there too.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect((await b.reserve({ ...req, amount: 300 })).ok).toBe(false);
    expect((await b.reserve({ ...req, amount: 200 })).ok).toBe(true);
  });

  it('holds from its own book while Redis does not answer', async () => {
    fresh();
    // Nothing listens on port 1: every command fails at once.
    const dead = new Redis({ port: 1, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0 });
    dead.on('error', () => undefined);
    const errors: unknown[] = [];
    const w = createLedgerWriter(createLedgerStore(t.db), {
      bus: t.app.ctx.bus,
      flushMs: 5,
      cluster: createClusterHolds(dead, { prefix }),
      onError: (error) => errors.push(error),
    });
    open.push({ writer: w, redis: dead });
    const req = await account(1_000, 1_000_000);
    const hold = await granted(w, { ...req, amount: 600 });
    // The node's own book still refuses what it cannot cover, and bills what it served.
    expect(await w.reserve({ ...req, amount: 500 })).toEqual({ ok: false, short: 'user' });
    w.settle(settlement(hold, 250));
    await w.drain();
    expect(await userQuota(req.userId)).toBe(750);
    expect(errors.length).toBeGreaterThan(0);
  });

  it('the node that closes takes its entries out of Redis', async () => {
    fresh();
    const a = node();
    const req = await account(1_000, 1_000_000);
    a.settle(settlement(await granted(a, { ...req, amount: 100 }), 40));
    await a.close();
    const admin = new Redis(url as string);
    const fields = await admin.hgetall(`${prefix}hold:u:${req.userId}`);
    expect(await admin.zcard(`${prefix}nodes`)).toBe(0);
    admin.disconnect();
    // Only the epoch and the counter are left: the 40 written moved to the counter.
    expect(fields).toEqual({ e: expect.any(String), c: '40' });
  });
});
