// The console API's answer shape {success, message, data} and the error that carries a status.
import type { z } from 'zod';
import { MSG } from '@sluice/shared';

export interface Envelope<T> {
  success: boolean;
  message: string;
  data: T;
}

export const ok = <T>(data: T, message = ''): Envelope<T> => ({ success: true, message, data });

/** Thrown anywhere below a route; the error handler turns it into the envelope with this status. */
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
