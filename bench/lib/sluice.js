// Sluice's full path for the benchmark: a throw-away SQLite database seeded with an OpenAI and an
// Anthropic channel pointing at the mock and one unlimited token, and the built server
// (packages/server/dist) in its own process.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const randomKey = (length) =>
  Array.from(randomBytes(length), (byte) => ALPHABET[byte % ALPHABET.length]).join('');

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Writes the rows the relay needs straight into the tables, as the console would have. */
async function seed(serverDist, sqlitePath, { upstreamUrl, upstreamKey, model, claudeModel }) {
  const { createDb } = await import(pathToFileURL(join(serverDist, 'db/create-db.js')).href);
  const { syncAbilities } = await import(pathToFileURL(join(serverDist, 'db/abilities.js')).href);
  const { db, close } = await createDb({ sqlDsn: '', sqlitePath });
  const now = Math.floor(Date.now() / 1000);
  try {
    const user = await db
      .insertInto('users')
      .values({
        username: 'bench',
        password: '!',
        display_name: 'Benchmark',
        role: 1,
        status: 1,
        quota: 10_000_000_000_000,
        group: 'default',
        aff_code: randomKey(8),
        created_at: now,
        email: '',
        github_id: '',
        wechat_id: '',
        telegram_id: '',
        linux_do_id: '',
        access_token: null,
      })
      .executeTakeFirstOrThrow();
    const channel = {
      type: 1,
      key: upstreamKey,
      status: 1,
      name: 'benchmark mock',
      base_url: upstreamUrl,
      models: model,
      group: 'default',
      priority: 0,
      weight: 0,
      tag: '',
      created_time: now,
      other: '',
      model_mapping: '',
      status_code_mapping: '',
      other_info: '',
      setting: '',
    };
    const inserted = await db.insertInto('channels').values(channel).executeTakeFirstOrThrow();
    await syncAbilities(db, { ...channel, id: Number(inserted.insertId) });
    // The same mock as an Anthropic upstream (type 14), for the Messages and the converted paths.
    const claude = { ...channel, type: 14, name: 'benchmark mock (Anthropic)', models: claudeModel };
    const insertedClaude = await db.insertInto('channels').values(claude).executeTakeFirstOrThrow();
    await syncAbilities(db, { ...claude, id: Number(insertedClaude.insertId) });
    const key = randomKey(48);
    await db
      .insertInto('tokens')
      .values({
        user_id: Number(user.insertId),
        key,
        status: 1,
        name: 'benchmark',
        created_time: now,
        accessed_time: now,
        expired_time: -1,
        remain_quota: 0,
        unlimited_quota: 1,
        model_limits_enabled: 0,
        model_limits: '',
        allow_ips: '',
        group: '',
        deleted_at: null,
      })
      .execute();
    return `sk-${key}`;
  } finally {
    await close();
  }
}

async function waitUntilServing(url, child, stderr, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`the server exited with code ${child.exitCode}: ${stderr()}`);
    try {
      const res = await fetch(`${url}/api/status`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server did not answer /api/status within ${timeoutMs} ms: ${stderr()}`);
}

/**
 * Seeds a database and starts the built server on it. Resolves with `{ available: false, reason }` when
 * the server is not built or does not start, so the rest of the benchmark can still run.
 */
export async function startSluice({
  root,
  upstreamUrl,
  upstreamKey,
  model,
  claudeModel,
  logLevel,
  nodeArgs = [],
}) {
  const serverDist = join(root, 'packages/server/dist');
  const main = join(serverDist, 'main.js');
  if (!existsSync(main)) return { available: false, reason: 'packages/server/dist/main.js is not built' };
  const dir = mkdtempSync(join(tmpdir(), 'sluice-bench-'));
  const sqlitePath = join(dir, 'sluice.db');
  let token;
  try {
    token = await seed(serverDist, sqlitePath, { upstreamUrl, upstreamKey, model, claudeModel });
  } catch (error) {
    return { available: false, dir, reason: `seeding the database failed: ${error.message}` };
  }
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...nodeArgs, main], {
    cwd: dir,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SQLITE_PATH: sqlitePath,
      SQL_DSN: '',
      REDIS_CONN_STRING: '',
      SESSION_SECRET: 'benchmark',
      LOG_LEVEL: logLevel,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (chunk) => {
    errors = (errors + chunk).slice(-2000);
  });
  try {
    await waitUntilServing(url, child, () => errors.trim(), 30_000);
  } catch (error) {
    child.kill('SIGKILL');
    return { available: false, dir, reason: error.message };
  }
  return { available: true, dir, url, token, proc: { name: 'sluice', child, url } };
}
