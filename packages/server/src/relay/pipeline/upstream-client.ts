// Sends upstream calls over undici's keep-alive connection pools (one per origin) and hands back
// Node streams. The only module that opens connections to providers.
import type { Readable } from 'node:stream';
import { Agent } from 'undici';
import type { Dispatcher } from 'undici';
import type { UpstreamRequest } from '../ir/request.js';

export interface RelayTimeouts {
  /** Connect + request sent + response headers received. */
  headersMs: number;
  /** Longest silence between two body chunks. */
  bodyMs: number;
}

/** RELAY_TIMEOUT (seconds, as in one-api/new-api) bounds both waits; unset keeps undici's 300 s. */
export function relayTimeoutsFromEnv(env: NodeJS.ProcessEnv): RelayTimeouts {
  const seconds = Number(env.RELAY_TIMEOUT ?? '');
  const ms = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 300_000;
  return { headersMs: ms, bodyMs: ms };
}

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
}

export type UpstreamFailureKind = 'timeout' | 'connection' | 'aborted';

/** The call did not produce an answer: it timed out, the connection failed, or it was cancelled. */
export class UpstreamFailure extends Error {
  constructor(
    readonly kind: UpstreamFailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'UpstreamFailure';
  }
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

export function toUpstreamFailure(error: unknown, signal?: AbortSignal): UpstreamFailure {
  if (error instanceof UpstreamFailure) return error;
  const e = error as { code?: unknown; name?: unknown; message?: unknown };
  const message = typeof e?.message === 'string' ? e.message : String(error);
  if (signal?.aborted || e?.name === 'AbortError' || e?.code === 'UND_ERR_ABORTED') {
    return new UpstreamFailure('aborted', 'the call was cancelled');
  }
  if (typeof e?.code === 'string' && TIMEOUT_CODES.has(e.code)) {
    return new UpstreamFailure('timeout', `the upstream did not answer in time (${message})`);
  }
  return new UpstreamFailure('connection', `the connection to the upstream failed (${message})`);
}

export interface UpstreamClient {
  send(
    request: UpstreamRequest,
    signal: AbortSignal,
    timeouts?: Partial<RelayTimeouts>,
  ): Promise<UpstreamResponse>;
  close(): Promise<void>;
}

export function createUpstreamClient(timeouts: RelayTimeouts): UpstreamClient {
  const agent = new Agent({
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 600_000,
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.bodyMs,
    connect: { timeout: Math.min(timeouts.headersMs, 30_000) },
  });
  return {
    async send(request, signal, override = {}) {
      const url = new URL(request.url);
      const options: Dispatcher.RequestOptions = {
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: request.method,
        headers: request.headers,
        body: request.body,
        signal,
        headersTimeout: override.headersMs ?? timeouts.headersMs,
        bodyTimeout: override.bodyMs ?? timeouts.bodyMs,
      };
      try {
        const res = await agent.request(options);
        return { status: res.statusCode, headers: res.headers, body: res.body };
      } catch (error) {
        throw toUpstreamFailure(error, signal);
      }
    },
    close: () => agent.close(),
  };
}

/** Reads a whole (non-stream) answer, up to `limit` bytes. */
export async function readBody(
  body: Readable,
  signal: AbortSignal,
  limit = 64 * 1024 * 1024,
): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      const buf = chunk as Buffer;
      size += buf.length;
      if (size > limit) {
        body.destroy();
        throw new UpstreamFailure('connection', `the upstream answer is larger than ${limit} bytes`);
      }
      parts.push(buf);
    }
  } catch (error) {
    throw toUpstreamFailure(error, signal);
  }
  return Buffer.concat(parts, size);
}
