// Two Sluice processes started at the same moment on one empty PostgreSQL database and one Redis, as
// an operator scales out: calls spread over both bill exactly, parallel calls on both cannot overspend a
// token, a change made on one node is obeyed on the other within a second, background jobs run on one
// node, and a node killed under load loses no more than the crash bound while logs still equal
// balances. CI sets TEST_PG_DSN and TEST_REDIS_URL.
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOCK_MIDJOURNEY_SECRET, startMockUpstream } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { reconcile } from './billing/reconcile.js';
import { createDb } from './db/create-db.js';
import type { Db } from './db/create-db.js';
import { randomString } from './platform/random.js';
import { startServerProcess } from './test-support/server-process.js';
import type { ServerProcess } from './test-support/server-process.js';

const PG = process.env.TEST_PG_DSN;
const REDIS = process.env.TEST_REDIS_URL;
const MODEL = 'cluster-model';
/** $ per call: 0.002 × 500,000 quota per $ = 1,000 quota a call. */
const PRICE = 0.002;
const PER_CALL = 1_000;
const PASSWORD = 'cluster-root-password';

// The console API's answers, read loosely: each test picks the fields it needs.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of many shapes
type Envelope = { success: boolean; message: string; data: any };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const databaseUrl = (name: string) => {
  const url = new URL(PG as string);
  url.pathname = `/${name}`;
  return url.toString();
};

describe.skipIf(!PG || !REDIS)('two nodes on one PostgreSQL database and one Redis', () => {
  const name = `sluice_two_${randomString(8, 'abcdefghijklmnopqrstuvwxyz0123456789')}`;
  const prefix = `sluice-two-${randomString(8)}:`;
  let mock: MockUpstream;
  let nodes: [ServerProcess, ServerProcess];
  let db: Db;
  let cookie = '';
  let rootId = 0;
  let channelId = 0;

  const call = async (
    node: ServerProcess,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<Envelope> => {
    const res = await fetch(`${node.url}${path}`, {
      method,
      headers: { cookie, 'new-api-user': String(rootId), 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return (await res.json()) as Envelope;
  };
  const ok = async (node: ServerProcess, method: string, path: string, body?: unknown) => {
    const answer = await call(node, method, path, body);
    if (!answer.success) throw new Error(`${method} ${path}: ${answer.message}`);
    return answer.data;
  };
  const newToken = async (remain: number): Promise<{ id: number; key: string }> => {
    const [token] = await ok(nodes[0], 'POST', '/api/token/', {
      name: `t${randomString(6)}`,
      remain_quota: remain,
    });
    return { id: Number(token.id), key: `sk-${token.key}` };
  };
  const chat = (node: ServerProcess, key: string, stream = false) =>
    fetch(`${node.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, stream, messages: [{ role: 'user', content: 'hello' }] }),
    }).then(async (res) => {
      await res.arrayBuffer();
      return res.status;
    });
  const tokenRow = (id: number) =>
    db.db
      .selectFrom('tokens')
      .select(['remain_quota', 'used_quota'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const logsOf = async (tokenId: number) => {
    const rows = await db.db
      .selectFrom('logs')
      .select(['quota'])
      .where('token_id', '=', tokenId)
      .where('type', '=', 2)
      .execute();
    return { count: rows.length, sum: rows.reduce((a, r) => a + Number(r.quota), 0) };
  };
  /** Milliseconds until `check` holds, polling every 20 ms; fails after 3 s. */
  const within = async (check: () => Promise<boolean>): Promise<number> => {
    const start = Date.now();
    while (Date.now() - start < 3_000) {
      if (await check()) return Date.now() - start;
      await sleep(20);
    }
    throw new Error('not seen within 3 s');
  };

  beforeAll(async () => {
    mock = await startMockUpstream({ record: true });
    await admin(`CREATE DATABASE ${name}`);
    const env = {
      SQL_DSN: databaseUrl(name),
      REDIS_CONN_STRING: REDIS as string,
      REDIS_KEY_PREFIX: prefix,
      INITIAL_ROOT_PASSWORD: PASSWORD,
      TASK_POLL_INTERVAL_SECONDS: '1',
    };
    // At the same moment, on an empty database: both migrate and seed it, once.
    nodes = (await Promise.all([
      startServerProcess(env, process.cwd()),
      startServerProcess(env, process.cwd()),
    ])) as [ServerProcess, ServerProcess];
    db = await createDb({ sqlDsn: databaseUrl(name), sqlitePath: '' });
    const login = await fetch(`${nodes[0].url}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'root', password: PASSWORD }),
    });
    cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
    rootId = Number(((await login.json()) as { data: { id: number } }).data.id);
    await ok(nodes[0], 'PUT', '/api/option/', {
      key: 'ModelPrice',
      value: JSON.stringify({ [MODEL]: PRICE, mj_imagine: 0.1 }),
    });
    const created = await ok(nodes[0], 'POST', '/api/channel/', {
      name: 'cluster upstream',
      type: 1,
      key: 'sk-cluster-upstream',
      base_url: mock.url,
      models: MODEL,
      group: 'default',
    });
    channelId = Number((Array.isArray(created) ? created[0] : created)?.id ?? 0);
    if (!channelId) {
      const listed = await ok(nodes[0], 'GET', '/api/channel/?p=0&page_size=10');
      channelId = Number((Array.isArray(listed) ? listed : listed.items)[0].id);
    }
  }, 120_000);

  afterAll(async () => {
    for (const node of nodes ?? []) node.kill();
    await Promise.all((nodes ?? []).map((node) => node.exited));
    await db?.close();
    await mock?.close();
    const redis = new Redis(REDIS as string);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    if (PG) await admin(`DROP DATABASE IF EXISTS ${name}`).catch(() => undefined);
  });

  it('start together on an empty database: one schema, one root', async () => {
    const roots = await db.db.selectFrom('users').select('id').where('role', '=', 100).execute();
    expect(roots).toHaveLength(1);
    for (const node of nodes) expect((await fetch(`${node.url}/readyz`)).status).toBe(200);
  });

  it('bill calls spread over both exactly: the logs sum to what the token and the user were charged', async () => {
    const token = await newToken(1_000_000);
    const before = await db.db
      .selectFrom('users')
      .select('quota')
      .where('id', '=', rootId)
      .executeTakeFirstOrThrow();
    const statuses = await Promise.all(
      Array.from({ length: 60 }, (_, i) => chat(nodes[i % 2]!, token.key, i % 3 === 0)),
    );
    expect(statuses.every((s) => s === 200)).toBe(true);
    await within(async () => (await logsOf(token.id)).count === 60);
    const logs = await logsOf(token.id);
    expect(logs.sum).toBe(60 * PER_CALL);
    await within(async () => (await tokenRow(token.id)).used_quota === logs.sum);
    expect((await tokenRow(token.id)).remain_quota).toBe(1_000_000 - logs.sum);
    const after = await db.db
      .selectFrom('users')
      .select('quota')
      .where('id', '=', rootId)
      .executeTakeFirstOrThrow();
    expect(Number(before.quota) - Number(after.quota)).toBe(logs.sum);
  });

  it('40 parallel calls over both nodes on a token worth 10 are served 10 times and charged 10 times', async () => {
    const token = await newToken(10 * PER_CALL);
    const statuses = await Promise.all(Array.from({ length: 40 }, (_, i) => chat(nodes[i % 2]!, token.key)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    // Refused for quota (403), or, once a batch has written the token's balance to 0, as used up (401).
    expect(statuses.filter((s) => s !== 200).every((s) => s === 403 || s === 401)).toBe(true);
    await within(async () => (await logsOf(token.id)).count === 10);
    await sleep(100);
    expect(await logsOf(token.id)).toEqual({ count: 10, sum: 10 * PER_CALL });
    expect(await tokenRow(token.id)).toEqual({ remain_quota: 0, used_quota: 10 * PER_CALL });
  });

  it('obey on node B, within a second, a token disabled, a channel disabled, a price changed and a top-up on node A', async () => {
    const [a, b] = nodes;
    const token = await newToken(1_000_000);
    expect(await chat(b, token.key)).toBe(200);

    await ok(a, 'PUT', '/api/token/?status_only=true', { id: token.id, status: 2 });
    expect(await within(async () => (await chat(b, token.key)) === 401)).toBeLessThan(1_000);
    await ok(a, 'PUT', '/api/token/?status_only=true', { id: token.id, status: 1 });
    await within(async () => (await chat(b, token.key)) === 200);

    await ok(a, 'PUT', '/api/channel/', { id: channelId, status: 2 });
    expect(await within(async () => (await chat(b, token.key)) !== 200)).toBeLessThan(1_000);
    await ok(a, 'PUT', '/api/channel/', { id: channelId, status: 1 });
    await within(async () => (await chat(b, token.key)) === 200);

    // The price doubles on A: B's next calls are charged the new price.
    await ok(a, 'PUT', '/api/option/', {
      key: 'ModelPrice',
      value: JSON.stringify({ [MODEL]: PRICE * 2, mj_imagine: 0.1 }),
    });
    const changed = Date.now();
    let firstAtNewPrice = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 20 && firstAtNewPrice === Number.POSITIVE_INFINITY; i++) {
      const sent = Date.now();
      const { count } = await logsOf(token.id);
      expect(await chat(b, token.key)).toBe(200);
      await within(async () => (await logsOf(token.id)).count > count);
      const last = await db.db
        .selectFrom('logs')
        .select('quota')
        .where('token_id', '=', token.id)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      if (Number(last.quota) === 2 * PER_CALL) firstAtNewPrice = sent - changed;
    }
    expect(firstAtNewPrice).toBeLessThan(1_000);
    await ok(a, 'PUT', '/api/option/', {
      key: 'ModelPrice',
      value: JSON.stringify({ [MODEL]: PRICE, mj_imagine: 0.1 }),
    });

    // Root's quota brought below one call on A, then topped up on A: B follows both.
    // (Once the calls above are written: a batch landing after the read would take it below 0.)
    await sleep(200);
    const { quota } = await ok(a, 'GET', '/api/user/self');
    await ok(a, 'POST', '/api/user/manage', { id: rootId, action: 'add_quota', value: 500 - Number(quota) });
    expect(await within(async () => (await chat(b, token.key)) === 403)).toBeLessThan(1_000);
    await ok(a, 'POST', '/api/user/manage', { id: rootId, action: 'add_quota', value: 50_000_000 });
    expect(await within(async () => (await chat(b, token.key)) === 200)).toBeLessThan(1_000);
  });

  it('poll unfinished tasks from one node only', async () => {
    const token = await newToken(1_000_000);
    await ok(nodes[0], 'POST', '/api/channel/', {
      name: 'cluster drawings',
      type: 5,
      key: MOCK_MIDJOURNEY_SECRET,
      base_url: mock.url,
      models: 'mj_imagine',
      group: 'default',
    });
    const submitted = await fetch(`${nodes[0].url}/mj/submit/imagine`, {
      method: 'POST',
      headers: { 'mj-api-secret': token.key, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'a lighthouse' }),
    });
    expect(((await submitted.json()) as { code: number }).code).toBe(1);
    const [upstreamId] = [...mock.tasks.keys()];
    mock.setTaskOutcome(upstreamId as string, { steps: 1_000 });
    const polls = () => mock.requests.filter((r) => r.path.endsWith('/task/list-by-condition')).length;
    const start = polls();
    await sleep(4_200);
    // Every second by one node: 4 or 5 polls in 4.2 s; both nodes polling would make 8 or more.
    expect(polls() - start).toBeGreaterThanOrEqual(3);
    expect(polls() - start).toBeLessThanOrEqual(5);
  });

  it('lose, when a node is killed under load, no more than the crash bound, and logs still equal balances', async () => {
    const [a, b] = nodes;
    const onA = await newToken(100_000_000);
    const onB = await newToken(100_000_000);
    /** B's answered calls: when each ended and how long it took (a loaded machine commits slower too). */
    const answeredByB: { at: number; took: number }[] = [];
    let killedAt = 0;
    const load = async (
      node: ServerProcess,
      key: string,
      until: number,
      answered?: { at: number; took: number }[],
    ) => {
      while (Date.now() < until) {
        const sent = Date.now();
        const status = await chat(node, key).catch(() => 0);
        if (status === 200) answered?.push({ at: Date.now(), took: Date.now() - sent });
        if (status === 0) return;
      }
    };
    const end = Date.now() + 1_500;
    const running = [
      ...Array.from({ length: 4 }, () => load(a, onA.key, end)),
      ...Array.from({ length: 4 }, () => load(b, onB.key, end, answeredByB)),
    ];
    await sleep(700);
    killedAt = Date.now();
    b.kill();
    await Promise.all(running);
    await b.exited;
    await within(async () => {
      const row = await tokenRow(onA.id);
      const logs = await logsOf(onA.id);
      return row.used_quota === logs.sum && logs.count > 0;
    });
    await sleep(200);
    // What B answered and never wrote: at most the calls it settled in its last flush interval
    // (25 ms) and the batch being committed; counted generously as those answered in its last 150 ms,
    // or in its last four median calls where the machine is so loaded that a call takes longer.
    const written = (await logsOf(onB.id)).count;
    const lost = answeredByB.length - written;
    expect(answeredByB.length).toBeGreaterThan(10);
    expect(lost).toBeGreaterThanOrEqual(0);
    const took = answeredByB.map((call) => call.took).sort((x, y) => x - y);
    const window = Math.max(150, 4 * (took[Math.floor(took.length / 2)] ?? 0));
    expect(lost).toBeLessThanOrEqual(answeredByB.filter((call) => call.at >= killedAt - window).length);
    // Whatever was lost, nothing is half-written: every row is in the balances and nothing else.
    const row = await tokenRow(onB.id);
    expect(row.used_quota).toBe((await logsOf(onB.id)).sum);
    const report = await reconcile(db.db, 'postgres', { now: Math.floor(Date.now() / 1000), start: 0 });
    expect(report.differences).toEqual([]);
    // A keeps serving, and B's calls cut off by the kill leave no hold behind once its heartbeat stops.
    expect(await chat(a, onA.key)).toBe(200);
  });
});
