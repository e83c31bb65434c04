// The server as an operator runs it, in its own process: SIGTERM and SIGINT stop it at once when
// nothing is in flight, however many keep-alive connections clients hold, and a stream in flight
// finishes and is billed in the database file before the process exits 0.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMockUpstream, withMock } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { LOG_TYPE } from '@sluice/shared';
import { createDb } from './db/create-db.js';
import { addChannel, addToken, setOptions } from './test-support/relay-kit.js';
import { startServerProcess } from './test-support/server-process.js';
import type { ServerProcess } from './test-support/server-process.js';
import { createTestApp } from './test-support/test-app.js';

const MODEL = 'process-model';
/** Generous for a loaded machine; the server stops in well under this when nothing is in flight. */
const PROMPT_EXIT_MS = 2_000;

describe('the server process on SIGTERM and SIGINT', () => {
  let mock: MockUpstream;
  let server: ServerProcess | undefined;
  const dirs: string[] = [];
  const sockets: Socket[] = [];

  beforeAll(async () => {
    mock = await startMockUpstream();
  });
  afterAll(async () => mock?.close());
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    server?.kill();
    await server?.exited;
    server = undefined;
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  const start = async (sqlitePath: string) => {
    server = await startServerProcess({ SQLITE_PATH: sqlitePath }, dirname(sqlitePath));
    return server;
  };

  const emptyDatabase = () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-process-'));
    dirs.push(dir);
    return join(dir, 'sluice.db');
  };

  /** A database file with a priced model, a channel on the mock and a token, as the console would leave it. */
  const seededDatabase = async () => {
    const t = await createTestApp();
    const sqlitePath = t.db.sqliteFile;
    if (!sqlitePath) throw new Error('the test database is not a SQLite file');
    dirs.push(dirname(sqlitePath));
    await setOptions(t, { ModelRatio: { [MODEL]: 1 } });
    await addChannel(t, { base_url: mock.url, models: MODEL });
    const user = await t.createUser({ quota: 10_000_000 });
    const token = await addToken(t, user.id);
    // Closed, not disposed: the file stays for the server process.
    await t.app.close();
    await t.db.close();
    return { sqlitePath, userId: user.id, key: token.key };
  };

  /** A connection to the server, optionally after one request answered on it (then idle, kept alive). */
  const openConnection = async (port: number, request?: string): Promise<Socket> => {
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    if (request) {
      socket.write(request);
      await new Promise<void>((resolve) => socket.once('data', () => resolve()));
    }
    return socket;
  };

  /** Connections a browser or load balancer keeps ready, and one kept alive after a request. */
  const holdConnections = async (port: number) => {
    for (let i = 0; i < 3; i++) await openConnection(port);
    await openConnection(port, 'GET /api/status HTTP/1.1\r\nHost: sluice\r\nConnection: keep-alive\r\n\r\n');
  };

  const stopWith = async (running: ServerProcess, signal: NodeJS.Signals) => {
    const sent = Date.now();
    running.child.kill(signal);
    const exit = await running.exited;
    return { ...exit, tookMs: Date.now() - sent };
  };

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'exits 0 at once on %s while clients hold idle keep-alive connections',
    async (signal) => {
      const running = await start(emptyDatabase());
      await holdConnections(running.port);
      const stopped = await stopWith(running, signal);
      expect({ code: stopped.code, signal: stopped.signal }, running.stderr()).toEqual({
        code: 0,
        signal: null,
      });
      expect(stopped.tookMs).toBeLessThan(PROMPT_EXIT_MS);
    },
    90_000,
  );

  it('lets a stream in flight finish on SIGTERM, refuses new connections, and writes its bill before exiting 0', async () => {
    const seeded = await seededDatabase();
    const running = await start(seeded.sqlitePath);
    await holdConnections(running.port);
    const res = await fetch(`${running.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${seeded.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: MODEL,
        stream: true,
        // About a second of stream: 20 events, 50 ms apart.
        messages: [{ role: 'user', content: withMock('hello', { reply_tokens: 20, chunk_delay_ms: 50 }) }],
      }),
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value);

    running.child.kill('SIGTERM');
    const refused = () =>
      new Promise<boolean>((resolve) => {
        const probe = connect(running.port, '127.0.0.1');
        probe.once('connect', () => {
          probe.destroy();
          resolve(false);
        });
        probe.once('error', () => resolve(true));
      });
    await expect.poll(refused, { timeout: 1_000, interval: 50 }).toBe(true);

    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      text += decoder.decode(chunk.value, { stream: true });
    }
    expect(text).toContain('data: [DONE]');
    const exit = await running.exited;
    expect({ code: exit.code, signal: exit.signal }, running.stderr()).toEqual({ code: 0, signal: null });

    const db = await createDb({ sqlDsn: '', sqlitePath: seeded.sqlitePath });
    try {
      const logs = await db.db
        .selectFrom('logs')
        .selectAll()
        .where('user_id', '=', seeded.userId)
        .where('type', '=', LOG_TYPE.consume)
        .execute();
      expect(logs).toHaveLength(1);
      expect(logs[0]?.completion_tokens).toBe(20);
      const charged = Number(logs[0]?.quota);
      expect(charged).toBeGreaterThan(0);
      const user = await db.db
        .selectFrom('users')
        .select(['quota', 'used_quota'])
        .where('id', '=', seeded.userId)
        .executeTakeFirstOrThrow();
      expect(Number(user.quota)).toBe(10_000_000 - charged);
      expect(Number(user.used_quota)).toBe(charged);
    } finally {
      await db.close();
    }
  }, 90_000);
});
