// The real entry point (main.ts) as its own process, run from the sources (ts-loader/), for tests of
// what only a process shows: signals, exit codes, what is on disk once it has stopped.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

const REGISTER_LOADER = fileURLToPath(new URL('./ts-loader/register.mjs', import.meta.url));
const MAIN = fileURLToPath(new URL('../main.ts', import.meta.url));

/** Starting transpiles the server's sources file by file: seconds, more on a busy machine. */
const START_TIMEOUT_MS = 60_000;
/** A port found free may be taken before the server binds it; then another is tried. */
const START_ATTEMPTS = 3;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  child: ChildProcess;
  /** Settles when the process has ended. */
  exited: Promise<Exit>;
  /** The last few kB the process wrote to stderr, for failure messages. */
  stderr(): string;
  /** SIGKILL unless it has already ended; safe to call at any time. */
  kill(): void;
}

/** A port nothing listens on at the moment of asking. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

function spawnServer(port: number, env: Record<string, string>, cwd: string): ServerProcess {
  const { NODE_OPTIONS: _options, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', REGISTER_LOADER, MAIN], {
    cwd,
    env: {
      ...inherited,
      HOST: '127.0.0.1',
      SQL_DSN: '',
      REDIS_CONN_STRING: '',
      TRUSTED_PROXIES: '',
      LOG_LEVEL: 'silent',
      SESSION_SECRET: 'server-process-test-secret',
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4000);
  });
  const running = () => child.exitCode === null && child.signalCode === null;
  const kill = () => {
    if (running()) child.kill('SIGKILL');
  };
  // Should the test runner itself stop first, the server must not outlive it.
  process.once('exit', kill);
  const exited = new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) => {
      process.off('exit', kill);
      resolve({ code, signal });
    });
  });
  return { url: `http://127.0.0.1:${port}`, port, child, exited, stderr: () => errors.trim(), kill };
}

async function waitUntilServing(server: ServerProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let ended: Exit | undefined;
  void server.exited.then((exit) => (ended = exit));
  while (Date.now() < deadline) {
    if (ended) {
      throw new Error(
        `the server exited (code ${ended.code}, ${ended.signal}) before serving: ${server.stderr()}`,
      );
    }
    try {
      const res = await fetch(`${server.url}/api/status`);
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server did not answer /api/status within ${timeoutMs} ms: ${server.stderr()}`);
}

/**
 * Starts `main.ts` on 127.0.0.1 and a free port, with `env` over a quiet default (LOG_LEVEL silent, no
 * Redis, SQLite unless SQL_DSN is given), in `cwd`; resolves once it answers /api/status. The caller
 * must `kill()` it when done (in afterEach), whatever happened.
 */
export async function startServerProcess(env: Record<string, string>, cwd: string): Promise<ServerProcess> {
  for (let attempt = 1; ; attempt++) {
    const server = spawnServer(await freePort(), env, cwd);
    try {
      await waitUntilServing(server, START_TIMEOUT_MS);
      return server;
    } catch (error) {
      server.kill();
      await server.exited;
      if (attempt >= START_ATTEMPTS || !server.stderr().includes('EADDRINUSE')) throw error;
    }
  }
}
