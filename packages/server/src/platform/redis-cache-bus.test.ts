import { afterEach, describe, expect, it } from 'vitest';
import type { CacheBus } from './cache-bus.js';
import { createRedisCacheBus } from './redis-cache-bus.js';

const url = process.env.TEST_REDIS_URL;

// Needs a Redis server; CI sets TEST_REDIS_URL.
describe.skipIf(!url)('Redis cache bus', () => {
  const buses: CacheBus[] = [];
  afterEach(async () => {
    await Promise.all(buses.splice(0).map((b) => b.close()));
  });

  it('delivers a message published on one node to listeners on another', async () => {
    const a = await createRedisCacheBus(url as string);
    const b = await createRedisCacheBus(url as string);
    buses.push(a, b);
    const received = new Promise<string | undefined>((resolve) => b.subscribe('options', resolve));
    // Give the SUBSCRIBE a moment to reach the server before publishing.
    await new Promise((r) => setTimeout(r, 100));
    a.publish('options', 'changed');
    await expect(received).resolves.toBe('changed');
  });

  it('keeps topics apart', async () => {
    const a = await createRedisCacheBus(url as string);
    buses.push(a);
    const heard: string[] = [];
    a.subscribe('tokens', () => heard.push('tokens'));
    const channels = new Promise<void>((resolve) => a.subscribe('channels', () => resolve()));
    await new Promise((r) => setTimeout(r, 100));
    a.publish('channels');
    await channels;
    expect(heard).toEqual([]);
  });
});
