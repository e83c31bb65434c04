// Errors in Anthropic's shape: the body {"type":"error","error":{type,message}} for clients, its
// stream event, and reading one back from an Anthropic upstream.
import type { IrError } from '../../ir/errors.js';
import { anthropicSse, isRecord } from './shared.js';

/** Anthropic's error type for an HTTP status (its documented errors; any other 4xx/5xx falls back). */
export function anthropicErrorType(status: number): string {
  switch (status) {
    case 400:
      return 'invalid_request_error';
    case 401:
      return 'authentication_error';
    case 402:
      return 'billing_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 504:
      return 'timeout_error';
    case 529:
      return 'overloaded_error';
    default:
      return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}

export const anthropicErrorBody = (error: IrError) => ({
  type: 'error',
  error: { type: anthropicErrorType(error.status), message: error.message },
});

/** An error told inside a started Messages stream. */
export const anthropicStreamError = (error: IrError): string =>
  anthropicSse('error', anthropicErrorBody(error));

/** The type and message of an Anthropic error body (HTTP answer or stream event), if it is one. */
export function readAnthropicError(body: unknown): { type: string; message: string } | undefined {
  if (!isRecord(body) || !isRecord(body.error)) return undefined;
  const type = typeof body.error.type === 'string' ? body.error.type : 'api_error';
  const message = typeof body.error.message === 'string' ? body.error.message : type;
  return { type, message };
}
