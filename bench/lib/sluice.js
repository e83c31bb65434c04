// Sluice's full path for the benchmark: a database seeded with an OpenAI and an Anthropic channel
// pointing at the mock and one unlimited token (a throw-away SQLite file, or the PostgreSQL or MySQL
// database a DSN names), and the built server (packages/server/dist) in its own process.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
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

/**
 * What `npm start` (package.json) runs: node's flags and the built file, so the benchmark runs the
 * server as operators do.
 */
function startCommand(root) {
  const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const [, flags = '', file = ''] = /\bnode\s+((?:--\S+\s+)*)(\S+\.js)\b/.exec(scripts.start) ?? [];
  return { flags: flags.split(/\s+/).filter(Boolean), main: join(root, file) };
}

/**
 * Writes the rows the relay needs straight into the tables, as the console would have, into the
 * database `sqlDsn` names (PostgreSQL or MySQL) or else the SQLite file `sqlitePath`. Resolves with
 * the token's key (`sk-…`).
 */
export async function seedSluice({
  root,
  sqlDsn = '',
  sqlitePath = '',
  upstreamUrl,
  upstreamKey,
  model,
  claudeModel,
}) {
  const serverDist = join(root, 'packages/server/dist');
  const load = (file) => import(pathToFileURL(join(serverDist, file)).href);
  const { createDb } = await load('db/create-db.js');
  const { syncAbilities } = await load('db/abilities.js');
  const { insertId } = await load('db/insert-id.js');
  const { db, dialect, close } = await createDb({ sqlDsn, sqlitePath });
  const now = Math.floor(Date.now() / 1000);
  try {
    const userId = await insertId(
      db.insertInto('users').values({
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
      }),
      dialect,
    );
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
    const channelId = await insertId(db.insertInto('channels').values(channel), dialect);
    await syncAbilities(db, { ...channel, id: channelId });
    // The same mock as an Anthropic upstream (type 14), for the Messages and the converted paths.
    const claude = { ...channel, type: 14, name: 'benchmark mock (Anthropic)', models: claudeModel };
    const claudeId = await insertId(db.insertInto('channels').values(claude), dialect);
    await syncAbilities(db, { ...claude, id: claudeId });
    const key = randomKey(48);
    await db
      .insertInto('tokens')
      .values({
        user_id: userId,
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
 * Starts the built server. Without `database`, seeds a throw-away SQLite file in the node's own folder
 * first; with `database` (`{ sqlDsn, token }`, seeded by seedSluice), starts on that database, which
 * several nodes may share. `redis` (`{ url, prefix }`) starts the node in cluster mode on that Redis,
 * its keys under `prefix`. Resolves with `{ available: false, reason }` when the server is not built or
 * does not start, so the rest of the benchmark can still run.
 */
export async function startSluice({
  root,
  upstreamUrl,
  upstreamKey,
  model,
  claudeModel,
  logLevel,
  nodeArgs = [],
  database,
  redis,
}) {
  const { flags, main } = startCommand(root);
  if (!existsSync(main)) return { available: false, reason: `${main} is not built` };
  const dir = mkdtempSync(join(tmpdir(), 'sluice-bench-'));
  const sqlitePath = join(dir, 'sluice.db');
  let token = database?.token;
  if (!database) {
    try {
      token = await seedSluice({ root, sqlitePath, upstreamUrl, upstreamKey, model, claudeModel });
    } catch (error) {
      return { available: false, dir, reason: `seeding the database failed: ${error.message}` };
    }
  }
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...flags, ...nodeArgs, main], {
    cwd: dir,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SQLITE_PATH: sqlitePath,
      SQL_DSN: database?.sqlDsn ?? '',
      REDIS_CONN_STRING: redis?.url ?? '',
      REDIS_KEY_PREFIX: redis?.prefix ?? '',
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
