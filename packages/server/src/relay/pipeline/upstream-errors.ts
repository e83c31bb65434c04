// How the relay reads an upstream failure: what the client sees (status after the channel's
// status-code mapping), whether another channel may be tried, and what it says about the channel.
import type { IrError, RelayError } from '../ir/errors.js';
import type { UpstreamErrorInfo } from '../providers/types.js';
import type { AttemptOutcome } from './circuit-breaker.js';
import type { UpstreamFailure } from './upstream-client.js';

export interface AttemptError {
  error: IrError;
  /** Another channel may succeed where this one failed. */
  retry: boolean;
  outcome: AttemptOutcome;
  /** The upstream's Retry-After, kept when the client is told 429 or 503. */
  retryAfter?: string;
}

/** Errors that mean the channel's key or account is unusable until an operator acts. */
const DEFINITIVE_CODES = new Set([
  'invalid_api_key',
  'insufficient_quota',
  'account_deactivated',
  'billing_not_active',
  'access_terminated',
  // Google answers an invalid key with 400 INVALID_ARGUMENT; only the ErrorInfo reason tells.
  'API_KEY_INVALID',
]);

/** Client-side mistakes: every channel would refuse them the same way. */
const NOT_RETRIED = new Set([400, 413, 422]);

/** Things an upstream message may carry that a caller must not see: URLs, IP addresses, host names, keys. */
const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>)]+/gi;
const IPV4_PATTERN = /\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b/g;
const IPV6_PATTERN = /\[?\b(?:[0-9a-f]{1,4}:){2,7}[0-9a-f]{0,4}\]?(?::\d+)?|\[?::1\]?(?::\d+)?/gi;
const HOST_PATTERN = /\b(?:[a-z0-9-]+\.)+[a-z]{2,}(?::\d+)?\b/gi;
const LOOKUP_PATTERN = /\b(ENOTFOUND|EAI_AGAIN)\s+\S+/g;
const KEY_PATTERN = /\b(?:sk|key|ak)-[A-Za-z0-9_*.-]{8,}/g;

/**
 * An upstream or connection message as the caller may see it: the channel's key (and each of its
 * lines, for multi-key channels) and every URL, host and address replaced.
 */
export function redactUpstreamMessage(message: string, channelKey = ''): string {
  let text = message;
  for (const secret of channelKey.split(/[\n,|]/)) {
    const trimmed = secret.trim();
    if (trimmed.length >= 6) text = text.split(trimmed).join('[redacted]');
  }
  return text
    .replace(URL_PATTERN, '[url]')
    .replace(LOOKUP_PATTERN, '$1 [host]')
    .replace(IPV4_PATTERN, '[address]')
    .replace(IPV6_PATTERN, '[address]')
    .replace(HOST_PATTERN, '[host]')
    .replace(KEY_PATTERN, '[redacted]');
}

export function mapStatus(status: number, mapping: ReadonlyMap<number, number>): number {
  return mapping.get(status) ?? status;
}

export function judgeHttpError(
  status: number,
  info: UpstreamErrorInfo,
  mapping: ReadonlyMap<number, number>,
  channelKey = '',
  retryAfter?: string,
): AttemptError {
  const shown = mapStatus(status, mapping);
  const message = redactUpstreamMessage(info.message, channelKey);
  const definitive =
    status === 401 ||
    status === 403 ||
    (info.code !== null && DEFINITIVE_CODES.has(info.code)) ||
    DEFINITIVE_CODES.has(info.type);
  const reason = `upstream answered ${status}: ${message}`;
  if (definitive) {
    // The channel's credentials or account failed, not the caller's: never answer with the caller's
    // 401/403; another channel may serve, and if none is left the service is unavailable.
    return {
      error: {
        status: 503,
        message: `the upstream service is unavailable (${message})`,
        type: 'server_error',
        code: 'upstream_unavailable',
      },
      retry: true,
      outcome: { ok: false, definitive: true, reason, upstreamMessage: info.message },
    };
  }
  const channelFault = status >= 500 || status === 408;
  // The breaker still reads what the upstream said: a message naming one of the
  // AutomaticDisableKeywords disables the channel whatever the status.
  const said = { reason, upstreamMessage: info.message };
  return {
    error: { status: shown, message, type: info.type, code: info.code },
    retry: !NOT_RETRIED.has(shown),
    outcome: channelFault ? { ok: false, definitive: false, ...said } : { ok: null, ...said },
    retryAfter: shown === 429 || shown === 503 ? retryAfter : undefined,
  };
}

export function judgeFailure(failure: UpstreamFailure): AttemptError {
  const status = failure.kind === 'timeout' ? 504 : 502;
  return {
    error: { status, message: failure.message, type: 'upstream_error', code: `upstream_${failure.kind}` },
    retry: failure.kind !== 'aborted',
    outcome:
      failure.kind === 'aborted' ? { ok: null } : { ok: false, definitive: false, reason: failure.message },
  };
}

/** The upstream said 200 but what followed was not a valid answer. */
export function judgeBadAnswer(problem: string, channelKey = ''): AttemptError {
  const message = redactUpstreamMessage(problem, channelKey);
  return {
    error: { status: 502, message, type: 'upstream_error', code: 'bad_upstream_response' },
    retry: true,
    outcome: { ok: false, definitive: false, reason: message },
  };
}

/**
 * A call that could not be built for this channel (the adapter or the conversion refused it). A 4xx is
 * the request's, for this channel's dialect: the channel is not at fault, and one of another dialect
 * may still serve it (so it is retried, and answered when none is left). A 5xx is the channel's
 * configuration (an Azure channel without its endpoint): disabled with the reason, like a rejected key.
 */
export function judgeUnbuildable(error: RelayError): AttemptError {
  return {
    error: error.toIr(),
    retry: true,
    outcome: error.status >= 500 ? { ok: false, definitive: true, reason: error.message } : { ok: null },
  };
}
