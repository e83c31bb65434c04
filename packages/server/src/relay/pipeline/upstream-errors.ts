// How the relay reads an upstream failure: what the client sees (status after the channel's
// status-code mapping), whether another channel may be tried, and what it says about the channel.
import type { IrError } from '../ir/errors.js';
import type { UpstreamErrorInfo } from '../providers/types.js';
import type { AttemptOutcome } from './circuit-breaker.js';
import type { UpstreamFailure } from './upstream-client.js';

export interface AttemptError {
  error: IrError;
  /** Another channel may succeed where this one failed. */
  retry: boolean;
  outcome: AttemptOutcome;
}

/** Errors that mean the channel's key or account is unusable until an operator acts. */
const DEFINITIVE_CODES = new Set([
  'invalid_api_key',
  'insufficient_quota',
  'account_deactivated',
  'billing_not_active',
  'access_terminated',
]);

/** Client-side mistakes: every channel would refuse them the same way. */
const NOT_RETRIED = new Set([400, 413, 422]);

export function mapStatus(status: number, mapping: ReadonlyMap<number, number>): number {
  return mapping.get(status) ?? status;
}

export function judgeHttpError(
  status: number,
  info: UpstreamErrorInfo,
  mapping: ReadonlyMap<number, number>,
): AttemptError {
  const shown = mapStatus(status, mapping);
  const definitive =
    status === 401 ||
    status === 403 ||
    (info.code !== null && DEFINITIVE_CODES.has(info.code)) ||
    DEFINITIVE_CODES.has(info.type);
  const channelFault = status >= 500 || status === 408;
  const outcome: AttemptOutcome = definitive
    ? { ok: false, definitive: true, reason: `upstream answered ${status}: ${info.message}` }
    : channelFault
      ? { ok: false, definitive: false, reason: `upstream answered ${status}: ${info.message}` }
      : { ok: null };
  return {
    error: { status: shown, message: info.message, type: info.type, code: info.code },
    retry: !NOT_RETRIED.has(shown),
    outcome,
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
export function judgeBadAnswer(message: string): AttemptError {
  return {
    error: { status: 502, message, type: 'upstream_error', code: 'bad_upstream_response' },
    retry: true,
    outcome: { ok: false, definitive: false, reason: message },
  };
}
