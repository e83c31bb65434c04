// The Suno API server behind a channel of type 36: submitting a song or lyrics, fetching tasks in
// batches, and the channel test (a fetch of nothing, which costs nothing but needs the key). The key
// travels as `Authorization: Bearer`; nothing the upstream says reaches a client or a log unredacted.
import type { ProbeResult } from '../../channel-probe.js';
import { RelayError } from '../../ir/errors.js';
import type { RelayChannel } from '../../pipeline/channel-index.js';
import type { RelayRuntime } from '../../pipeline/relay-runtime.js';
import { cancellationOf, toUpstreamFailure } from '../../pipeline/upstream-client.js';
import { mapStatus, redactUpstreamMessage } from '../../pipeline/upstream-errors.js';
import { isRecord } from '../../wire/json.js';
import type { SunoAction } from './task-view.js';

/** A submit may take long: some servers answer a lyrics submit only once the lyrics are written. */
const SUBMIT_DEADLINE_MS = 600_000;
const FETCH_TIMEOUT_MS = 30_000;
const PROBE_TIMEOUT_MS = 30_000;
const SUBMIT_ANSWER_LIMIT = 1024 * 1024;
const FETCH_ANSWER_LIMIT = 32 * 1024 * 1024;

interface SunoAnswer {
  status: number;
  /** The parsed body; undefined when it is not JSON. */
  json: unknown;
}

const joinUrl = (base: string, path: string): string => `${base.trim().replace(/\/+$/, '')}${path}`;

/** A channel without a base URL cannot be reached: Suno API servers have no well-known address. */
function baseUrlOf(channel: RelayChannel): string {
  if (channel.baseUrl.trim() === '') {
    throw new RelayError(
      503,
      `channel ${channel.id} has no base URL (the address of its Suno API server); an administrator must set it`,
      'channel_misconfigured',
    );
  }
  return channel.baseUrl;
}

async function postSuno(
  rt: RelayRuntime,
  channel: RelayChannel,
  path: string,
  payload: unknown,
  limits: { deadlineMs: number; answerBytes: number },
): Promise<SunoAnswer> {
  const signal = AbortSignal.timeout(limits.deadlineMs);
  const cancel = cancellationOf(signal);
  try {
    const res = await rt.upstream.send(
      {
        url: joinUrl(baseUrlOf(channel), path),
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          authorization: `Bearer ${channel.key.trim()}`,
        },
        body: JSON.stringify(payload),
      },
      cancel,
      { headersMs: limits.deadlineMs, bodyMs: limits.deadlineMs },
    );
    const raw = await res.body.readAll(limits.answerBytes);
    let json: unknown;
    try {
      json = raw.length > 0 ? (JSON.parse(raw.toString('utf8')) as unknown) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, json };
  } catch (error) {
    if (error instanceof RelayError) throw error;
    const failure = toUpstreamFailure(error, cancel);
    const timedOut = failure.kind === 'timeout' || signal.aborted;
    throw new RelayError(
      timedOut ? 504 : 502,
      timedOut ? `the Suno API server did not answer within ${limits.deadlineMs / 1000}s` : failure.message,
      timedOut ? 'upstream_timeout' : 'upstream_connection',
      'upstream_error',
    );
  }
}

/** What an answer that is not a success says: its code and message, redacted. */
function refusalOf(answer: SunoAnswer, channelKey: string): { code: string; message: string } {
  const body = isRecord(answer.json) ? answer.json : {};
  const code = typeof body.code === 'string' && body.code !== '' && body.code !== 'success' ? body.code : '';
  const error = isRecord(body.error) ? body.error.message : body.error;
  const said = [body.message, body.msg, error, body.detail].find(
    (m): m is string => typeof m === 'string' && m.trim() !== '',
  );
  return {
    code: code || 'upstream_error',
    message: redactUpstreamMessage(said ?? `the Suno API server answered HTTP ${answer.status}`, channelKey),
  };
}

const isSuccess = (answer: SunoAnswer): boolean =>
  answer.status >= 200 && answer.status < 300 && isRecord(answer.json) && answer.json.code === 'success';

export type SubmitOutcome =
  | { kind: 'accepted'; upstreamTaskId: string }
  /** Refused: the status, code and message the client gets (Suno's shape). */
  | { kind: 'refused'; status: number; code: string; message: string };

/**
 * `POST {base}/suno/submit/{music|lyrics}`. Accepted only on `code: "success"` with the task id as
 * `data`; anything else is a refusal in the upstream's words. The upstream's 401/403 is about the
 * channel's key, never the caller's: the client is told the service is unavailable.
 */
export async function submitToSuno(
  rt: RelayRuntime,
  channel: RelayChannel,
  action: SunoAction,
  body: Record<string, unknown>,
): Promise<SubmitOutcome> {
  const answer = await postSuno(rt, channel, `/suno/submit/${action.toLowerCase()}`, body, {
    deadlineMs: SUBMIT_DEADLINE_MS,
    answerBytes: SUBMIT_ANSWER_LIMIT,
  });
  if (isSuccess(answer)) {
    const data = (answer.json as Record<string, unknown>).data;
    if (typeof data === 'string' && data.trim() !== '')
      return { kind: 'accepted', upstreamTaskId: data.trim() };
    return {
      kind: 'refused',
      status: 502,
      code: 'bad_upstream_response',
      message: 'the Suno API server accepted the task but did not say its id',
    };
  }
  const refusal = refusalOf(answer, channel.key);
  if (answer.status < 400) {
    // A refusal in a 2xx answer (or a body that is no answer at all): the upstream would not take it.
    return {
      kind: 'refused',
      status: 502,
      ...(answer.json === undefined
        ? { code: 'bad_upstream_response', message: 'the Suno API server did not answer with JSON' }
        : refusal),
    };
  }
  const shown = mapStatus(answer.status, channel.statusCodeMapping);
  if (shown === 401 || shown === 403) {
    return {
      kind: 'refused',
      status: 503,
      code: 'upstream_unavailable',
      message: `the upstream service is unavailable (the Suno API server refused this channel's key: ${refusal.message})`,
    };
  }
  return { kind: 'refused', status: shown, ...refusal };
}

/** Why a batched fetch brought nothing: the poll logs it and tries again next round. */
export class SunoFetchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SunoFetchError';
  }
}

/** `POST {base}/suno/fetch` with `{ids, action}`: the upstream's tasks (objects) among those ids. */
export async function fetchFromSuno(
  rt: RelayRuntime,
  channel: RelayChannel,
  ids: readonly string[],
  action: string,
): Promise<Record<string, unknown>[]> {
  let answer: SunoAnswer;
  try {
    answer = await postSuno(
      rt,
      channel,
      '/suno/fetch',
      { ids, action },
      {
        deadlineMs: FETCH_TIMEOUT_MS,
        answerBytes: FETCH_ANSWER_LIMIT,
      },
    );
  } catch (error) {
    throw new SunoFetchError((error as Error).message);
  }
  if (!isSuccess(answer)) {
    const { code, message } = refusalOf(answer, channel.key);
    throw new SunoFetchError(`the Suno API server answered HTTP ${answer.status} (${code}): ${message}`);
  }
  const data = (answer.json as Record<string, unknown>).data;
  if (data === null || data === undefined) return [];
  if (!Array.isArray(data))
    throw new SunoFetchError('the Suno API server answered a fetch without a task list');
  return data.filter(isRecord);
}

/**
 * The channel test: `POST {base}/suno/fetch` for no ids, free on every Suno API server, yet refused
 * without the right key. Success means the server took the key.
 */
export async function probeSunoChannel(rt: RelayRuntime, channel: RelayChannel): Promise<ProbeResult> {
  const started = Date.now();
  try {
    const answer = await postSuno(
      rt,
      channel,
      '/suno/fetch',
      { ids: [] },
      {
        deadlineMs: PROBE_TIMEOUT_MS,
        answerBytes: SUBMIT_ANSWER_LIMIT,
      },
    );
    const timeMs = Date.now() - started;
    if (isSuccess(answer)) return { ok: true, timeMs, message: '' };
    const { message } = refusalOf(answer, channel.key);
    if (answer.status === 401 || answer.status === 403) {
      return {
        ok: false,
        timeMs,
        message: `the Suno API server refused the channel's key (HTTP ${answer.status}): ${message}`,
      };
    }
    return {
      ok: false,
      timeMs,
      message:
        answer.json === undefined
          ? `the Suno API server answered HTTP ${answer.status} without JSON; is the base URL a Suno API server?`
          : `the Suno API server answered HTTP ${answer.status}: ${message}`,
    };
  } catch (error) {
    const message = error instanceof RelayError ? error.message : 'the channel test failed';
    return { ok: false, timeMs: Date.now() - started, message: redactUpstreamMessage(message, channel.key) };
  }
}
