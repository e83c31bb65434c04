// Per-request behaviour of the mock: the directive type, the `[[mock:{…}]]` marker that carries it inside
// any string of a request body, and its validation. Task submits (midjourney-proxy, Suno) also take the
// scripted life of the task they create from it.
//
// Validation is written by hand rather than with zod: this package depends on nothing at run time, and the
// directive is a small flat object.

/** A tool call the mock answers with instead of text. */
export interface MockToolCall {
  name: string;
  /** JSON text of the arguments; `{}` when omitted. */
  arguments?: string;
}

/** What the mock should do for one request. Every field is optional; an empty object is a normal answer. */
export interface MockDirective {
  /** Milliseconds to wait before the first byte of the answer (status line included). */
  delay_ms?: number;
  /** Milliseconds to wait between two stream events. */
  chunk_delay_ms?: number;
  /** Answer with this HTTP status and an error body in the route's vendor format instead of a result. */
  status?: number;
  /**
   * Overrides fields of the error body sent with `status`: OpenAI's message, type and code; Anthropic's
   * message and type; Google's message and status name (given as `type`).
   */
  error?: { message?: string; type?: string; code?: string | null };
  /** Raw body sent with `status` instead of the vendor-format error (e.g. an HTML page from a proxy). */
  error_body?: string;
  /** Seconds, sent as a `Retry-After` header (usually with status 429). */
  retry_after?: number;
  /** Reset the connection (TCP RST) without answering. */
  reset?: boolean;
  /** Streams: destroy the socket after this many events, without `[DONE]`. Other answers: after this many body bytes. */
  cut_after?: number;
  /** Non-stream answers: send the body with chunked transfer encoding (no content-length), in 64 kB pieces. */
  chunked?: boolean;
  /** Non-stream answers: send this many body bytes, then fall silent with the connection left open. */
  stall_after?: number;
  /** Streams: the first content event carries invalid JSON. Other answers: the JSON body is truncated. */
  malformed?: boolean;
  /**
   * Leave `usage` out of the answer and out of the stream (even with stream_options.include_usage);
   * Gemini: leave out `usageMetadata`. Anthropic always reports usage, so it ignores this.
   */
  no_usage?: boolean;
  /** Reply with this text instead of the echo. */
  reply?: string;
  /** Reply with this many generated words (one token and one stream event each) instead of the echo. */
  reply_tokens?: number;
  /** Disregard max_tokens / max_completion_tokens, as a faulty upstream might: the whole reply is sent. */
  ignore_limit?: boolean;
  /**
   * Prompt tokens read from a cache (capped at the prompt): OpenAI's prompt_tokens_details.cached_tokens and
   * Gemini's cachedContentTokenCount (both inside the prompt count); Anthropic's cache_read_input_tokens
   * (taken out of input_tokens).
   */
  cached_tokens?: number;
  /** Anthropic: prompt tokens written to the cache, cache_creation_input_tokens (taken out of input_tokens). */
  cache_write_tokens?: number;
  /**
   * Added to completion_tokens and reported as completion_tokens_details.reasoning_tokens; Anthropic: a
   * thinking block of that many words; Gemini: thought parts of that many words (thoughtsTokenCount).
   */
  reasoning_tokens?: number;
  /** Answer with a function call instead of text (finish_reason "tool_calls"). */
  tool_call?: MockToolCall;
  /** Anthropic streams: an `error` event (overloaded_error) right after the first content delta, then the end. */
  stream_error?: boolean;
  /**
   * Task submits (midjourney-proxy, Suno): how the created task ends — `success` (default), `failure`
   * (FAILURE with `task_fail_reason`) or `stuck` (IN_PROGRESS for ever, for timeout tests).
   */
  task_outcome?: 'success' | 'failure' | 'stuck';
  /** Task submits: reads (fetches, batch fetches naming it) before the task ends; 0 ends it at its submit. Default 2. */
  task_steps?: number;
  /** Task submits: the reason a failing task reports (midjourney `failReason`, Suno `fail_reason`). */
  task_fail_reason?: string;
  /**
   * midjourney-proxy submits: answer this code instead of 1. 21 (exists) and 22 (queued) still create the
   * task; any other code (3, 4, 9, 23, 24 banned prompt…) refuses the submit and creates none. `error.message`
   * replaces the refusal's description. (A Suno refusal is an HTTP error: use `status` and `error`.)
   */
  submit_code?: number;
}

export const MARKER_START = '[[mock:';
const MARKER_END = ']]';

/** The marker to put anywhere in a request string, e.g. at the end of the last user message. */
export function mockMarker(directive: MockDirective): string {
  return `${MARKER_START}${JSON.stringify(directive)}${MARKER_END}`;
}

/** `text` followed by the marker for `directive`. */
export function withMock(text: string, directive: MockDirective): string {
  return `${text} ${mockMarker(directive)}`;
}

export class DirectiveError extends Error {}

type FieldKind = 'count' | 'status' | 'boolean' | 'string' | 'error' | 'tool_call' | 'task_outcome';

const FIELDS: Record<keyof MockDirective, FieldKind> = {
  delay_ms: 'count',
  chunk_delay_ms: 'count',
  status: 'status',
  error: 'error',
  error_body: 'string',
  retry_after: 'count',
  reset: 'boolean',
  cut_after: 'count',
  chunked: 'boolean',
  stall_after: 'count',
  malformed: 'boolean',
  no_usage: 'boolean',
  reply: 'string',
  reply_tokens: 'count',
  ignore_limit: 'boolean',
  cached_tokens: 'count',
  cache_write_tokens: 'count',
  reasoning_tokens: 'count',
  tool_call: 'tool_call',
  stream_error: 'boolean',
  task_outcome: 'task_outcome',
  task_steps: 'count',
  task_fail_reason: 'string',
  submit_code: 'count',
};

const TASK_OUTCOMES: readonly unknown[] = ['success', 'failure', 'stuck'];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isOptionalString = (value: unknown): boolean => value === undefined || typeof value === 'string';

function fieldIsValid(kind: FieldKind, value: unknown): boolean {
  switch (kind) {
    case 'count':
      return typeof value === 'number' && Number.isInteger(value) && value >= 0;
    case 'status':
      return typeof value === 'number' && Number.isInteger(value) && value >= 200 && value <= 599;
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
      return typeof value === 'string';
    case 'error':
      return (
        isRecord(value) &&
        isOptionalString(value.message) &&
        isOptionalString(value.type) &&
        (value.code === null || isOptionalString(value.code))
      );
    case 'tool_call':
      return isRecord(value) && typeof value.name === 'string' && isOptionalString(value.arguments);
    case 'task_outcome':
      return TASK_OUTCOMES.includes(value);
  }
}

/** Checks an untrusted value (parsed from a marker or given by a test) and returns it as a directive. */
export function parseDirective(value: unknown): MockDirective {
  if (!isRecord(value)) throw new DirectiveError('a mock directive must be a JSON object');
  for (const [key, field] of Object.entries(value)) {
    const kind = FIELDS[key as keyof MockDirective] as FieldKind | undefined;
    if (kind === undefined) throw new DirectiveError(`unknown mock directive field "${key}"`);
    if (!fieldIsValid(kind, field)) throw new DirectiveError(`mock directive field "${key}" has a bad value`);
  }
  return value as MockDirective;
}

/**
 * Removes every marker from `text`. Returns the cleaned text and the directives found, in order.
 * The JSON inside a marker may itself contain "]]", so each candidate end is tried until one parses.
 */
export function stripMarkers(text: string): { text: string; directives: MockDirective[] } {
  let start = text.indexOf(MARKER_START);
  if (start < 0) return { text, directives: [] };
  const directives: MockDirective[] = [];
  let cleaned = '';
  let from = 0;
  while (start >= 0) {
    let end = text.indexOf('}' + MARKER_END, start);
    let parsed: unknown = undefined;
    while (end >= 0 && parsed === undefined) {
      try {
        parsed = JSON.parse(text.slice(start + MARKER_START.length, end + 1));
      } catch {
        end = text.indexOf('}' + MARKER_END, end + 1);
      }
    }
    if (end < 0) throw new DirectiveError('a mock directive marker does not hold valid JSON');
    directives.push(parseDirective(parsed));
    cleaned += text.slice(from, start);
    from = end + 1 + MARKER_END.length;
    start = text.indexOf(MARKER_START, from);
  }
  return { text: cleaned + text.slice(from), directives };
}

/** The text a request string stands for once markers are removed. */
export const cleanText = (text: string): string =>
  text.includes(MARKER_START) ? stripMarkers(text).text : text;

/** Every directive found in the strings of a parsed body, merged in document order (later fields win). */
export function directiveFromBody(body: unknown): MockDirective {
  const found: MockDirective[] = [];
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      if (value.includes(MARKER_START)) found.push(...stripMarkers(value).directives);
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item);
    } else if (isRecord(value)) {
      for (const item of Object.values(value)) visit(item);
    }
  };
  visit(body);
  return Object.assign({}, ...found) as MockDirective;
}
