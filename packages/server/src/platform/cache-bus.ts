// Invalidation messages between the parts of one node (and, with Redis, between nodes).
export type CacheTopic = 'options' | 'users' | 'tokens' | 'channels';

export interface CacheBus {
  publish(topic: CacheTopic, payload?: string): void;
  subscribe(topic: CacheTopic, listener: (payload: string | undefined) => void): () => void;
  close(): Promise<void>;
}

export function createMemoryCacheBus(): CacheBus {
  const listeners = new Map<CacheTopic, Set<(payload: string | undefined) => void>>();
  return {
    publish(topic, payload) {
      for (const listener of listeners.get(topic) ?? []) listener(payload);
    },
    subscribe(topic, listener) {
      let set = listeners.get(topic);
      if (!set) listeners.set(topic, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
    async close() {
      listeners.clear();
    },
  };
}
