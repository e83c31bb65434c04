// One request being answered, what is recorded about it, and the ways of answering that honour its
// directive (truncation, cut connections, malformed bodies, dropped usage, paced streams).
// Streams are written from pre-framed events, so each vendor's framing (OpenAI's `data:` lines and
// [DONE], Anthropic's named events, Gemini's SSE or JSON array) goes through the same fault handling.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { MockDirective } from './directive.js';
import type { VertexAccounts } from './vertex-auth.js';

/** What happened to the connection of a request. */
export type Outcome = 'pending' | 'completed' | 'client-closed' | 'reset' | 'cut';

export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. "/v1/chat/completions". */
  path: string;
  query: Record<string, string>;
  /** Lower-case header names, as node:http gives them. */
  headers: IncomingHttpHeaders;
  /** Parsed JSON; for multipart forms the fields, files as `{ filename, size, type }`; raw text otherwise. */
  body: unknown;
  /** The directive that was applied (server behaviour merged with markers in the body). */
  directive: MockDirective;
  /** HTTP status answered, undefined while none was sent (or when the connection was reset). */
  status: number | undefined;
  outcome: Outcome;
  /** Stream events (`data:` lines other than [DONE]) written so far. */
  events: number;
}

/** Server-wide answers that are not per request: the model lists and the account's billing figures. */
export interface MockSettings {
  models: string[];
  /** Model ids (without "models/") listed by Gemini's GET /v1beta/models. */
  geminiModels: string[];
  /** Model ids listed by Anthropic's GET /v1/models, most recent first. */
  anthropicModels: string[];
  billing: { hardLimitUsd: number; usedUsd: number };
  /** Vertex service accounts and the access tokens issued to them (kept across reset()). */
  vertex: VertexAccounts;
  /** AWS access key id → secret: the keys whose SigV4 signatures the Bedrock routes accept. */
  awsKeys: ReadonlyMap<string, string>;
}

/** Whose wire format a route speaks: it decides the shape of every error the request gets. */
export type Dialect = 'openai' | 'anthropic' | 'gemini' | 'bedrock';

export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  body: unknown;
  directive: MockDirective;
  record: RecordedRequest;
  dialect: Dialect;
  /** Gemini's streamGenerateContent without alt=sse answers a JSON array, its errors included. */
  arrayErrors: boolean;
  /** Base URL of this mock, for links it hands out (image URLs). */
  baseUrl: string;
  /** Sequence number, used in ids so each answer is distinct. */
  seq: number;
  settings: MockSettings;
}

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** Waits, unless the connection closes first; returns whether the answer should go on. */
export function pause(ex: Exchange, ms: number): Promise<boolean> {
  // node:http marks the response destroyed when its connection closes.
  if (ex.res.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onClose = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      ex.res.off('close', onClose);
      resolve(true);
    }, ms);
    ex.res.once('close', onClose);
  });
}

/** Placeholder for the varying part of a {@link jsonTemplate}. */
export const SLOT = '\u0000slot\u0000';

/**
 * JSON text of `envelope` with a hole where a field holds {@link SLOT}: `fill(innerJson)` returns the whole.
 * Streams put one small object per event into a fixed envelope: building and stringifying a whole object
 * per event made the mock, not the relay, the bottleneck of the stream benchmark (the mock is its baseline).
 */
export function jsonTemplate(envelope: Record<string, unknown>): (innerJson: string) => string {
  const [before = '', after = ''] = JSON.stringify(envelope).split(JSON.stringify(SLOT));
  return (inner) => before + inner + after;
}

/** Ends the connection after what was written so far is flushed: the peer sees an incomplete answer. */
function cutConnection(ex: Exchange): void {
  ex.record.outcome = 'cut';
  ex.res.socket?.end();
}

export function resetConnection(ex: Exchange): void {
  ex.record.outcome = 'reset';
  ex.res.socket?.resetAndDestroy();
}

export const requestId = (ex: Exchange): string => `req_mock_${ex.seq}`;

export function baseHeaders(ex: Exchange, contentType: string): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': contentType,
    'x-request-id': requestId(ex),
  };
  if (ex.dialect === 'anthropic') headers['request-id'] = requestId(ex);
  else if (ex.dialect === 'bedrock') headers['x-amzn-requestid'] = requestId(ex);
  if (ex.directive.retry_after !== undefined) headers['retry-after'] = String(ex.directive.retry_after);
  return headers;
}

const CHUNK_BYTES = 64 * 1024;

/**
 * Sends a whole body; `cut_after` sends only that many bytes of it and then ends the connection,
 * `stall_after` sends that many and then nothing more, `chunked` sends it without a length.
 */
export function sendBody(ex: Exchange, status: number, contentType: string, body: Buffer | string): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const headers = baseHeaders(ex, contentType);
  const { chunked, stall_after: stall, cut_after: cut } = ex.directive;
  if (!chunked && stall === undefined) headers['content-length'] = String(bytes.length);
  ex.res.writeHead(status, headers);
  ex.record.status = status;
  if (cut !== undefined && cut < bytes.length) {
    ex.res.write(bytes.subarray(0, cut));
    cutConnection(ex);
    return;
  }
  if (stall !== undefined && stall < bytes.length) {
    // Left pending: the record turns to client-closed when the peer gives up.
    ex.res.write(bytes.subarray(0, stall));
    return;
  }
  if (!chunked) {
    ex.res.end(bytes);
    return;
  }
  for (let at = 0; at < bytes.length; at += CHUNK_BYTES) ex.res.write(bytes.subarray(at, at + CHUNK_BYTES));
  ex.res.end();
}

/** A JSON result, truncated under `malformed`; the caller decides what `no_usage` leaves out. */
export function sendResult(
  ex: Exchange,
  status: number,
  payload: unknown,
  contentType = 'application/json',
): void {
  let text = JSON.stringify(payload);
  if (ex.directive.malformed && status < 400) text = text.slice(0, Math.ceil(text.length / 2));
  sendBody(ex, status, contentType, text);
}

/** An OpenAI-format JSON result: `no_usage` drops its `usage`. */
export function sendJson(ex: Exchange, status: number, payload: Record<string, unknown>): void {
  if (ex.directive.no_usage) delete payload.usage;
  sendResult(ex, status, payload);
}

export interface OpenAiError {
  error: { message: string; type: string; param: string | null; code: string | null };
}

export const openAiError = (message: string, type: string, code: string | null = null): OpenAiError => ({
  error: { message, type, param: null, code },
});

/** An error answer that never truncates or corrupts itself: faults only apply to results. */
export function sendError(
  ex: Exchange,
  status: number,
  message: string,
  type = 'invalid_request_error',
  code: string | null = null,
): void {
  const headers = baseHeaders(ex, 'application/json');
  ex.res.writeHead(status, headers);
  ex.record.status = status;
  ex.res.end(JSON.stringify(openAiError(message, type, code)));
}

/** Raw `error_body` answers with `status` and true, when the directive gives one. */
export function sendRawErrorBody(ex: Exchange, status: number): boolean {
  const raw = ex.directive.error_body;
  if (raw === undefined) return false;
  ex.res.writeHead(status, baseHeaders(ex, 'text/html; charset=utf-8'));
  ex.record.status = status;
  ex.res.end(raw);
  return true;
}

/** Default error body for a status, in OpenAI's format; the directive's `error` fields override it. */
export function sendStatusFault(ex: Exchange, status: number): void {
  if (sendRawErrorBody(ex, status)) return;
  const { error } = ex.directive;
  const defaults: [string, string, string | null] =
    status === 401
      ? ['Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key']
      : status === 429
        ? ['Rate limit reached for requests. Please try again later.', 'requests', 'rate_limit_exceeded']
        : status >= 500
          ? ['The server had an error while processing your request.', 'server_error', null]
          : [`The request failed with status ${status}.`, 'invalid_request_error', null];
  sendError(
    ex,
    status,
    error?.message ?? defaults[0],
    error?.type ?? defaults[1],
    error?.code ?? defaults[2],
  );
}

/** How a vendor frames its stream events. */
export interface StreamFraming {
  contentType: string;
  /** Written after the last event of a stream that completes (OpenAI's `data: [DONE]`); may be empty. */
  end: string;
  /** Under `malformed`, replaces the frame at `brokenAt` (the rest of the stream follows). */
  broken: Frame;
  brokenAt: number;
}

/** One framed event: text (server-sent events, JSON arrays) or bytes (AWS event-stream messages). */
export type Frame = string | Uint8Array;

/** Frames as one piece for one write; text frames stay text. */
const joinFrames = (frames: Frame[], end = ''): Frame =>
  frames.every((f) => typeof f === 'string')
    ? frames.join('') + end
    : Buffer.concat([...frames.map((f) => (typeof f === 'string' ? Buffer.from(f) : f)), Buffer.from(end)]);

/**
 * Writes pre-framed stream events. They go out in one write unless `chunk_delay_ms` paces them or
 * `cut_after` ends the connection after that many events (without the end marker).
 */
export async function writeFrames(ex: Exchange, lines: Frame[], framing: StreamFraming): Promise<void> {
  const { directive, res, record } = ex;
  // The caller hands over a fresh array, so replacing one frame in place is safe.
  if (directive.malformed && framing.brokenAt < lines.length) lines[framing.brokenAt] = framing.broken;
  const headers = baseHeaders(ex, framing.contentType);
  headers['cache-control'] = 'no-cache';
  res.writeHead(200, headers);
  record.status = 200;
  const cut = directive.cut_after;
  const count = cut !== undefined ? Math.min(cut, lines.length) : lines.length;
  const delay = directive.chunk_delay_ms ?? 0;
  if (delay === 0) {
    record.events = count;
    if (cut !== undefined) {
      if (count > 0) res.write(joinFrames(lines.slice(0, count)));
      else res.flushHeaders();
      cutConnection(ex);
    } else {
      res.end(joinFrames(lines, framing.end));
    }
    return;
  }
  res.flushHeaders();
  for (let i = 0; i < count; i++) {
    if (i > 0 && !(await pause(ex, delay))) return;
    res.write(lines[i]);
    record.events = i + 1;
  }
  if (cut !== undefined) {
    cutConnection(ex);
    return;
  }
  if (framing.end !== '' && !(await pause(ex, delay))) return;
  res.end(framing.end);
}

const OPENAI_FRAMING: StreamFraming = {
  contentType: 'text/event-stream; charset=utf-8',
  end: 'data: [DONE]\n\n',
  broken: 'data: {"id":"broken","choices":[{"delta":\n\n',
  brokenAt: 1,
};

/**
 * Streams server-sent events in OpenAI's framing: one `data: <json>` per event (given as JSON text), a blank
 * line after each, then `data: [DONE]`. `usageEvent` is left out under `no_usage`.
 */
export async function sendStream(ex: Exchange, events: string[], usageEvent?: string): Promise<void> {
  const all = usageEvent === undefined || ex.directive.no_usage ? events : [...events, usageEvent];
  await writeFrames(
    ex,
    all.map((event) => `data: ${event}\n\n`),
    OPENAI_FRAMING,
  );
}
