// Error answers in each vendor's shape: OpenAI's `{ error: { message, type, param, code } }`, Anthropic's
// `{ type: "error", error: { type, message }, request_id }` and Google's `{ error: { code, message, status } }`.
// Every error a request gets, faults included, takes the shape of the route it reached.
import {
  baseHeaders,
  requestId,
  sendError,
  sendRawErrorBody,
  sendStatusFault,
  type Exchange,
} from './exchange.js';

/** Anthropic's error type for an HTTP status, as its "HTTP errors" page lists them. */
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
    case 529:
      return 'overloaded_error';
    default:
      return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}

const ANTHROPIC_MESSAGES: Record<number, string> = {
  401: 'invalid x-api-key',
  403: 'Your API key does not have permission to use the specified resource.',
  404: 'Not found',
  413: 'Request exceeds the maximum allowed number of bytes.',
  429: "This request would exceed your organization's rate limit. Please try again later.",
  500: 'Internal server error',
  529: 'Overloaded',
};

export const anthropicError = (ex: Exchange, type: string, message: string) => ({
  type: 'error',
  error: { type, message },
  request_id: requestId(ex),
});

export function sendAnthropicError(ex: Exchange, status: number, message: string, type?: string): void {
  ex.res.writeHead(status, baseHeaders(ex, 'application/json'));
  ex.record.status = status;
  ex.res.end(JSON.stringify(anthropicError(ex, type ?? anthropicErrorType(status), message)));
}

/** Google's canonical status name for an HTTP status (google.rpc.Code's HTTP mapping). */
export function googleStatusName(status: number): string {
  switch (status) {
    case 400:
      return 'INVALID_ARGUMENT';
    case 401:
      return 'UNAUTHENTICATED';
    case 403:
      return 'PERMISSION_DENIED';
    case 404:
      return 'NOT_FOUND';
    case 409:
      return 'ABORTED';
    case 429:
      return 'RESOURCE_EXHAUSTED';
    case 499:
      return 'CANCELLED';
    case 500:
      return 'INTERNAL';
    case 501:
      return 'UNIMPLEMENTED';
    case 503:
      return 'UNAVAILABLE';
    case 504:
      return 'DEADLINE_EXCEEDED';
    default:
      return status >= 500 ? 'UNKNOWN' : 'FAILED_PRECONDITION';
  }
}

const GOOGLE_MESSAGES: Record<number, string> = {
  401: 'Request had invalid authentication credentials.',
  403: 'The caller does not have permission',
  404: 'Requested entity was not found.',
  429: 'Resource has been exhausted (e.g. check quota).',
  500: 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
  503: 'The model is overloaded. Please try again later.',
  504: 'Deadline expired before operation could complete.',
};

/** A `details` entry of a Google error (google.rpc.ErrorInfo, BadRequest, RetryInfo…). */
export type GoogleErrorDetail = { '@type': string } & Record<string, unknown>;

export function sendGoogleError(
  ex: Exchange,
  status: number,
  message: string,
  statusName?: string,
  details?: GoogleErrorDetail[],
): void {
  const error = {
    code: status,
    message,
    status: statusName ?? googleStatusName(status),
    ...(details ? { details } : {}),
  };
  ex.res.writeHead(status, baseHeaders(ex, 'application/json; charset=UTF-8'));
  ex.record.status = status;
  ex.res.end(JSON.stringify(ex.arrayErrors ? [{ error }] : { error }));
}

/**
 * Azure OpenAI's own refusals (its gateway's, before a model sees the call): `{ error: { code, message } }`
 * with the code a string ("401", "404", "BadRequest"). Errors about the body itself are OpenAI's shape.
 */
export function sendAzureError(ex: Exchange, status: number, code: string, message: string): void {
  ex.res.writeHead(status, baseHeaders(ex, 'application/json'));
  ex.record.status = status;
  ex.res.end(JSON.stringify({ error: { code, message } }));
}

/** Bedrock's exception for an HTTP status (InvokeModel's documented errors). */
export function bedrockErrorType(status: number): string {
  switch (status) {
    case 400:
      return 'ValidationException';
    case 403:
      return 'AccessDeniedException';
    case 404:
      return 'ResourceNotFoundException';
    case 408:
      return 'ModelTimeoutException';
    case 424:
      return 'ModelErrorException';
    case 429:
      return 'ThrottlingException';
    case 503:
      return 'ServiceUnavailableException';
    default:
      return status >= 500 ? 'InternalServerException' : 'ValidationException';
  }
}

const BEDROCK_MESSAGES: Record<number, string> = {
  403: "You don't have access to the model with the specified model ID.",
  404: 'The provided model identifier is invalid.',
  408: 'Model has timed out in processing the request. Try your request again.',
  429: 'Too many requests, please wait before trying again.',
  500: 'The system encountered an unexpected error during processing. Try your request again.',
  503: 'Bedrock is unable to process your request.',
};

/**
 * Bedrock's error answer (AWS restJson1): the body `{"message": …}`, the exception's name in the
 * x-amzn-ErrorType header.
 */
export function sendBedrockError(ex: Exchange, status: number, message: string, type?: string): void {
  const headers = baseHeaders(ex, 'application/json');
  headers['x-amzn-errortype'] =
    `${type ?? bedrockErrorType(status)}:http://internal.amazon.com/coral/com.amazon.bedrock/`;
  ex.res.writeHead(status, headers);
  ex.record.status = status;
  ex.res.end(JSON.stringify({ message }));
}

/** A 400 (or other) error for bad client input, in the shape of the request's vendor. */
export function sendVendorError(ex: Exchange, status: number, message: string): void {
  if (ex.dialect === 'anthropic') sendAnthropicError(ex, status, message);
  else if (ex.dialect === 'bedrock') sendBedrockError(ex, status, message);
  else if (ex.dialect === 'gemini') sendGoogleError(ex, status, message);
  else sendError(ex, status, message);
}

/** The `status` directive: the vendor's default error for that status, with the directive's overrides. */
export function sendFault(ex: Exchange, status: number): void {
  if (ex.dialect === 'openai') {
    sendStatusFault(ex, status);
    return;
  }
  if (sendRawErrorBody(ex, status)) return;
  const { error, retry_after: retryAfter } = ex.directive;
  if (ex.dialect === 'bedrock') {
    const message = BEDROCK_MESSAGES[status] ?? `The request failed with status ${status}.`;
    sendBedrockError(ex, status, error?.message ?? message, error?.type);
    return;
  }
  if (ex.dialect === 'anthropic') {
    const message = ANTHROPIC_MESSAGES[status] ?? `The request failed with status ${status}.`;
    sendAnthropicError(ex, status, error?.message ?? message, error?.type);
    return;
  }
  const message = GOOGLE_MESSAGES[status] ?? `The request failed with status ${status}.`;
  // Google tells a client when to retry in the body, as a RetryInfo detail.
  const details: GoogleErrorDetail[] | undefined =
    status === 429 && retryAfter !== undefined
      ? [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${retryAfter}s` }]
      : undefined;
  sendGoogleError(ex, status, error?.message ?? message, error?.type, details);
}
