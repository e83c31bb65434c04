// Two nodes sharing one Redis share each user's request counts: the limit holds for the cluster, not
// per node. CI sets TEST_REDIS_URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { startMockUpstream } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { buildApp } from '../../app.js';
import type { CacheBus } from '../../platform/cache-bus.js';
import { createRedisCacheBus } from '../../platform/redis-cache-bus.js';
import { createTestApp, testConfig } from '../../test-support/test-app.js';
import type { TestApp } from '../../test-support/test-app.js';
import { addChannel, addToken, listen, setOptions } from '../../test-support/relay-kit.js';
import type { TestToken } from '../../test-support/relay-kit.js';

const url = process.env.TEST_REDIS_URL;
const MODEL = 'cluster-limited-model';

/** A success is counted when its response closes, a moment after the client has read it. */
const successCounted = () => new Promise((resolve) => setTimeout(resolve, 50));

describe.skipIf(!url)('per-user request limit in cluster mode', () => {
  let mock: MockUpstream;
  let redis: Redis[];
  let buses: CacheBus[];
  let a: TestApp;
  let b: FastifyInstance;
  let bases: [string, string];

  beforeAll(async () => {
    mock = await startMockUpstream();
    redis = [new Redis(url as string), new Redis(url as string)];
    buses = [await createRedisCacheBus(url as string), await createRedisCacheBus(url as string)];
    a = await createTestApp({ redis: redis[0], bus: buses[0] });
    await setOptions(a, { ModelRatio: { [MODEL]: 1 } });
    await addChannel(a, { base_url: mock.url, models: MODEL });
    // The second node works on the first one's database, as two nodes of one deployment do.
    b = await buildApp({ config: testConfig(), db: a.db, redis: redis[1], bus: buses[1] });
    await b.listen({ port: 0, host: '127.0.0.1' });
    bases = [await listen(a), `http://127.0.0.1:${(b.server.address() as AddressInfo).port}`];
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    for (const bus of buses ?? []) await bus.close();
    for (const client of redis ?? []) client.disconnect();
    await mock?.close();
  });

  /** Turns the limit on through node a and waits until node b has heard of it. */
  const limit = async (values: Record<string, number>) => {
    await setOptions(a, { ModelRequestRateLimitEnabled: true, ...values });
    await expect
      .poll(() =>
        Object.entries(values).every(([k, v]) => String(b.ctx.options.raw(k as never)) === String(v)),
      )
      .toBe(true);
    await expect.poll(() => b.ctx.options.get('ModelRequestRateLimitEnabled')).toBe(true);
  };

  /** A new user whose counters no earlier run of this suite left behind in Redis. */
  const newUser = async (): Promise<TestToken> => {
    const user = await a.createUser({ quota: 10_000_000 });
    const stale = await redis[0]?.keys(`sluice:ratelimit:*model-*:${user.id}`);
    if (stale && stale.length > 0) await redis[0]?.del(...stale);
    return addToken(a, user.id);
  };

  const chat = async (node: 0 | 1, token: TestToken) => {
    const res = await fetch(`${bases[node]}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }),
    });
    await res.text();
    if (res.status < 400) await successCounted();
    return res.status;
  };

  it('counts the calls a user makes on either node against one total', async () => {
    await limit({ ModelRequestRateLimitCount: 3, ModelRequestRateLimitSuccessCount: 100 });
    const token = await newUser();
    expect(await chat(0, token)).toBe(200);
    expect(await chat(1, token)).toBe(200);
    expect(await chat(0, token)).toBe(200);
    expect(await chat(1, token)).toBe(429);
    expect(await chat(0, token)).toBe(429);
  });

  it('counts the successes a user has on either node against one success count', async () => {
    await limit({ ModelRequestRateLimitCount: 0, ModelRequestRateLimitSuccessCount: 2 });
    const token = await newUser();
    expect(await chat(1, token)).toBe(200);
    expect(await chat(0, token)).toBe(200);
    expect(await chat(1, token)).toBe(429);
    expect(await chat(0, token)).toBe(429);
  });
});
