// Calls to a midjourney-proxy channel: the channel's base URL (a speed mode as the `/mj-{mode}` path
// prefix the proxies serve), its key as `mj-api-secret`, JSON in and out, through the relay's upstream
// client. Also the channel test: a task query for no ids, which needs the key and costs nothing.
import { channelBaseUrl } from '@sluice/shared';
import type { ProbeResult } from '../../channel-probe.js';
import type { RelayChannel } from '../../pipeline/channel-index.js';
import type { RelayRuntime } from '../../pipeline/relay-runtime.js';
import { UpstreamFailure, cancellationOf, toUpstreamFailure } from '../../pipeline/upstream-client.js';
import { redactUpstreamMessage } from '../../pipeline/upstream-errors.js';
import type { MjMode } from './actions.js';

/** Submits may take a while on a busy proxy; queries should not. */
export const SUBMIT_TIMEOUT_MS = 60_000;
export const QUERY_TIMEOUT_MS = 20_000;
const PROBE_TIMEOUT_MS = 30_000;
/** Answers are JSON (a batch of up to 100 tasks with their buttons); far below this. */
const ANSWER_LIMIT = 16 * 1024 * 1024;

export interface MjCall {
  method: 'GET' | 'POST';
  /** The proxy's path, starting with /mj/. */
  path: string;
  mode?: MjMode | undefined;
  /** Sent as JSON (POST only). */
  body?: unknown;
  timeoutMs: number;
}

export interface MjAnswer {
  status: number;
  body: Buffer;
}

/** The channel has no address to call (a base URL is required: the proxy is self-hosted). */
export class NoBaseUrl extends Error {
  constructor(channelId: number) {
    super(`channel ${channelId} has no base URL`);
    this.name = 'NoBaseUrl';
  }
}

/** The key sent upstream: the key's first line, without a "Bearer " some operators paste with it. */
export function channelSecret(key: string): string {
  const line = key.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.trim().replace(/^Bearer\s+/i, '');
}

/** One call to the channel's proxy; throws UpstreamFailure when no answer came (refused, timed out). */
export async function callMidjourney(
  rt: RelayRuntime,
  channel: RelayChannel,
  call: MjCall,
): Promise<MjAnswer> {
  const base = channelBaseUrl(channel.type, channel.baseUrl);
  if (base === '') throw new NoBaseUrl(channel.id);
  const url = `${base}${call.mode ? `/mj-${call.mode}` : ''}${call.path}`;
  const signal = AbortSignal.timeout(call.timeoutMs);
  const cancel = cancellationOf(signal);
  try {
    const res = await rt.upstream.send(
      {
        url,
        method: call.method,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'mj-api-secret': channelSecret(channel.key),
        },
        body: call.method === 'POST' ? JSON.stringify(call.body ?? {}) : '',
      },
      cancel,
      { headersMs: call.timeoutMs, bodyMs: call.timeoutMs },
    );
    return { status: res.status, body: await res.body.readAll(ANSWER_LIMIT) };
  } catch (error) {
    if (signal.aborted) {
      throw new UpstreamFailure('timeout', `the upstream did not answer within ${call.timeoutMs / 1000}s`);
    }
    throw toUpstreamFailure(error, cancel);
  }
}

/** An answer's JSON, or undefined when it is not JSON. */
export function parseJson(body: Buffer): unknown {
  if (body.length === 0) return undefined;
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** What an upstream's error answer says, briefly, without the channel's key or any address. */
export function upstreamSays(answer: MjAnswer, channelKey: string): string {
  const json = parseJson(answer.body);
  const said =
    typeof json === 'object' && json !== null
      ? ['description', 'message', 'error']
          .map((k) => (json as Record<string, unknown>)[k])
          .find((v) => typeof v === 'string')
      : undefined;
  const text =
    typeof said === 'string' ? said : answer.body.toString('utf8', 0, Math.min(answer.body.length, 200));
  return redactUpstreamMessage(text.trim(), channelKey);
}

/** The tasks of these upstream ids that the proxy knows (`POST /mj/task/list-by-condition`). */
export async function listTasks(
  rt: RelayRuntime,
  channel: RelayChannel,
  ids: readonly string[],
): Promise<unknown[]> {
  const answer = await callMidjourney(rt, channel, {
    method: 'POST',
    path: '/mj/task/list-by-condition',
    body: { ids },
    timeoutMs: QUERY_TIMEOUT_MS,
  });
  if (answer.status !== 200) {
    throw new Error(`the upstream answered ${answer.status}: ${upstreamSays(answer, channel.key)}`);
  }
  const tasks = parseJson(answer.body);
  if (!Array.isArray(tasks)) throw new Error('the upstream answer is not a list of tasks');
  return tasks;
}

/** The channel test: a free query that needs the key; ok when the proxy takes it. */
export async function probeMidjourneyChannel(rt: RelayRuntime, channel: RelayChannel): Promise<ProbeResult> {
  const started = Date.now();
  try {
    const answer = await callMidjourney(rt, channel, {
      method: 'POST',
      path: '/mj/task/list-by-condition',
      body: { ids: [] },
      timeoutMs: PROBE_TIMEOUT_MS,
    });
    const timeMs = Date.now() - started;
    if (answer.status === 401 || answer.status === 403) {
      return {
        ok: false,
        timeMs,
        message: `the upstream refused the channel's key (HTTP ${answer.status}): check the key (mj-api-secret)`,
      };
    }
    if (answer.status !== 200) {
      const said = upstreamSays(answer, channel.key);
      return {
        ok: false,
        timeMs,
        message: `the upstream answered ${answer.status}${said ? `: ${said}` : ''}`,
      };
    }
    if (!Array.isArray(parseJson(answer.body))) {
      return { ok: false, timeMs, message: 'the upstream answer is not a midjourney-proxy task list' };
    }
    return { ok: true, timeMs, message: '' };
  } catch (error) {
    const message = error instanceof NoBaseUrl ? error.message : toUpstreamFailure(error).message;
    return { ok: false, timeMs: Date.now() - started, message: redactUpstreamMessage(message, channel.key) };
  }
}
