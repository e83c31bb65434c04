// The submit routes' bodies: validated loosely (fields Sluice does not read are passed on), each read
// into what the submit does — its action, the task it acts on, and how its body names that task
// upstream. Bad input is a 400 in the proxy's shape before anything is held or sent.
import { z } from 'zod';
import { RelayError } from '../../ir/errors.js';
import { CHANGE_ACTIONS, actionOfCustomId, parseSimpleChange } from './actions.js';
import type { MjAction } from './actions.js';

/** The submit routes, by their path after /mj/. */
export const SUBMIT_PATHS = [
  'submit/imagine',
  'submit/change',
  'submit/simple-change',
  'submit/describe',
  'submit/blend',
  'submit/action',
  'submit/modal',
  'submit/shorten',
  'submit/upload-discord-images',
  'insight-face/swap',
] as const;
export type SubmitPath = (typeof SUBMIT_PATHS)[number];

export type Body = Record<string, unknown>;

export interface SubmitRequest {
  action: MjAction;
  /** The client's body as sent. */
  body: Body;
  /** The prompt the row keeps (an action on a task keeps that task's, unless it brings its own). */
  prompt?: string;
  /** The task this submit acts on, by Sluice's id. */
  original?: {
    id: string;
    /** /mj/submit/modal confirms a task that waits for it (MODAL), which needs no success first. */
    modal: boolean;
    /** The body with the original named by the upstream's id. */
    bodyFor(upstreamId: string): Body;
  };
}

const text = z.string().trim().min(1);
const image = z.string().min(1);

const imagine = z.looseObject({ prompt: text, base64Array: z.array(image).optional() });
const change = z.looseObject({
  taskId: text,
  action: z.enum(CHANGE_ACTIONS),
  index: z.number().int().min(1).max(4).optional(),
});
const simpleChange = z.looseObject({ content: text });
const describe = z
  .looseObject({ base64: image.optional(), link: text.optional() })
  .refine((b) => b.base64 !== undefined || b.link !== undefined, { message: 'base64 (or link) is required' });
const blend = z.looseObject({
  base64Array: z.array(image).min(2, 'base64Array must hold at least 2 images'),
});
const action = z.looseObject({ taskId: text, customId: text });
const modal = z.looseObject({
  taskId: text,
  prompt: z.string().optional(),
  maskBase64: z.string().optional(),
});
const shorten = z.looseObject({ prompt: text });
const upload = z.looseObject({
  base64Array: z.array(image).min(1, 'base64Array must hold at least 1 image'),
});
const swap = z
  .looseObject({
    sourceBase64: image.optional(),
    sourceUrl: text.optional(),
    targetBase64: image.optional(),
    targetUrl: text.optional(),
  })
  .refine((b) => b.sourceBase64 !== undefined || b.sourceUrl !== undefined, {
    message: 'sourceBase64 (or sourceUrl) is required',
  })
  .refine((b) => b.targetBase64 !== undefined || b.targetUrl !== undefined, {
    message: 'targetBase64 (or targetUrl) is required',
  });

const invalid = (message: string) => new RelayError(400, message, 'invalid_request');

function parse<T extends Body>(schema: z.ZodType<T>, body: unknown): T {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalid('the request body must be a JSON object');
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  throw invalid(`${where}${issue?.message ?? 'invalid request body'}`);
}

/** The original named by `taskId`, sent upstream by the upstream's id. */
const byTaskId = (body: Body, id: string, isModal = false): SubmitRequest['original'] => ({
  id,
  modal: isModal,
  bodyFor: (upstreamId) => ({ ...body, taskId: upstreamId }),
});

/** Reads a submit's body; throws a 400 RelayError for bad input. */
export function readSubmit(path: SubmitPath, raw: unknown): SubmitRequest {
  switch (path) {
    case 'submit/imagine': {
      const body = parse(imagine, raw);
      return { action: 'IMAGINE', body, prompt: body.prompt };
    }
    case 'submit/change': {
      const body = parse(change, raw);
      if (body.action !== 'REROLL' && body.index === undefined)
        throw invalid(`index: ${body.action} needs an index (1 to 4)`);
      return { action: body.action, body, original: byTaskId(body, body.taskId) };
    }
    case 'submit/simple-change': {
      const body = parse(simpleChange, raw);
      const change = parseSimpleChange(body.content);
      if (!change) throw invalid('content: expected "<task id> U1".."U4", "V1".."V4" or "R"');
      return {
        action: change.action,
        body,
        original: {
          id: change.taskId,
          modal: false,
          bodyFor: (upstreamId) => ({ ...body, content: `${upstreamId} ${change.label}` }),
        },
      };
    }
    case 'submit/describe':
      return { action: 'DESCRIBE', body: parse(describe, raw), prompt: '' };
    case 'submit/blend':
      return { action: 'BLEND', body: parse(blend, raw), prompt: '' };
    case 'submit/action': {
      const body = parse(action, raw);
      const derived = actionOfCustomId(body.customId);
      if (!derived) throw invalid(`customId: ${body.customId} is not a button Sluice can price`);
      return { action: derived, body, original: byTaskId(body, body.taskId) };
    }
    case 'submit/modal': {
      const body = parse(modal, raw);
      const prompt = body.prompt?.trim() ? body.prompt : undefined;
      return {
        action: 'MODAL',
        body,
        ...(prompt ? { prompt } : {}),
        original: byTaskId(body, body.taskId, true),
      };
    }
    case 'submit/shorten': {
      const body = parse(shorten, raw);
      return { action: 'SHORTEN', body, prompt: body.prompt };
    }
    case 'submit/upload-discord-images':
      return { action: 'UPLOAD', body: parse(upload, raw), prompt: '' };
    case 'insight-face/swap':
      return { action: 'SWAP_FACE', body: parse(swap, raw), prompt: '' };
  }
}
