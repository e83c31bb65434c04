// SIGTERM/SIGINT as main.ts handles them: idle and never-used keep-alive connections do not hold the
// stop up, a stream in flight finishes and is billed, and the grace period bounds the wait.
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockUpstream, withMock } from '@sluice/mock-upstream';
import type { MockDirective, MockUpstream } from '@sluice/mock-upstream';
import { createTestApp } from '../test-support/test-app.js';
import type { TestApp } from '../test-support/test-app.js';
import { addChannel, addToken, listen, setOptions } from '../test-support/relay-kit.js';
import { closeGracefully, trackConnections } from './shutdown.js';
import type { ConnectionTracker } from './shutdown.js';

const MODEL = 'shutdown-model';

describe('graceful shutdown', () => {
  let mock: MockUpstream;
  let t: TestApp;
  let tracker: ConnectionTracker;
  let url: string;
  let key: string;
  let userId: number;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    mock = await startMockUpstream();
  });
  afterAll(async () => mock?.close());

  beforeEach(async () => {
    t = await createTestApp();
    tracker = trackConnections(t.app.server);
    await setOptions(t, { ModelRatio: { [MODEL]: 1 } });
    await addChannel(t, { base_url: mock.url, models: MODEL });
    const user = await t.createUser({ quota: 10_000_000 });
    userId = user.id;
    key = (await addToken(t, user.id)).key;
    url = await listen(t);
  });
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await t.db.dispose();
  });

  const openSocket = async (request?: string): Promise<Socket> => {
    const { port } = new URL(url);
    const socket = connect(Number(port), '127.0.0.1');
    sockets.push(socket);
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    if (request) {
      socket.write(request);
      await new Promise<void>((resolve) => socket.once('data', () => resolve()));
    }
    return socket;
  };

  const streamCall = (directive: MockDirective) =>
    fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: MODEL,
        stream: true,
        messages: [{ role: 'user', content: withMock('hello', directive) }],
      }),
    });

  const consumeLogs = () =>
    t.db.db.selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', 2).execute();

  it('stops at once when keep-alive connections are open but nothing is in flight', async () => {
    await openSocket();
    await openSocket();
    await openSocket('GET /api/status HTTP/1.1\r\nHost: sluice\r\n\r\n');
    const started = Date.now();
    expect(await closeGracefully(t.app, tracker, 15_000)).toBe(true);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('lets a stream in flight finish, then writes its bill', async () => {
    const res = await streamCall({ reply_tokens: 12, chunk_delay_ms: 60 });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    await reader.read(); // the stream has started
    const stopping = closeGracefully(t.app, tracker, 15_000);
    let text = '';
    const decoder = new TextDecoder();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      text += decoder.decode(chunk.value);
    }
    expect(text).toContain('data: [DONE]');
    expect(await stopping).toBe(true);
    const logs = await consumeLogs();
    expect(logs).toHaveLength(1);
    expect(logs[0]?.completion_tokens).toBe(12);
  });

  it('cuts a call that outlasts the grace period, and bills what it produced', async () => {
    const res = await streamCall({ reply_tokens: 200, chunk_delay_ms: 50 });
    const reader = res.body!.getReader();
    await reader.read();
    const started = Date.now();
    expect(await closeGracefully(t.app, tracker, 400)).toBe(false);
    expect(Date.now() - started).toBeLessThan(3_000);
    await reader.read().catch(() => undefined);
    const logs = await consumeLogs();
    expect(logs).toHaveLength(1);
    const produced = Number(logs[0]?.completion_tokens);
    expect(produced).toBeGreaterThan(0);
    expect(produced).toBeLessThan(200);
  });
});
