// The load balancer's probes: /healthz while the process runs, /readyz only while the database (and
// Redis, when the node uses one) answers — 503 naming what is down otherwise.
import { afterEach, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { testDialects } from '../test-support/databases.js';
import { createTestApp } from '../test-support/test-app.js';
import type { TestApp } from '../test-support/test-app.js';

const redisUrl = process.env.TEST_REDIS_URL;

describe.each(testDialects())('health probes on %s', (dialect) => {
  let t: TestApp | undefined;
  const clients: Redis[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) c.disconnect();
    await t?.close().catch(() => undefined);
    t = undefined;
  });

  it('answers /healthz and /readyz while the database answers, without a session', async () => {
    t = await createTestApp({ dialect });
    const health = await t.call({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await t.call({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', database: 'ok', redis: 'off' });
    expect(ready.headers['cache-control']).toBe('no-store');
  });

  it('says not ready, naming the database, once the database stops answering; /healthz still answers', async () => {
    t = await createTestApp({ dialect });
    await t.db.db.destroy();
    const ready = await t.call({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ status: 'unavailable', database: 'down' });
    expect((await t.call({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  it('says not ready when the Redis of a cluster node cannot be reached', async () => {
    // Nothing listens on port 1: every command fails at once.
    const dead = new Redis({ port: 1, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0 });
    dead.on('error', () => undefined);
    clients.push(dead);
    t = await createTestApp({ dialect, redis: dead });
    const ready = await t.call({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable', database: 'ok', redis: 'down' });
  });

  it.skipIf(!redisUrl)('is ready with a reachable Redis (CI sets TEST_REDIS_URL)', async () => {
    const live = new Redis(redisUrl as string);
    clients.push(live);
    t = await createTestApp({ dialect, redis: live });
    const ready = await t.call({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', database: 'ok', redis: 'ok' });
  });
});
