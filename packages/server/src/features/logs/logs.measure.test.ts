// Measures the log list and stat calls on a SQLite file holding 1,000,000 log rows, and prints each
// query's plan. A measurement, not a test: it asserts only that the answers are sane, never timing.
// Run: SLUICE_MEASURE_LOGS=1 npx vitest run packages/server/src/features/logs/logs.measure.test.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '@sluice/shared';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.js';
import { createDb } from '../../db/create-db.js';
import type { Db } from '../../db/create-db.js';
import { testConfig } from '../../test-support/test-app.js';

const ROWS = Number(process.env.SLUICE_MEASURE_ROWS ?? 1_000_000);
const NOW = 1_900_000_000;
const SPAN = 30 * 86400;
const USERS = 1000;
const MODELS = 50;
const TOKENS = 5000;
const CHANNELS = 20;

const out = (line: string) => process.stdout.write(`${line}\n`);

// Seeding a million rows takes up to a minute and a few hundred MB of disk, so this runs only
// when asked for (it is a measurement for the report, not part of the regular suite).
describe.skipIf(!process.env.SLUICE_MEASURE_LOGS)('log queries on 1,000,000 rows (SQLite)', () => {
  let dir: string;
  let db: Db;
  let app: FastifyInstance;
  let adminHeaders: Record<string, string>;
  let userHeaders: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sluice-measure-'));
    const path = join(dir, 'logs.db');
    db = await createDb({ sqlDsn: '', sqlitePath: path });
    const raw = new SQLite(path);
    const started = Date.now();
    const insert = raw.prepare(
      `INSERT INTO logs (user_id, created_at, type, content, username, token_name, token_id, model_name,
        quota, prompt_tokens, completion_tokens, use_time, is_stream, channel_id, "group", ip, other)
       VALUES (?, ?, ?, '', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'default', '', ?)`,
    );
    const other = JSON.stringify({ model_ratio: 1.25, group_ratio: 1, admin_info: { use_channel: [3] } });
    // mulberry32: a small seeded generator, so every run measures the same data.
    let seed = 42;
    const rand = (n: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
      return Math.floor((((x ^ (x >>> 14)) >>> 0) / 4294967296) * n);
    };
    raw.transaction(() => {
      for (let i = 0; i < ROWS; i++) {
        const user = rand(USERS) + 1;
        const token = rand(TOKENS);
        insert.run(
          user,
          NOW - SPAN + Math.floor((i / ROWS) * SPAN),
          rand(50) === 0 ? 1 : 2,
          `user${user}`,
          `token-${token}`,
          token,
          `model-${rand(MODELS)}`,
          rand(5000),
          rand(2000),
          rand(800),
          rand(30),
          rand(2),
          rand(CHANNELS) + 1,
          other,
        );
      }
    })();
    raw.pragma('optimize');
    raw.close();
    out(`seeded ${ROWS} rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    app = await buildApp({
      config: testConfig(),
      db,
      clock: { now: () => NOW, nowMs: () => NOW * 1000 },
    });
    await app.ready();
    const admin = await db.db
      .insertInto('users')
      .values({
        username: 'measure-admin',
        password: 'x',
        role: ROLE.admin,
        aff_code: 'ma',
        access_token: 'pat-admin',
      })
      .execute();
    const user = await db.db
      .insertInto('users')
      .values({ username: 'user17', password: 'x', aff_code: 'mu', access_token: 'pat-user' })
      .execute();
    expect(admin && user).toBeTruthy();
    adminHeaders = { authorization: 'pat-admin' };
    userHeaders = { authorization: 'pat-user' };
  }, 600_000);

  afterAll(async () => {
    await app?.close();
    await db?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

  async function time(url: string, headers: Record<string, string>): Promise<{ ms: number; body: unknown }> {
    await app.inject({ method: 'GET', url, headers });
    const runs: number[] = [];
    let body: unknown;
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const res = await app.inject({ method: 'GET', url, headers });
      runs.push(performance.now() - t0);
      expect(res.statusCode, res.body).toBe(200);
      body = res.json();
    }
    return { ms: median(runs), body };
  }

  const hourAgo = NOW - 3600;
  const dayAgo = NOW - 86400;
  const cases: Array<[string, string]> = [
    ['no filter', ''],
    ['by user (username)', 'username=user17'],
    ['by model', 'model_name=model-7'],
    ['by time range (last hour)', `start_timestamp=${hourAgo}&end_timestamp=${NOW}`],
    ['by time range (last day)', `start_timestamp=${dayAgo}&end_timestamp=${NOW}`],
    ['by token', 'token_name=token-123'],
    ['by type (top-up)', 'type=1'],
    ['by channel + last day', `channel=5&start_timestamp=${dayAgo}`],
    ['by model + last day', `model_name=model-7&start_timestamp=${dayAgo}`],
  ];

  it('times the admin list and stat calls for typical filters', async () => {
    out('| filter | list p=1 (ms) | list p=50 (ms) | total | stat (ms) |');
    out('|---|---|---|---|---|');
    for (const [name, query] of cases) {
      const list = await time(`/api/log/?p=1&page_size=10&${query}`, adminHeaders);
      const deep = await time(`/api/log/?p=50&page_size=10&${query}`, adminHeaders);
      const stat = await time(`/api/log/stat?${query}`, adminHeaders);
      const total = (list.body as { data: { total: number } }).data.total;
      out(`| ${name} | ${list.ms.toFixed(1)} | ${deep.ms.toFixed(1)} | ${total} | ${stat.ms.toFixed(1)} |`);
    }
  }, 600_000);

  it("times a user's own list and stat", async () => {
    for (const [name, query] of [
      ['self, no filter', ''],
      ['self, last day', `start_timestamp=${dayAgo}`],
      ['self, by model', 'model_name=model-7'],
    ] as const) {
      const list = await time(`/api/log/self/?p=1&page_size=10&${query}`, userHeaders);
      const stat = await time(`/api/log/self/stat?${query}`, userHeaders);
      const total = (list.body as { data: { total: number } }).data.total;
      out(`| ${name} | ${list.ms.toFixed(1)} | – | ${total} | ${stat.ms.toFixed(1)} |`);
    }
  }, 600_000);

  it('prints the query plans', async () => {
    const path = join(dir, 'logs.db');
    const raw = new SQLite(path, { readonly: true });
    const plans: Array<[string, string, unknown[]]> = [
      ['list, no filter', 'SELECT * FROM logs ORDER BY created_at DESC, id DESC LIMIT 10', []],
      [
        'list, by user',
        'SELECT * FROM logs WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT 10',
        [17],
      ],
      [
        'list, by model + range',
        'SELECT * FROM logs WHERE model_name = ? AND created_at >= ? ORDER BY created_at DESC, id DESC LIMIT 10',
        ['model-7', dayAgo],
      ],
      ['count, by token', 'SELECT count(*) FROM logs WHERE token_name = ?', ['token-1']],
      ['stat, no filter', 'SELECT sum(quota) FROM logs WHERE type = 2', []],
      ['stat, by user', 'SELECT sum(quota) FROM logs WHERE user_id = ? AND type + 0 = 2', [3]],
      [
        'stat, by username + range',
        'SELECT sum(quota) FROM logs WHERE username = ? AND type + 0 = 2 AND created_at >= ?',
        ['user17', dayAgo],
      ],
      [
        'stat rpm, last 60 s',
        'SELECT count(*), sum(prompt_tokens + completion_tokens) FROM logs WHERE type = 2 AND created_at >= ?',
        [NOW - 60],
      ],
    ];
    for (const [name, text, params] of plans) {
      const rows = raw.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...params) as Array<{ detail: string }>;
      out(`${name}: ${rows.map((r) => r.detail).join(' | ')}`);
    }
    raw.close();
  });
});
