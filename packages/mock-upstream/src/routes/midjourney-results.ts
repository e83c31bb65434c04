// What a finished midjourney-proxy task holds: its final prompt (the four prompts of a DESCRIBE, the shorter
// prompts of a SHORTEN), whether it has an image, its seed, and the buttons Discord put under its message
// (the customIds /mj/submit/action takes). All derived from the task, so answers stay deterministic.
import type { TaskRecord } from './task-life.js';

/** The midjourney-proxy fields of a task (see midjourney.ts). */
export interface MidjourneyDetail {
  prompt: string | null;
  description: string;
  /** MID_JOURNEY, NIJI_JOURNEY or INSIGHT_FACE (face swaps). */
  botType: string;
  state: string | null;
  notifyHook: string | null;
  /** The button a task from /mj/submit/action pressed. */
  customId: string | null;
  /** Discord's message hash, part of the customIds of the task's buttons. */
  hash: string;
  /** The task a change or an action worked on. */
  parentId?: string;
}

/** What a DESCRIBE finds in any image. */
const DESCRIBED = [
  'a mock illustration in soft pastel light --ar 1:1',
  'a detailed mock photograph at golden hour --ar 1:1',
  'a minimalist mock poster with bold shapes --ar 1:1',
  'a mock watercolor sketch of a quiet scene --ar 1:1',
];

const NUMBERS = ['1️⃣', '2️⃣', '3️⃣', '4️⃣', '5️⃣'];

const numbered = (lines: string[]): string => lines.map((line, i) => `${NUMBERS[i]} ${line}`).join('\n\n');

/** A SHORTEN's proposals: the prompt's first 2, 3, 4… words (at most five proposals). */
function shortened(prompt: string): string[] {
  const words = prompt.split(/\s+/).filter((word) => word !== '');
  const proposals: string[] = [];
  for (let n = Math.min(2, words.length); n <= words.length && proposals.length < 5; n++) {
    if (n > 0) proposals.push(words.slice(0, n).join(' '));
  }
  return proposals;
}

/** A stable 32-bit number from the task id, as a string (the proxy's seeds are numeric strings). */
function seedOf(id: string): string {
  let hash = 2166136261;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 16777619) >>> 0;
  return String(hash);
}

export interface MidjourneyResults {
  finalPrompt: string | null;
  describedPrompts: string[];
  /** A SHORTEN draws nothing. */
  image: boolean;
  seed: string;
}

export function midjourneyResults(task: TaskRecord<MidjourneyDetail>): MidjourneyResults {
  const prompt = task.detail.prompt;
  const finalPrompt =
    task.action === 'DESCRIBE'
      ? numbered(DESCRIBED)
      : task.action === 'SHORTEN'
        ? numbered(shortened(prompt ?? ''))
        : prompt;
  return {
    finalPrompt,
    describedPrompts: DESCRIBED,
    image: task.action !== 'SHORTEN',
    seed: seedOf(task.id),
  };
}

export interface MidjourneyButton {
  customId: string;
  emoji: string;
  label: string;
  type: number;
  style: number;
}

const button = (customId: string, label: string, emoji = ''): MidjourneyButton => ({
  customId,
  emoji,
  label,
  type: 2,
  style: 2,
});

/** Actions whose result is a grid of four images (U1–U4, reroll, V1–V4 under it). */
const GRID = new Set([
  'IMAGINE',
  'VARIATION',
  'REROLL',
  'BLEND',
  'HIGH_VARIATION',
  'LOW_VARIATION',
  'ZOOM',
  'PAN',
  'INPAINT',
  'CUSTOM_ZOOM',
]);

const INDEXES = [1, 2, 3, 4];

export function midjourneyButtons(task: TaskRecord<MidjourneyDetail>): MidjourneyButton[] {
  const { hash } = task.detail;
  if (GRID.has(task.action)) {
    return [
      ...INDEXES.map((i) => button(`MJ::JOB::upsample::${i}::${hash}`, `U${i}`)),
      button(`MJ::JOB::reroll::0::${hash}::SOLO`, '', '🔄'),
      ...INDEXES.map((i) => button(`MJ::JOB::variation::${i}::${hash}`, `V${i}`)),
    ];
  }
  if (task.action === 'UPSCALE') {
    return [
      button(`MJ::JOB::upsample_v6_2x_subtle::1::${hash}::SOLO`, 'Upscale (Subtle)'),
      button(`MJ::JOB::upsample_v6_2x_creative::1::${hash}::SOLO`, 'Upscale (Creative)'),
      button(`MJ::JOB::low_variation::1::${hash}::SOLO`, 'Vary (Subtle)', '🪄'),
      button(`MJ::JOB::high_variation::1::${hash}::SOLO`, 'Vary (Strong)', '🪄'),
      button(`MJ::Inpaint::1::${hash}::SOLO`, 'Vary (Region)', '🖌️'),
      button(`MJ::Outpaint::50::1::${hash}::SOLO`, 'Zoom Out 2x', '🔍'),
      button(`MJ::Outpaint::75::1::${hash}::SOLO`, 'Zoom Out 1.5x', '🔍'),
      button(`MJ::CustomZoom::${hash}`, 'Custom Zoom', '🔍'),
      button(`MJ::JOB::pan_left::1::${hash}::SOLO`, '', '⬅️'),
      button(`MJ::JOB::pan_right::1::${hash}::SOLO`, '', '➡️'),
      button(`MJ::JOB::pan_up::1::${hash}::SOLO`, '', '⬆️'),
      button(`MJ::JOB::pan_down::1::${hash}::SOLO`, '', '⬇️'),
    ];
  }
  if (task.action === 'DESCRIBE') {
    return [
      ...INDEXES.map((i) => button(`MJ::Job::PicReader::${i}`, NUMBERS[i - 1] ?? String(i))),
      button('MJ::Picread::Retry', '', '🔄'),
    ];
  }
  return [];
}
