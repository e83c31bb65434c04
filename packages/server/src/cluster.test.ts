import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import type { FastifyInstance } from 'fastify';
import { createRedisCacheBus } from './platform/redis-cache-bus.js';
import type { CacheBus } from './platform/cache-bus.js';
import { createTestDb } from './test-support/databases.js';
import type { TestDb } from './test-support/databases.js';
import { testConfig } from './test-support/test-app.js';

const url = process.env.TEST_REDIS_URL;

// Two nodes on one database with a Redis bus; CI sets TEST_REDIS_URL.
describe.skipIf(!url)('cluster mode', () => {
  let db: TestDb;
  let buses: CacheBus[];
  let nodes: FastifyInstance[];

  beforeAll(async () => {
    db = await createTestDb('sqlite');
    buses = [await createRedisCacheBus(url as string), await createRedisCacheBus(url as string)];
    nodes = [];
    for (const bus of buses) nodes.push(await buildApp({ config: testConfig(), db, bus }));
    await new Promise((r) => setTimeout(r, 100));
  });
  afterAll(async () => {
    for (const node of nodes ?? []) await node.close();
    for (const bus of buses ?? []) await bus.close();
    await db?.dispose();
  });

  it('an option written on one node shows on the other at once', async () => {
    const [a, b] = nodes as [FastifyInstance, FastifyInstance];
    await a.ctx.options.set('SystemName', 'Cluster Gateway');
    await expect
      .poll(async () => (await b.inject({ method: 'GET', url: '/api/status' })).json().data.system_name, {
        timeout: 2000,
      })
      .toBe('Cluster Gateway');
  });
});
