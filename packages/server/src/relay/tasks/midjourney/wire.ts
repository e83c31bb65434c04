// midjourney-proxy's wire: its answer codes, its submit answer `{code, description, result,
// properties}`, its task statuses, and Sluice's own refusals written in that shape so clients of the
// proxy read them as they read the proxy's.
import { z } from 'zod';
import { FINAL_TASK_STATUSES } from '../platforms.js';

/** The proxy's ReturnCode values. */
export const MJ_CODE = {
  submitted: 1,
  notFound: 3,
  validationError: 4,
  failure: 9,
  /** The task exists already, or waits for /mj/submit/modal. */
  exists: 21,
  queued: 22,
} as const;

/** Codes of a submit the upstream took on: a task exists that Sluice charges and follows. */
export const ACCEPTED_CODES: ReadonlySet<number> = new Set([
  MJ_CODE.submitted,
  MJ_CODE.exists,
  MJ_CODE.queued,
]);

/** A submit answer as the proxy sends it (other fields are kept and passed on). */
export const submitAnswer = z.looseObject({
  code: z.number(),
  description: z.string().nullish(),
  result: z.unknown().optional(),
  properties: z.unknown().optional(),
});
export type SubmitAnswer = z.infer<typeof submitAnswer>;

/** Statuses a task passes through before it ends. */
const OPEN_STATUSES = new Set(['NOT_START', 'SUBMITTED', 'MODAL', 'IN_PROGRESS']);
const FINAL: ReadonlySet<string> = new Set(FINAL_TASK_STATUSES);
/** Final statuses some proxies add; Sluice knows only SUCCESS and FAILURE as final. */
const OTHER_ENDS = new Set(['CANCEL', 'CANCELLED', 'CANCELED', 'TIMEOUT', 'FAILED', 'ERROR']);

/**
 * A status the upstream reported, as Sluice stores it: its own statuses kept, other ends of a task
 * (CANCEL…) as FAILURE; undefined for a status Sluice cannot read (the row keeps its own).
 */
export function normalStatus(status: unknown): string | undefined {
  if (typeof status !== 'string') return undefined;
  const upper = status.trim().toUpperCase();
  if (OPEN_STATUSES.has(upper) || FINAL.has(upper)) return upper;
  return OTHER_ENDS.has(upper) ? 'FAILURE' : undefined;
}

export const isFinalStatus = (status: string): boolean => FINAL.has(status);

/** The proxy's code for a refusal of this HTTP status. */
const codeForStatus = (status: number): number =>
  status === 404 ? MJ_CODE.notFound : status < 500 ? MJ_CODE.validationError : MJ_CODE.failure;

/** Sluice's own refusal in the proxy's shape; `type` names the reason for programs (Sluice's error code). */
export const mjErrorBody = (status: number, description: string, type: string) => ({
  code: codeForStatus(status),
  description,
  result: null,
  properties: {},
  type,
});

/** An upstream's text as a database can store it (PostgreSQL refuses NUL bytes). */
export const storable = (text: string): string => text.replaceAll('\u0000', '');
