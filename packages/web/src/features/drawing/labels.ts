// Labels of drawing (Midjourney) tasks (spec part 2 §4): actions and submit codes. Statuses are the
// async tasks' (../tasks/labels.ts).

export const MJ_ACTIONS = [
  'IMAGINE',
  'UPSCALE',
  'VARIATION',
  'HIGH_VARIATION',
  'LOW_VARIATION',
  'PAN',
  'DESCRIBE',
  'BLEND',
  'UPLOAD',
  'SHORTEN',
  'REROLL',
  'INPAINT',
  'ZOOM',
  'CUSTOM_ZOOM',
  'MODAL',
  'SWAP_FACE',
] as const;
export type MjActionName = (typeof MJ_ACTIONS)[number];

export const mjAction = (action: string): MjActionName | null =>
  (MJ_ACTIONS as readonly string[]).includes(action) ? (action as MjActionName) : null;

export type SubmitCodeName = 'submitted' | 'waiting' | 'duplicate' | 'notSubmitted' | 'unknown';

const CODES: Record<number, { name: SubmitCodeName; colour: string }> = {
  1: { name: 'submitted', colour: 'green' },
  21: { name: 'waiting', colour: 'lime' },
  22: { name: 'duplicate', colour: 'orange' },
  0: { name: 'notSubmitted', colour: 'default' },
};

/** 1 submitted, 21 waiting, 22 duplicate, 0 not submitted. */
export const submitCode = (code: number): { name: SubmitCodeName; colour: string } =>
  CODES[code] ?? { name: 'unknown', colour: 'default' };
