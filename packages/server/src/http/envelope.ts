// The console API's answer shape {success, message, data} and the error that carries a status.
import type { z } from 'zod';
import { MSG } from '@sluice/shared';

export interface Envelope<T> {
  success: boolean;
  message: string;
  data: T;
}

/** The HTTP status a console-API refusal is sent with: 401 and 429 keep theirs, every other refusal is 200. */
export const envelopeStatus = (status: number): 200 | 401 | 429 =>
  status === 401 || status === 429 ? status : 200;

export const ok = <T>(data: T, message = ''): Envelope<T> => ({ success: true, message, data });

/**
 * Thrown anywhere below a route. On the console API the error handler answers it as a refusal
 * (`envelopeStatus`); on the relay the status is the HTTP status.
 */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 429 | 500 | 501 | 502 | 503,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (message: string): ApiError => new ApiError(400, message);
export const forbidden = (message: string = MSG.forbidden): ApiError => new ApiError(403, message);
export const notFound = (message: string = MSG.notFound): ApiError => new ApiError(404, message);
export const conflict = (message: string): ApiError => new ApiError(409, message);

/**
 * The path of the first string holding a NUL byte, walking objects and arrays. No database stores
 * NUL in text (PostgreSQL refuses it), so such input is refused before it reaches one.
 */
export function findNulByte(value: unknown, path: string[] = [], depth = 0): string[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (typeof value !== 'object' || value === null || depth > 32) return null;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000')) return [...path, key];
    const found = findNulByte(item, [...path, key], depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * Refuses a request whose query, path parameters or body hold a NUL byte, whatever route it is for
 * (a preValidation hook of the console scope, so handlers that read input without parseInput are
 * covered too).
 */
export function refuseNulBytes(req: { query: unknown; params: unknown; body: unknown }): void {
  for (const part of [req.query, req.params, req.body]) {
    const nulAt = findNulByte(part);
    if (nulAt) throw badRequest(MSG.nulByteInInput(nulAt.join('.')));
  }
}

/** Parses untrusted input; the first issue becomes a 400 with a readable sentence. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (!issue) throw badRequest(MSG.invalidInput);
  // Messages written in the schema are whole sentences; zod's own need the field named.
  const field = issue.path.join('.');
  const own = issue.code === 'custom' || !/^(Invalid|Expected|Too)/.test(issue.message);
  throw badRequest(own || field === '' ? issue.message : `${field}: ${issue.message}`);
}
