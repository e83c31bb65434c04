// A drawing row as midjourney-proxy clients read a task: the proxy's field names, Sluice's id, and
// with MjForwardUrlEnabled the image behind Sluice's own address (/mj/image/{id}) instead of the
// upstream's (the row keeps the upstream's).
import type { Selectable } from 'kysely';
import type { AppContext } from '../../../app-context.js';
import type { MidjourneysTable } from '../../../db/tables.js';

export type MidjourneyRow = Selectable<MidjourneysTable>;

/** The proxy's task object. */
export interface MjTaskView {
  id: string;
  action: string;
  prompt: string;
  promptEn: string;
  description: string;
  state: string;
  submitTime: number;
  startTime: number;
  finishTime: number;
  imageUrl: string;
  status: string;
  progress: string;
  failReason: string;
  buttons: unknown[];
  properties: Record<string, unknown>;
}

function parseJsonOr<T>(text: string, valid: (value: unknown) => value is T, fallback: T): T {
  if (text === '') return fallback;
  try {
    const value: unknown = JSON.parse(text);
    return valid(value) ? value : fallback;
  } catch {
    return fallback;
  }
}

const isArray = (value: unknown): value is unknown[] => Array.isArray(value);
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Sluice's address of a task's image: ServerAddress + /mj/image/{id}. */
export const forwardedImageUrl = (options: AppContext['options'], mjId: string): string =>
  `${options.get('ServerAddress').trim().replace(/\/+$/, '')}/mj/image/${encodeURIComponent(mjId)}`;

/** The image URL a client is shown for a row: Sluice's when forwarding is on, else the upstream's. */
export function shownImageUrl(
  options: AppContext['options'],
  row: { mj_id: string; image_url: string },
): string {
  if (row.image_url === '') return '';
  return options.get('MjForwardUrlEnabled') ? forwardedImageUrl(options, row.mj_id) : row.image_url;
}

export function toTaskView(options: AppContext['options'], row: MidjourneyRow): MjTaskView {
  return {
    id: row.mj_id,
    action: row.action,
    prompt: row.prompt,
    promptEn: row.prompt_en,
    description: row.description,
    state: row.state,
    submitTime: Number(row.submit_time),
    startTime: Number(row.start_time),
    finishTime: Number(row.finish_time),
    imageUrl: shownImageUrl(options, row),
    status: row.status,
    progress: row.progress,
    failReason: row.fail_reason,
    buttons: parseJsonOr(row.buttons, isArray, []),
    properties: parseJsonOr(row.properties, isObject, {}),
  };
}
