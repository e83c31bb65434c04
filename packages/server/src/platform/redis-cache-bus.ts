// Cluster mode: invalidation messages travel over Redis pub/sub, so a write on one node reaches
// every node at once. Local listeners also hear the node's own messages, through Redis, in order.
import { Redis } from 'ioredis';
import type { CacheBus, CacheTopic } from './cache-bus.js';

export async function createRedisCacheBus(url: string, prefix = 'sluice:'): Promise<CacheBus> {
  const CHANNEL_PREFIX = `${prefix}cache:`;
  const pub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  const sub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: null });
  await Promise.all([pub.connect(), sub.connect()]);
  const listeners = new Map<CacheTopic, Set<(payload: string | undefined) => void>>();

  sub.on('message', (channel: string, message: string) => {
    const topic = channel.slice(CHANNEL_PREFIX.length) as CacheTopic;
    const payload = message === '' ? undefined : message;
    for (const listener of listeners.get(topic) ?? []) listener(payload);
  });

  return {
    publish(topic, payload) {
      void pub.publish(CHANNEL_PREFIX + topic, payload ?? '');
    },
    subscribe(topic, listener) {
      let set = listeners.get(topic);
      if (!set) {
        listeners.set(topic, (set = new Set()));
        void sub.subscribe(CHANNEL_PREFIX + topic);
      }
      set.add(listener);
      return () => set.delete(listener);
    },
    async close() {
      listeners.clear();
      sub.disconnect();
      await pub.quit().catch(() => undefined);
    },
  };
}
