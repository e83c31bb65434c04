// What a midjourney-proxy call does and what it costs: the actions, the model each is priced as, the
// action a button's customId or a simple-change's content stands for, and the speed modes a path
// prefix selects. Pure: no I/O.

export const MJ_ACTIONS = [
  'IMAGINE',
  'UPSCALE',
  'VARIATION',
  'REROLL',
  'DESCRIBE',
  'BLEND',
  'UPLOAD',
  'SHORTEN',
  'ZOOM',
  'CUSTOM_ZOOM',
  'PAN',
  'INPAINT',
  'MODAL',
  'HIGH_VARIATION',
  'LOW_VARIATION',
  'SWAP_FACE',
] as const;
export type MjAction = (typeof MJ_ACTIONS)[number];

/** The model each action is priced (ModelPrice) and listed (a channel's models) as. */
const MODEL_OF: Readonly<Record<MjAction, string>> = {
  IMAGINE: 'mj_imagine',
  UPSCALE: 'mj_upscale',
  VARIATION: 'mj_variation',
  REROLL: 'mj_reroll',
  DESCRIBE: 'mj_describe',
  BLEND: 'mj_blend',
  UPLOAD: 'mj_uploads',
  SHORTEN: 'mj_shorten',
  ZOOM: 'mj_zoom',
  CUSTOM_ZOOM: 'mj_custom_zoom',
  PAN: 'mj_pan',
  INPAINT: 'mj_inpaint',
  MODAL: 'mj_modal',
  HIGH_VARIATION: 'mj_high_variation',
  LOW_VARIATION: 'mj_low_variation',
  SWAP_FACE: 'swap_face',
};

export const isMjAction = (value: string): value is MjAction => Object.hasOwn(MODEL_OF, value);

export const modelOfAction = (action: MjAction): string => MODEL_OF[action];

/** The model a stored row was charged as; rows imported from new-api may name actions Sluice has no entry for. */
export const modelOfStoredAction = (action: string): string =>
  isMjAction(action) ? MODEL_OF[action] : `mj_${action.toLowerCase()}`;

/**
 * The action a button stands for, from its customId ("MJ::JOB::upsample::2::<hash>",
 * "MJ::Outpaint::50::1::<hash>::SOLO", "MJ::CustomZoom::<hash>"), read as new-api reads it; undefined
 * for a button Sluice cannot price.
 */
export function actionOfCustomId(customId: string): MjAction | undefined {
  const parts = customId.split('::');
  if (parts[0] !== 'MJ' || parts.length < 2) return undefined;
  const name = (parts[1] === 'JOB' ? parts[2] : parts[1]) ?? '';
  if (name.includes('upsample')) return 'UPSCALE';
  if (name.includes('variation')) {
    if (name === 'variation') return 'VARIATION';
    if (name === 'low_variation') return 'LOW_VARIATION';
    if (name === 'high_variation') return 'HIGH_VARIATION';
    return undefined;
  }
  if (name.includes('pan')) return 'PAN';
  if (name.includes('reroll')) return 'REROLL';
  if (name === 'Outpaint') return 'ZOOM';
  if (name === 'CustomZoom') return 'CUSTOM_ZOOM';
  if (name === 'Inpaint') return 'INPAINT';
  return undefined;
}

/** Actions /mj/submit/change takes (the proxy's own list). */
export const CHANGE_ACTIONS = ['UPSCALE', 'VARIATION', 'REROLL'] as const;
export type ChangeAction = (typeof CHANGE_ACTIONS)[number];

export interface SimpleChange {
  taskId: string;
  action: ChangeAction;
  /** "U2", "V1", "R": what follows the task id in the content. */
  label: string;
}

/** "<task id> U1".."U4" | "V1".."V4" | "R", as /mj/submit/simple-change takes it; undefined otherwise. */
export function parseSimpleChange(content: string): SimpleChange | undefined {
  const match = /^\s*(\S+)\s+(?:([uUvV])([1-4])|([rR]))\s*$/.exec(content);
  if (!match?.[1]) return undefined;
  const [, taskId, kind, index] = match;
  if (kind === undefined || index === undefined) return { taskId, action: 'REROLL', label: 'R' };
  const upscale = kind.toUpperCase() === 'U';
  return { taskId, action: upscale ? 'UPSCALE' : 'VARIATION', label: `${upscale ? 'U' : 'V'}${index}` };
}

/** Speed modes: a client path `/fast/mj/…` reaches the upstream as `{base}/mj-fast/mj/…`. */
export const MJ_MODES = ['fast', 'turbo', 'relax'] as const;
export type MjMode = (typeof MJ_MODES)[number];

/** Flags a prompt may carry to pick a speed; MjModeClearEnabled takes them out. */
const MODE_FLAGS = /--(?:fast|relax|turbo)\b/g;

export const clearModeFlags = (prompt: string): string => prompt.replace(MODE_FLAGS, '');
