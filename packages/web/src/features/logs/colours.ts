// Colours of the timing figures in the usage lists (spec part 2 §9), as antd tag colours.
export type TimingColour = 'green' | 'orange' | 'red';

/** A call's total time in seconds: under 101 s green, under 300 s orange, else red. */
export function callTimeColour(seconds: number): TimingColour {
  if (seconds < 101) return 'green';
  if (seconds < 300) return 'orange';
  return 'red';
}

/** Time to the first token in milliseconds: under 3 s green, under 10 s orange, else red. */
export function firstTokenColour(ms: number): TimingColour {
  if (ms < 3000) return 'green';
  if (ms < 10_000) return 'orange';
  return 'red';
}

/** A drawing or async task that took over a minute is shown in red. */
export function taskDurationColour(seconds: number): 'green' | 'red' {
  return seconds > 60 ? 'red' : 'green';
}

/** Seconds between submit and finish, or null while the task has not finished. */
export function taskDuration(submitTime: number, finishTime: number): number | null {
  if (submitTime <= 0 || finishTime <= 0 || finishTime < submitTime) return null;
  return finishTime - submitTime;
}
