// Time source; tests may pass their own.
export interface Clock {
  /** Unix seconds. */
  now(): number;
  nowMs(): number;
}

export const systemClock: Clock = {
  now: () => Math.floor(Date.now() / 1000),
  nowMs: () => Date.now(),
};
