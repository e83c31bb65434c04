// Rate limits on the app's rate-limit plugin, whose counters live in Redis in cluster mode (shared by
// every node) and in memory otherwise.
// - Per-IP limits for the sign-in routes (login, register, verification, reset), from the
//   configuration. Use as `config: { auth: 'public', rateLimit: criticalRateLimit(ctx.config) }`.
// - Window counters under a key of the caller's choosing, for limits decided inside a handler.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';

export const criticalRateLimit = (config: Config) => ({
  max: config.criticalRateLimit.max,
  timeWindow: config.criticalRateLimit.windowMs,
});

export interface CounterWindow {
  /** Who is counted (the counter's name is prefixed). */
  key: string;
  /** Length of the window, which opens at the first count under the key. */
  windowMs: number;
  /** The most counts the window allows. */
  max: number;
}

export interface WindowState {
  /** The window already holds more than `max` counts (this one included, for `count`). */
  exceeded: boolean;
  /** How many more counts fit in the window. */
  remaining: number;
  /** Milliseconds until the window closes (0 when no window is open). */
  resetMs: number;
}

export interface WindowCounter {
  /** Adds one to the key's window. */
  count(req: FastifyRequest, window: CounterWindow): Promise<WindowState>;
  /** The key's window as it stands, without counting. */
  peek(req: FastifyRequest, window: CounterWindow): Promise<WindowState>;
}

/**
 * A counter on the rate-limit plugin's store. Create it once per app: each one has its own store
 * (in memory) or key prefix (Redis). `name` keeps the keys of different counters apart.
 */
export function createWindowCounter(app: FastifyInstance, name: string): WindowCounter {
  // The plugin asks the request for the key, window and limit; the call in progress supplies them.
  const asked = new WeakMap<FastifyRequest, CounterWindow>();
  const windowOf = (req: FastifyRequest): CounterWindow => {
    const window = asked.get(req);
    if (!window) throw new Error(`counter ${name} was consulted outside a count or peek`);
    return window;
  };
  const limiter = app.createRateLimit({
    keyGenerator: (req) => `${name}:${windowOf(req).key}`,
    timeWindow: (req) => windowOf(req).windowMs,
    max: (req) => windowOf(req).max,
  });

  const run = async (req: FastifyRequest, window: CounterWindow, increment: boolean) => {
    asked.set(req, window);
    try {
      const result = await limiter(req, { increment });
      // Only an allow-list answers "allowed" without counting, and this limiter has none.
      if (result.isAllowed) return { exceeded: false, remaining: window.max, resetMs: 0 };
      return { exceeded: result.isExceeded, remaining: result.remaining, resetMs: result.ttl };
    } finally {
      asked.delete(req);
    }
  };

  return {
    count: (req, window) => run(req, window, true),
    peek: (req, window) => run(req, window, false),
  };
}
