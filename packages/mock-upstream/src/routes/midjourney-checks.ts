// What each midjourney-proxy submit takes: the checks of its body, as the proxy answers a bad one (code 4,
// or 3 for a task it does not know), and the task it creates — or for /mj/submit/modal, the task it confirms.
// Also the refusals a `submit_code` directive scripts.
import { randomUUID } from 'node:crypto';
import { cleanText } from '../directive.js';
import type { Exchange } from '../exchange.js';
import { midjourneyResults, type MidjourneyDetail } from './midjourney-results.js';
import type { TaskBook, TaskRecord } from './task-life.js';

type MidjourneyBook = TaskBook<MidjourneyDetail>;

/** midjourney-proxy's answer codes (ReturnCode). */
export const MJ_CODE = {
  SUCCESS: 1,
  NOT_FOUND: 3,
  VALIDATION_ERROR: 4,
  FAILURE: 9,
  EXISTED: 21,
  IN_QUEUE: 22,
  QUEUE_REJECTED: 23,
  BANNED_PROMPT: 24,
} as const;

/** What the proxy says with each refusal code. */
export const REFUSALS: Record<number, string> = {
  [MJ_CODE.NOT_FOUND]: 'No available account instance',
  [MJ_CODE.VALIDATION_ERROR]: 'Validation error',
  [MJ_CODE.FAILURE]: 'System error',
  [MJ_CODE.QUEUE_REJECTED]: 'The queue is full, please try again later',
  [MJ_CODE.BANNED_PROMPT]: 'May contain sensitive words',
};

export interface Refusal {
  code: number;
  description: string;
  properties?: Record<string, unknown>;
}

/** A validated submit: the task to create, or for a modal confirmation the task it confirms. */
export interface Draft {
  action: string;
  detail: MidjourneyDetail;
  /** Inpaint and custom zoom wait for /mj/submit/modal (answered with code 21). */
  modal?: boolean;
  confirms?: TaskRecord<MidjourneyDetail>;
}

export type Checked = Draft | Refusal;

const refuse = (code: number, description: string): Refusal => ({ code, description });

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/** A data URL ("data:image/png;base64,…"), as the proxy requires for every image. */
export const isDataUrl = (value: unknown): boolean =>
  typeof value === 'string' && /^data:[\w.+-]+\/[\w.+-]+;base64,[A-Za-z0-9+/=\s]*$/.test(value);

function newDetail(
  body: Record<string, unknown>,
  prompt: string | null,
  description: string,
): MidjourneyDetail {
  return {
    prompt,
    description,
    botType: body.botType === 'NIJI_JOURNEY' ? 'NIJI_JOURNEY' : 'MID_JOURNEY',
    state: typeof body.state === 'string' ? body.state : null,
    notifyHook: typeof body.notifyHook === 'string' ? body.notifyHook : null,
    customId: null,
    hash: randomUUID(),
  };
}

function checkImagine(body: Record<string, unknown>): Checked {
  const prompt = text(body.prompt);
  if (prompt === undefined) return refuse(MJ_CODE.VALIDATION_ERROR, 'prompt cannot be empty');
  const images = body.base64Array ?? [];
  if (!Array.isArray(images) || !images.every(isDataUrl)) {
    return refuse(MJ_CODE.VALIDATION_ERROR, 'base64 format error');
  }
  const clean = cleanText(prompt).trim();
  return { action: 'IMAGINE', detail: newDetail(body, clean, `/imagine ${clean}`) };
}

/** A finished task another one works on (change, action), or the refusal the proxy answers. */
function target(book: MidjourneyBook, taskId: string): TaskRecord<MidjourneyDetail> | Refusal {
  const task = book.get(taskId);
  if (!task) return refuse(MJ_CODE.NOT_FOUND, 'The associated task does not exist or has expired');
  if (task.status !== 'SUCCESS') {
    return refuse(MJ_CODE.VALIDATION_ERROR, 'The associated task status is wrong');
  }
  return task;
}

export const isRefusal = (value: object): value is Refusal => 'code' in value;

const CHANGEABLE = new Set(['IMAGINE', 'VARIATION', 'REROLL', 'BLEND']);

function checkChange(book: MidjourneyBook, body: Record<string, unknown>): Checked {
  const taskId = text(body.taskId);
  if (taskId === undefined) return refuse(MJ_CODE.VALIDATION_ERROR, 'taskId cannot be empty');
  const action = body.action;
  if (action !== 'UPSCALE' && action !== 'VARIATION' && action !== 'REROLL') {
    return refuse(MJ_CODE.VALIDATION_ERROR, 'action parameter error');
  }
  const index = body.index;
  const indexed = action !== 'REROLL';
  if (indexed && !(typeof index === 'number' && Number.isInteger(index) && index >= 1 && index <= 4)) {
    return refuse(MJ_CODE.VALIDATION_ERROR, 'index parameter error');
  }
  const parent = target(book, taskId);
  if (isRefusal(parent)) return parent;
  if (!CHANGEABLE.has(parent.action)) {
    return refuse(MJ_CODE.VALIDATION_ERROR, 'The associated task does not allow changes');
  }
  const label = indexed ? `${action.charAt(0)}${String(index)}` : 'R';
  return { action, detail: childDetail(body, parent, `/up ${taskId} ${label}`, null) };
}

function childDetail(
  body: Record<string, unknown>,
  parent: TaskRecord<MidjourneyDetail>,
  description: string,
  customId: string | null,
): MidjourneyDetail {
  const detail = newDetail(body, parent.detail.prompt, description);
  detail.botType = parent.detail.botType;
  detail.customId = customId;
  detail.parentId = parent.id;
  return detail;
}

/** "<taskId> U1" | "<taskId> V3" | "<taskId> R", as /mj/submit/simple-change takes it. */
function checkSimpleChange(book: MidjourneyBook, body: Record<string, unknown>): Checked {
  const match = /^(\S+) (?:([uUvV])([1-4])|([rR]))$/.exec(
    typeof body.content === 'string' ? body.content : '',
  );
  if (!match) return refuse(MJ_CODE.VALIDATION_ERROR, 'content parameter error');
  const [, taskId, kind, index] = match;
  const action = kind === undefined ? 'REROLL' : kind.toUpperCase() === 'U' ? 'UPSCALE' : 'VARIATION';
  return checkChange(book, {
    ...body,
    taskId,
    action,
    index: index === undefined ? undefined : Number(index),
  });
}

function checkDescribe(body: Record<string, unknown>): Checked {
  if (text(body.base64) === undefined) return refuse(MJ_CODE.VALIDATION_ERROR, 'base64 cannot be empty');
  if (!isDataUrl(body.base64)) return refuse(MJ_CODE.VALIDATION_ERROR, 'base64 format error');
  return { action: 'DESCRIBE', detail: newDetail(body, null, '/describe image.png') };
}

const DIMENSIONS = new Set(['PORTRAIT', 'SQUARE', 'LANDSCAPE']);

function checkBlend(body: Record<string, unknown>): Checked {
  const images = body.base64Array;
  if (!Array.isArray(images) || images.length < 2 || images.length > 5) {
    return refuse(MJ_CODE.VALIDATION_ERROR, 'base64Array must hold 2 to 5 images');
  }
  if (!images.every(isDataUrl)) return refuse(MJ_CODE.VALIDATION_ERROR, 'base64 format error');
  const dimensions = body.dimensions ?? 'SQUARE';
  if (typeof dimensions !== 'string' || !DIMENSIONS.has(dimensions)) {
    return refuse(MJ_CODE.VALIDATION_ERROR, 'dimensions parameter error');
  }
  return { action: 'BLEND', detail: newDetail(body, null, `/blend ${images.length} ${dimensions}`) };
}

/** The action a button's customId stands for (as the "Plus" proxies and new-api read it). */
function buttonAction(customId: string): { action: string; modal: boolean } | undefined {
  const parts = customId.split('::');
  if (parts[0] !== 'MJ' || parts.length < 2) return undefined;
  const name = parts[1]?.toUpperCase() === 'JOB' ? (parts[2] ?? '') : (parts[1] ?? '');
  if (name.startsWith('upsample')) return { action: 'UPSCALE', modal: false };
  if (name === 'variation') return { action: 'VARIATION', modal: false };
  if (name === 'low_variation') return { action: 'LOW_VARIATION', modal: false };
  if (name === 'high_variation') return { action: 'HIGH_VARIATION', modal: false };
  if (name.startsWith('pan_')) return { action: 'PAN', modal: false };
  if (name === 'reroll') return { action: 'REROLL', modal: false };
  if (name === 'Outpaint') return { action: 'ZOOM', modal: false };
  if (name === 'CustomZoom') return { action: 'CUSTOM_ZOOM', modal: true };
  if (name === 'Inpaint') return { action: 'INPAINT', modal: true };
  if (name === 'PicReader') return { action: 'IMAGINE', modal: false };
  if (name === 'Picread') return { action: 'DESCRIBE', modal: false };
  return undefined;
}

function checkAction(book: MidjourneyBook, body: Record<string, unknown>): Checked {
  const taskId = text(body.taskId);
  const customId = text(body.customId);
  if (taskId === undefined || customId === undefined) {
    return refuse(MJ_CODE.VALIDATION_ERROR, 'taskId and customId are required');
  }
  const parent = target(book, taskId);
  if (isRefusal(parent)) return parent;
  const button = buttonAction(customId);
  if (!button) return refuse(MJ_CODE.VALIDATION_ERROR, `Unsupported customId: ${customId}`);
  const detail = childDetail(body, parent, `/action ${taskId} ${customId}`, customId);
  // A described image's "imagine this" button draws the prompt it names.
  if (parent.action === 'DESCRIBE' && button.action === 'IMAGINE') {
    const line = Number(customId.split('::')[3] ?? 1);
    detail.prompt = midjourneyResults(parent).describedPrompts[line - 1] ?? null;
  }
  return { action: button.action, detail, modal: button.modal };
}

function checkModal(book: MidjourneyBook, body: Record<string, unknown>): Checked {
  const taskId = text(body.taskId);
  if (taskId === undefined) return refuse(MJ_CODE.VALIDATION_ERROR, 'taskId cannot be empty');
  const task = book.get(taskId);
  if (!task) return refuse(MJ_CODE.NOT_FOUND, 'The associated task does not exist or has expired');
  if (task.status !== 'MODAL') return refuse(MJ_CODE.VALIDATION_ERROR, 'The associated task status is wrong');
  if (body.maskBase64 !== undefined && body.maskBase64 !== null && !isDataUrl(body.maskBase64)) {
    return refuse(MJ_CODE.VALIDATION_ERROR, 'base64 format error');
  }
  const prompt = text(body.prompt);
  const detail = prompt === undefined ? task.detail : { ...task.detail, prompt: cleanText(prompt).trim() };
  return { action: task.action, detail, confirms: task };
}

function checkShorten(body: Record<string, unknown>): Checked {
  const prompt = text(body.prompt);
  if (prompt === undefined) return refuse(MJ_CODE.VALIDATION_ERROR, 'prompt cannot be empty');
  const clean = cleanText(prompt).trim();
  return { action: 'SHORTEN', detail: newDetail(body, clean, `/shorten ${clean}`) };
}

function checkSwap(body: Record<string, unknown>): Checked {
  const source = text(body.sourceBase64);
  const target = text(body.targetBase64);
  if (source === undefined) {
    return refuse(MJ_CODE.VALIDATION_ERROR, 'sourceBase64 (the face) cannot be empty');
  }
  if (target === undefined) return refuse(MJ_CODE.VALIDATION_ERROR, 'targetBase64 cannot be empty');
  if (!isDataUrl(source) || !isDataUrl(target)) {
    return refuse(MJ_CODE.VALIDATION_ERROR, 'base64 format error');
  }
  if (source === target) return refuse(MJ_CODE.VALIDATION_ERROR, 'The face and the target image must differ');
  const detail = newDetail(body, null, '/swap');
  detail.botType = 'INSIGHT_FACE';
  return { action: 'SWAP_FACE', detail };
}

/** The refusal a `submit_code` directive asks for, unless it is an accepting code. */
export function scriptedRefusal(ex: Exchange, draft: Draft): Refusal | undefined {
  const code = ex.directive.submit_code;
  if (
    code === undefined ||
    code === MJ_CODE.SUCCESS ||
    code === MJ_CODE.EXISTED ||
    code === MJ_CODE.IN_QUEUE
  ) {
    return undefined;
  }
  const description = ex.directive.error?.message ?? REFUSALS[code] ?? 'Submit failed';
  const prompt = draft.detail.prompt ?? '';
  const properties =
    code === MJ_CODE.BANNED_PROMPT ? { promptEn: prompt, bannedWord: prompt.split(/\s+/)[0] ?? '' } : {};
  return { code, description, properties };
}

export type Check = (book: MidjourneyBook, body: Record<string, unknown>) => Checked;

export const SUBMITS: Record<string, Check> = {
  'submit/imagine': (_book, body) => checkImagine(body),
  'submit/change': checkChange,
  'submit/simple-change': checkSimpleChange,
  'submit/describe': (_book, body) => checkDescribe(body),
  'submit/blend': (_book, body) => checkBlend(body),
  'submit/action': checkAction,
  'submit/modal': checkModal,
  'submit/shorten': (_book, body) => checkShorten(body),
  'insight-face/swap': (_book, body) => checkSwap(body),
};
