// The per-user limit of relay calls (ModelRequestRateLimit* options, as new-api): within each window
// a user may make at most `total` calls (0 = no limit; failed ones count too) and at most `success`
// calls that succeed. A call is checked before it runs; it joins the success count only once it has
// been answered with a status below 400. Counters are the rate-limit plugin's, so in cluster mode
// every node shares them through Redis.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createWindowCounter } from '../../http/rate-limits.js';
import type { WindowCounter, WindowState } from '../../http/rate-limits.js';
import { RelayError } from '../ir/errors.js';
import type { RelayRuntime } from '../pipeline/relay-runtime.js';
import type { CredentialCache } from './credential-cache.js';
import type { RelayCaller } from './relay-auth.js';
import type { AppContext } from '../../app-context.js';

export interface RequestLimits {
  windowMinutes: number;
  /** Calls per window, failed ones included; 0 = no limit. */
  total: number;
  /** Successful calls per window. */
  success: number;
}

/** The limits for a caller billed in `group`: the group's own pair, else the site-wide counts. */
export function requestLimitsFor(options: AppContext['options'], group: string): RequestLimits {
  const byGroup = options.get('ModelRequestRateLimitGroup');
  const own = Object.hasOwn(byGroup, group) ? byGroup[group] : undefined;
  return {
    windowMinutes: options.get('ModelRequestRateLimitDurationMinutes'),
    total: own ? own[0] : options.get('ModelRequestRateLimitCount'),
    success: own ? own[1] : options.get('ModelRequestRateLimitSuccessCount'),
  };
}

interface Counters {
  total: WindowCounter;
  success: WindowCounter;
}

// One pair per relay runtime, since each counter owns its store. Keyed by the runtime's credential
// cache: the per-call views of a runtime (a scaled price) copy its context but share that cache.
const countersByRuntime = new WeakMap<CredentialCache, Counters>();

function countersFor(rt: RelayRuntime, req: FastifyRequest): Counters {
  let counters = countersByRuntime.get(rt.credentials);
  if (!counters) {
    counters = {
      total: createWindowCounter(req.server, 'model-requests'),
      success: createWindowCounter(req.server, 'model-successes'),
    };
    countersByRuntime.set(rt.credentials, counters);
  }
  return counters;
}

/** The refusal, with Retry-After telling clients (the OpenAI SDKs among them) when the window ends. */
function tooMany(reply: FastifyReply, window: WindowState, message: string): RelayError {
  void reply.header('retry-after', String(Math.max(1, Math.ceil(window.resetMs / 1000))));
  return new RelayError(429, message, 'rate_limit_exceeded', 'rate_limit_error');
}

const per = (minutes: number) => (minutes === 1 ? 'per minute' : `per ${minutes} minutes`);

async function admit(
  rt: RelayRuntime,
  req: FastifyRequest,
  reply: FastifyReply,
  caller: RelayCaller,
): Promise<void> {
  const limits = requestLimitsFor(rt.ctx.options, caller.group);
  const windowMs = limits.windowMinutes * 60_000;
  const key = String(caller.userId);
  const { total, success } = countersFor(rt, req);
  const successWindow = { key, windowMs, max: limits.success };

  // Successes are only looked at here: a call that fails must not use one up.
  const successes = await success.peek(req, successWindow);
  if (successes.remaining === 0) {
    throw tooMany(
      reply,
      successes,
      `request limit reached: at most ${limits.success} successful requests ${per(limits.windowMinutes)} for each user; try again later`,
    );
  }
  if (limits.total > 0) {
    const calls = await total.count(req, { key, windowMs, max: limits.total });
    if (calls.exceeded) {
      throw tooMany(
        reply,
        calls,
        `request limit reached: at most ${limits.total} requests ${per(limits.windowMinutes)} for each user, failed ones included; check that your requests are valid`,
      );
    }
  }

  const res = reply.raw;
  res.once('close', () => {
    // A stream cut short by the client was still delivered (and billed): it counts as a success.
    if (!res.headersSent || res.statusCode >= 400) return;
    success.count(req, successWindow).catch((error: unknown) => {
      req.log.error({ err: error, userId: caller.userId }, 'could not count a successful request');
    });
  });
}

/**
 * Checks the caller's request limits before a relay call and counts the call's success after it.
 * Throws a 429 in the caller's format when a limit is reached. With the limit switched off this is
 * one boolean read and nothing is awaited.
 */
export function limitModelRequests(
  rt: RelayRuntime,
  req: FastifyRequest,
  reply: FastifyReply,
  caller: RelayCaller,
): Promise<void> | undefined {
  if (!rt.ctx.options.get('ModelRequestRateLimitEnabled')) return undefined;
  return admit(rt, req, reply, caller);
}
