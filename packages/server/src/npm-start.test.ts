// `npm start` as an operator runs it: the server npm ci built, started by node alone (no compile, no
// TypeScript at run time), and stopped by the signal npm is sent — no orphan left serving the port.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { SourceMap } from 'node:module';
import type { SourceMapPayload } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDb, testDialects } from './test-support/databases.js';
import { freePort } from './test-support/server-process.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BUILT = join(ROOT, 'packages/server/dist/sluice.js');

const answers = async (url: string): Promise<boolean> => {
  try {
    const res = await fetch(url);
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
};

async function waitFor(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

// `npm ci` builds the project (the prepare script); a checkout that was never installed has no build.
describe.skipIf(!existsSync(BUILT))('npm start', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'serves the built server and stops it on %s sent to npm',
    async (signal) => {
      const dir = mkdtempSync(join(tmpdir(), 'sluice-npm-start-'));
      dirs.push(dir);
      const port = await freePort();
      const npm = spawn('npm', ['start'], {
        cwd: ROOT,
        env: {
          ...process.env,
          NODE_OPTIONS: '',
          PORT: String(port),
          HOST: '127.0.0.1',
          SQLITE_PATH: join(dir, 'sluice.db'),
          SQL_DSN: '',
          REDIS_CONN_STRING: '',
          LOG_LEVEL: 'silent',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      npm.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      npm.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
      const health = `http://127.0.0.1:${port}/healthz`;
      try {
        expect(await waitFor(() => answers(health), 30_000), output).toBe(true);
        // What npm runs is node (with its flags) on the built file, nothing that compiles.
        expect(output).toMatch(/\bnode (--\S+ )*packages\/server\/dist\/sluice\.js/);
        // The bundle answers as the sources do: the console's API, the relay, the API reference.
        const base = `http://127.0.0.1:${port}`;
        const status = (await (await fetch(`${base}/api/status`)).json()) as { success: boolean };
        expect(status.success).toBe(true);
        const relay = await fetch(`${base}/v1/chat/completions`, { method: 'POST', body: '{}' });
        expect(relay.status).toBe(401);
        expect(((await relay.json()) as { error: { code: string } }).error.code).toBe('missing_api_key');
        const reference = (await (await fetch(`${base}/api/openapi.json`)).json()) as {
          info: { version: string };
        };
        const manifest = JSON.parse(readFileSync(join(ROOT, 'packages/server/package.json'), 'utf8')) as {
          version: string;
        };
        expect(reference.info.version).toBe(manifest.version);
        npm.kill(signal);
        await exited;
        expect(await waitFor(async () => !(await answers(health)), 5_000), 'the server outlived npm').toBe(
          true,
        );
      } finally {
        if (npm.exitCode === null) npm.kill('SIGKILL');
      }
    },
    60_000,
  );

  it("maps the bundle's code back to tsc's modules (for --enable-source-maps)", () => {
    const bundle = readFileSync(BUILT, 'utf8');
    expect(bundle).toMatch(/\/\/# sourceMappingURL=sluice\.js\.map\s*$/);
    const map = new SourceMap(JSON.parse(readFileSync(`${BUILT}.map`, 'utf8')) as SourceMapPayload);
    // A message only main.ts logs: where the bundle holds it, the map names main.ts's compiled module.
    const at = bundle.indexOf('shutting down: draining calls');
    expect(at).toBeGreaterThan(0);
    const before = bundle.slice(0, at);
    const line = before.split('\n').length - 1;
    const column = at - (before.lastIndexOf('\n') + 1);
    const entry = map.findEntry(line, column) as { originalSource?: string };
    expect(entry.originalSource).toMatch(/(^|\/)main\.js$/);
  });
});

// The bundle leaves the PostgreSQL and MySQL drivers and ioredis in node_modules, loaded only when
// configured: the bundled server must still find them. Runs where CI provides the servers
// (TEST_PG_DSN, TEST_MYSQL_DSN, TEST_REDIS_URL); with none of them there is nothing to reach.
const SERVER_DIALECTS = testDialects().filter((dialect) => dialect !== 'sqlite');
describe.skipIf(!existsSync(BUILT) || SERVER_DIALECTS.length === 0)('the bundled server', () => {
  it.each(SERVER_DIALECTS)(
    'reaches its database on %s, and Redis when one is configured',
    async (dialect) => {
      const db = await createTestDb(dialect);
      const port = await freePort();
      const redisUrl = process.env.TEST_REDIS_URL ?? '';
      const server = spawn(process.execPath, [BUILT], {
        env: {
          ...process.env,
          NODE_OPTIONS: '',
          PORT: String(port),
          HOST: '127.0.0.1',
          SQL_DSN: db.dsn,
          REDIS_CONN_STRING: redisUrl,
          REDIS_KEY_PREFIX: `bundle-test-${port}:`,
          SESSION_SECRET: 'bundle-test-secret',
          LOG_LEVEL: 'silent',
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let errors = '';
      server.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
      const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
      try {
        const ready = `http://127.0.0.1:${port}/readyz`;
        expect(await waitFor(() => answers(ready), 30_000), errors).toBe(true);
        expect(await (await fetch(ready)).json()).toEqual({
          status: 'ok',
          database: 'ok',
          redis: redisUrl ? 'ok' : 'off',
        });
      } finally {
        server.kill('SIGTERM');
        await exited;
        await db.dispose();
      }
    },
    60_000,
  );
});
