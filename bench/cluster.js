// `npm run bench:cluster`: what cluster mode costs. Throughput of OpenAI → OpenAI calls through the
// pass-through, then Sluice on PostgreSQL without Redis, on PostgreSQL + Redis (each call's quota hold
// taken in Redis), and as two such nodes sharing the load. Needs PostgreSQL (BENCH_PG_DSN, an admin
// connection: a throw-away database is created and dropped) and Redis (BENCH_REDIS_URL: keys under a
// random prefix, deleted at the end). Loopback only, bounded in time; results are printed and written
// into bench/README.md between the cluster result markers.
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import {
  CLAUDE_MODEL,
  MODEL,
  UPSTREAM_KEY,
  bearer,
  commonConfig,
  openAiBodies,
  writeSection,
} from './lib/common.js';
import { throughput } from './lib/load.js';
import { startListening, stop } from './lib/processes.js';
import { MODE_LABEL, fixed, machine } from './lib/report.js';
import { seedSluice, startSluice } from './lib/sluice.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const config = {
  ...commonConfig(),
  pgDsn: process.env.BENCH_PG_DSN || 'postgres://postgres@127.0.0.1:5432/postgres',
  redisUrl: process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379',
};

// run.js's OpenAI → OpenAI scenario: the same model, request bodies and answer checks.
const PATH = '/v1/chat/completions';
const BODIES = openAiBodies(MODEL);
const MODES = ['json', 'stream'];
const headers = bearer;

const describe = (error) =>
  error?.message || error?.errors?.map((e) => e.message).join('; ') || error?.code || String(error);
/** A DSN fit to print: its password masked. */
function shown(dsn) {
  try {
    const url = new URL(dsn);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '(not a URL)';
  }
}

/** Runs `work` on a fresh admin connection to PostgreSQL. */
async function withPostgres(dsn, work) {
  const client = new pg.Client({ connectionString: dsn, connectionTimeoutMillis: 5_000 });
  client.on('error', () => {}); // a dropped connection fails the query in progress, which is enough
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

async function connectRedis(url) {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 5_000,
    commandTimeout: 10_000,
    maxRetriesPerRequest: 1,
    retryStrategy: () => null,
  });
  // connect() only says "Connection is closed."; the event carries the reason (refused, unknown host…).
  let cause;
  redis.on('error', (error) => {
    cause = error;
  });
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw cause ?? error;
  }
  return redis;
}

/** Deletes every key under `prefix`; resolves with how many of them were quota holds. */
async function deleteKeys(redis, prefix) {
  let holds = 0;
  for await (const batch of redis.scanStream({ match: `${prefix}*`, count: 500 })) {
    if (batch.length === 0) continue;
    holds += batch.filter((key) => key.startsWith(`${prefix}hold:`)).length;
    await redis.del(...batch);
  }
  return holds;
}

/** One request per mode; says what is wrong when the node does not relay properly. */
async function probe(url, key) {
  for (const mode of MODES) {
    const res = await fetch(url + PATH, { method: 'POST', headers: headers(key), body: BODIES[mode] });
    const text = await res.text();
    const ok = mode === 'json' ? text.includes('"usage"') : text.includes('data: [DONE]');
    if (res.status !== 200 || !ok) return `${mode} answered ${res.status}: ${text.slice(0, 200)}`;
  }
  return undefined;
}

/**
 * Loads the targets at the same time, the connections split between them, for each mode: a warm-up,
 * then the measured run. Requests per second are summed; the latency percentiles are the higher of the
 * runs' (autocannon gives percentiles, not histograms, so they cannot be merged).
 */
async function measure(name, targets) {
  const rows = [];
  const share = (i) =>
    Math.max(
      1,
      Math.floor(config.connections / targets.length) + (i < config.connections % targets.length ? 1 : 0),
    );
  for (const mode of MODES) {
    const run = (duration) =>
      Promise.all(
        targets.map(({ url, key }, i) =>
          throughput({
            url,
            path: PATH,
            headers: headers(key),
            body: BODIES[mode],
            connections: share(i),
            duration,
          }),
        ),
      );
    await run(config.warmup);
    const results = await run(config.duration);
    const row = {
      target: name,
      mode,
      rps: results.reduce((sum, r) => sum + r.rps, 0),
      p50: Math.max(...results.map((r) => r.p50)),
      p99: Math.max(...results.map((r) => r.p99)),
      failed: results.reduce((sum, r) => sum + r.failed, 0),
    };
    console.log(
      `${name.padEnd(38)} ${mode.padEnd(6)} ${row.rps.toFixed(0).padStart(7)} req/s  failed ${row.failed}`,
    );
    rows.push(row);
  }
  return rows;
}

function render({ rows, date, loadAtStart, versions, noHolds }) {
  const base = (mode) => rows.find((r) => r.mode === mode && r.target === 'pass-through')?.rps ?? NaN;
  const lines = [
    `Run ${date} on ${machine()}; 1-minute load average ${fixed(loadAtStart, 1)} when the run started ` +
      `(other work on the machine skews the numbers). PostgreSQL ${versions.postgres}, Redis ${versions.redis}.`,
    `${config.connections} connections (split evenly over the two nodes in their row), ${config.duration} s ` +
      `per row after a ${config.warmup} s warm-up. OpenAI → OpenAI.`,
    ...(noHolds
      ? ['**No quota hold was taken in Redis**: the Redis rows did not measure the cluster hold.']
      : []),
    '',
    '| Target | Mode | req/s | p50 ms | p99 ms | failed | ÷ pass-through |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const mode of MODES) {
    for (const row of rows.filter((r) => r.mode === mode)) {
      const ratio =
        Number.isFinite(base(mode)) && base(mode) > 0 ? `${(row.rps / base(mode)).toFixed(2)}×` : '–';
      lines.push(
        `| ${row.target} | ${MODE_LABEL[mode]} | ${fixed(row.rps)} | ${fixed(row.p50, 1)} | ${fixed(row.p99, 1)} | ${row.failed} | ${ratio} |`,
      );
    }
  }
  return lines.join('\n');
}

const writeReadme = (section) => writeSection(join(here, 'README.md'), 'cluster-results', section);

async function main() {
  const loadAtStart = loadavg()[0];
  const mockCli = join(root, 'packages/mock-upstream/dist/cli.js');
  if (!existsSync(join(root, 'packages/server/dist/sluice.js')) || !existsSync(mockCli))
    throw new Error('the server or the mock upstream is not built: run `npm run bench:cluster`');

  // Both services first: without them there is nothing to measure.
  const versions = {};
  try {
    versions.postgres = await withPostgres(config.pgDsn, async (client) => {
      const { rows } = await client.query('SHOW server_version');
      return rows[0].server_version.split(' ')[0];
    });
  } catch (error) {
    return fail(`PostgreSQL is not reachable at ${shown(config.pgDsn)} (BENCH_PG_DSN): ${describe(error)}`);
  }
  let redis;
  try {
    redis = await connectRedis(config.redisUrl);
    versions.redis = /redis_version:(\S+)/.exec(await redis.info('server'))?.[1] ?? '?';
  } catch (error) {
    redis?.disconnect();
    return fail(`Redis is not reachable at ${shown(config.redisUrl)} (BENCH_REDIS_URL): ${describe(error)}`);
  }

  const suffix = randomBytes(6).toString('hex');
  const database = `sluice_bench_${suffix}`;
  const prefix = `sluice-bench-${suffix}:`;
  const benchUrl = new URL(config.pgDsn);
  benchUrl.pathname = `/${database}`;
  const sqlDsn = benchUrl.toString();
  const running = [];
  const dirs = [];
  let created = false;
  let cleaning;
  // Idempotent: runs at the end, on failure, on a signal and when the run overstays its time.
  const cleanup = () =>
    (cleaning ??= (async () => {
      await Promise.all(running.map(stop));
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
      const holds = await deleteKeys(redis, prefix).catch((error) => {
        console.warn(`could not delete the Redis keys under ${prefix}: ${describe(error)}`);
        return undefined;
      });
      redis.disconnect();
      if (created)
        await withPostgres(config.pgDsn, (client) =>
          client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`),
        ).catch((error) => console.warn(`could not drop database ${database}: ${describe(error)}`));
      return holds;
    })());
  const budgetMs = (4 * MODES.length * (config.warmup + config.duration) * 1.5 + 300) * 1000;
  const abandon = (code) => {
    setTimeout(() => process.exit(code), 30_000).unref(); // should the clean-up itself hang
    cleanup().finally(() => process.exit(code));
  };
  const watchdog = setTimeout(() => {
    console.error(`the benchmark ran over ${Math.round(budgetMs / 1000)} s; stopping`);
    abandon(1);
  }, budgetMs);
  watchdog.unref();
  process.once('SIGINT', () => abandon(130));
  process.once('SIGTERM', () => abandon(143));

  try {
    await withPostgres(config.pgDsn, (client) => client.query(`CREATE DATABASE "${database}"`));
    created = true;
    const mock = await startListening('mock upstream', mockCli, { PORT: '0' });
    running.push(mock);
    const pass = await startListening('pass-through', join(here, 'passthrough.js'), { UPSTREAM: mock.url });
    running.push(pass);
    const upstream = {
      upstreamUrl: mock.url,
      upstreamKey: UPSTREAM_KEY,
      model: MODEL,
      claudeModel: CLAUDE_MODEL,
    };
    const token = await seedSluice({ root, sqlDsn, ...upstream });
    const node = async (name, withRedis) => {
      const sluice = await startSluice({
        root,
        ...upstream,
        logLevel: config.sluiceLogLevel,
        database: { sqlDsn, token },
        ...(withRedis ? { redis: { url: config.redisUrl, prefix } } : {}),
      });
      if (sluice.dir) dirs.push(sluice.dir);
      if (sluice.proc) running.push(sluice.proc);
      const problem = sluice.available ? await probe(sluice.url, token) : sluice.reason;
      if (problem) throw new Error(`${name} is not relaying: ${problem}`);
      return { ...sluice, key: token };
    };

    const rows = [];
    rows.push(...(await measure('pass-through', [{ url: pass.url, key: UPSTREAM_KEY }])));
    const alone = await node('Sluice on PostgreSQL', false);
    rows.push(...(await measure('Sluice, 1 node, PostgreSQL', [alone])));
    await stop(alone.proc);
    const first = await node('the first node on PostgreSQL + Redis', true);
    rows.push(...(await measure('Sluice, 1 node, PostgreSQL + Redis', [first])));
    const second = await node('the second node on PostgreSQL + Redis', true);
    rows.push(...(await measure('Sluice, 2 nodes, PostgreSQL + Redis', [first, second])));

    const holds = await cleanup();
    const section = render({
      rows,
      date: new Date().toISOString().slice(0, 10),
      loadAtStart,
      versions,
      // Each account that took a hold has a hash in Redis; none means the Redis rows measured no hold.
      noHolds: holds === 0,
    });
    console.log(`\n${section}\n`);
    if (config.writeReadme) writeReadme(section);
  } finally {
    await cleanup();
    clearTimeout(watchdog);
  }
}

function fail(message) {
  console.error(message);
  process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
