// Decides when a channel should be taken out of rotation: at once on a definitive error (the
// upstream rejected the channel's key or its account has no quota left, or its message names one of
// the AutomaticDisableKeywords), or when its error rate over a sliding window crosses a threshold.
// Pure bookkeeping; the caller does the disabling.

export interface BreakerSettings {
  windowMs: number;
  /** Fewer calls than this in the window never trip on rate alone. */
  minCalls: number;
  /** Fraction of failed calls in the window that trips the breaker. */
  errorRate: number;
}

export const DEFAULT_BREAKER: BreakerSettings = { windowMs: 60_000, minCalls: 10, errorRate: 0.5 };

/**
 * `upstreamMessage` is the upstream's own error text, unredacted: it is only matched against the
 * disable keywords, never shown or stored (`reason` is the redacted account of the failure).
 */
export type AttemptOutcome =
  | { ok: true }
  | { ok: false; definitive: boolean; reason: string; upstreamMessage?: string }
  /** Neither the channel's success nor its fault (a client error, a rate limit). */
  | { ok: null; reason?: string; upstreamMessage?: string };

/** The first of `keywords` found in `message`, ignoring case; blank keywords never match. */
export function disableKeywordIn(message: string, keywords: readonly string[]): string | undefined {
  if (message === '') return undefined;
  const text = message.toLowerCase();
  return keywords.find((keyword) => keyword.trim() !== '' && text.includes(keyword.trim().toLowerCase()));
}

const BUCKETS = 6;

interface Window {
  /** Start time of each bucket, and its counts. */
  starts: number[];
  calls: number[];
  failures: number[];
}

export interface CircuitBreaker {
  /** Returns the reason to disable the channel now, if this outcome trips it. */
  record(channelId: number, outcome: AttemptOutcome, nowMs: number): string | undefined;
  forget(channelId: number): void;
}

/**
 * `disableKeywords` (AutomaticDisableKeywords, read at each failure so a saved list applies at once):
 * a failure whose upstream message contains one trips the breaker at once, like a definitive error,
 * whatever its status (a 400 or a 429 included, which otherwise say nothing about the channel).
 */
export function createCircuitBreaker(
  settings: BreakerSettings = DEFAULT_BREAKER,
  disableKeywords: () => readonly string[] = () => [],
): CircuitBreaker {
  const windows = new Map<number, Window>();
  const bucketMs = settings.windowMs / BUCKETS;

  function bucketFor(w: Window, nowMs: number): number {
    const start = nowMs - (nowMs % bucketMs);
    const slot = Math.floor(start / bucketMs) % BUCKETS;
    if (w.starts[slot] !== start) {
      w.starts[slot] = start;
      w.calls[slot] = 0;
      w.failures[slot] = 0;
    }
    return slot;
  }

  return {
    record(channelId, outcome, nowMs) {
      if (outcome.ok !== true) {
        const said = outcome.upstreamMessage ?? outcome.reason ?? '';
        const keyword = disableKeywordIn(said, disableKeywords());
        if (keyword !== undefined) {
          return `${outcome.reason ?? 'the upstream refused the call'} (automatic disable keyword "${keyword}")`;
        }
      }
      if (outcome.ok === null) return undefined;
      if (outcome.ok === false && outcome.definitive) return outcome.reason;
      let w = windows.get(channelId);
      if (!w) {
        w = {
          starts: Array(BUCKETS).fill(-1),
          calls: Array(BUCKETS).fill(0),
          failures: Array(BUCKETS).fill(0),
        };
        windows.set(channelId, w);
      }
      const slot = bucketFor(w, nowMs);
      w.calls[slot] = (w.calls[slot] ?? 0) + 1;
      if (outcome.ok) return undefined;
      w.failures[slot] = (w.failures[slot] ?? 0) + 1;
      let calls = 0;
      let failures = 0;
      for (let i = 0; i < BUCKETS; i++) {
        if ((w.starts[i] ?? -1) > nowMs - settings.windowMs) {
          calls += w.calls[i] ?? 0;
          failures += w.failures[i] ?? 0;
        }
      }
      if (calls >= settings.minCalls && failures / calls >= settings.errorRate) {
        return `${failures} of the last ${calls} calls failed within ${settings.windowMs / 1000}s; last error: ${outcome.reason}`;
      }
      return undefined;
    },
    forget(channelId) {
      windows.delete(channelId);
    },
  };
}
