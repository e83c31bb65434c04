// Short-lived upstream credentials (OAuth access tokens) for adapters whose channel key is exchanged
// before calls: the exchange goes through the relay's upstream client, the credential is kept per key
// until shortly before it expires, and calls made meanwhile share the one exchange in flight.
import type { UpstreamRequest } from '../ir/request.js';
import type { ChannelTarget, CredentialExchange, IssuedCredential } from '../providers/types.js';
import type { Cancellation, UpstreamClient } from './upstream-client.js';
import { redactUpstreamMessage } from './upstream-errors.js';
import type { AttemptError } from './upstream-errors.js';

/** A credential is renewed this long before it expires. */
export const CREDENTIAL_RENEW_MARGIN_MS = 5 * 60_000;
const EXCHANGE_TIMEOUT_MS = 30_000;
const ANSWER_LIMIT = 64 * 1024;
/** Entries kept per runtime (one per channel key); past it the cache starts over. */
const MAX_ENTRIES = 4096;
/** OAuth answers a refused grant or client with these (RFC 6749 §5.2): the key is unusable. */
const REFUSED = new Set([400, 401, 403]);

/** The key could not be exchanged: the token endpoint refused it, or it cannot be used at all. */
export class CredentialFailure extends Error {
  constructor(
    message: string,
    /** The key itself is at fault: the channel stays unusable until an operator acts. */
    readonly definitive: boolean,
  ) {
    super(message);
    this.name = 'CredentialFailure';
  }
}

interface Entry {
  value: string | undefined;
  renewAtMs: number;
  pending: Promise<string> | undefined;
}

/**
 * One cache per upstream client, so per relay runtime (one per app): the credentials live as long as
 * the connection pools they are used with.
 */
const caches = new WeakMap<UpstreamClient, Map<string, Entry>>();

/** The exchange is shared by every call waiting for it, so no caller's disconnect may cancel it. */
const NEVER: Cancellation = { aborted: false, onAbort: () => () => undefined };

async function exchangeKey(
  upstream: UpstreamClient,
  exchange: CredentialExchange,
  channel: ChannelTarget,
  nowMs: number,
): Promise<IssuedCredential> {
  let request: UpstreamRequest;
  try {
    request = await exchange.buildRequest(channel, Math.floor(nowMs / 1000));
  } catch (error) {
    throw new CredentialFailure(`the channel's key cannot be used: ${(error as Error).message}`, true);
  }
  // Fails with an UpstreamFailure (connection, timeout), judged as any other connection failure.
  const res = await upstream.send(request, NEVER, {
    headersMs: EXCHANGE_TIMEOUT_MS,
    bodyMs: EXCHANGE_TIMEOUT_MS,
  });
  const body = await res.body.readAll(ANSWER_LIMIT);
  if (res.status < 200 || res.status >= 300) {
    const info = exchange.parseError(res.status, body);
    throw new CredentialFailure(
      `the token endpoint refused the channel's key (${res.status}): ${info.message}`,
      REFUSED.has(res.status),
    );
  }
  try {
    return exchange.parseResponse(body);
  } catch (error) {
    throw new CredentialFailure(
      `the token endpoint's answer is not valid: ${(error as Error).message}`,
      false,
    );
  }
}

/** Credentials are per vendor and key. */
const cacheKey = (channel: ChannelTarget): string => `${channel.type}\n${channel.key}`;

function cacheOf(upstream: UpstreamClient): Map<string, Entry> {
  let cache = caches.get(upstream);
  if (!cache) {
    cache = new Map();
    caches.set(upstream, cache);
  }
  return cache;
}

/** The channel's current credential: cached, the exchange already in flight, or a new exchange. */
export function channelCredential(
  upstream: UpstreamClient,
  exchange: CredentialExchange,
  channel: ChannelTarget,
  now: () => number = Date.now,
): Promise<string> {
  const cache = cacheOf(upstream);
  const id = cacheKey(channel);
  const entry = cache.get(id);
  if (entry?.pending) return entry.pending;
  if (entry?.value !== undefined && now() < entry.renewAtMs) return Promise.resolve(entry.value);
  if (cache.size >= MAX_ENTRIES) cache.clear();
  const pending = exchangeKey(upstream, exchange, channel, now()).then(
    (issued) => {
      const renewAtMs = now() + issued.expiresInSeconds * 1000 - CREDENTIAL_RENEW_MARGIN_MS;
      cache.set(id, { value: issued.value, renewAtMs, pending: undefined });
      return issued.value;
    },
    (error: unknown) => {
      // Nothing is kept from a failure: the next call tries again.
      if (cache.get(id)?.pending === pending) cache.delete(id);
      throw error;
    },
  );
  cache.set(id, { value: undefined, renewAtMs: 0, pending });
  return pending;
}

/**
 * Drops the channel's cached credential: the upstream refused it (401), so the next call, or the
 * operator's channel test after a fix, exchanges the key again instead of reusing a dead token.
 */
export function forgetCredential(upstream: UpstreamClient, channel: ChannelTarget): void {
  const cache = caches.get(upstream);
  const id = cacheKey(channel);
  if (cache?.get(id)?.pending === undefined) cache?.delete(id);
}

/**
 * The channel as the adapter's buildRequest must get it: with its credential when the adapter
 * exchanges its key (rejects with a CredentialFailure or an UpstreamFailure), else as it is.
 */
export async function withCredential(
  upstream: UpstreamClient,
  exchange: CredentialExchange | undefined,
  channel: ChannelTarget,
): Promise<ChannelTarget> {
  if (!exchange) return channel;
  const credential = await channelCredential(upstream, exchange, channel);
  return {
    type: channel.type,
    key: channel.key,
    baseUrl: channel.baseUrl,
    organization: channel.organization,
    other: channel.other,
    credential,
  };
}

/**
 * What a failed exchange means for the call: the caller is told the service is unavailable (never the
 * token endpoint's 400/401, which are not the caller's fault) and another channel may serve; a key the
 * token endpoint refused is a definitive fault of the channel.
 */
export function judgeCredentialFailure(failure: CredentialFailure, channelKey = ''): AttemptError {
  const message = redactUpstreamMessage(failure.message, channelKey);
  return {
    error: {
      status: 503,
      message: `the upstream service is unavailable (${message})`,
      type: 'server_error',
      code: 'upstream_unavailable',
    },
    retry: true,
    outcome: failure.definitive
      ? { ok: false, definitive: true, reason: message, upstreamMessage: failure.message }
      : { ok: false, definitive: false, reason: message },
  };
}
