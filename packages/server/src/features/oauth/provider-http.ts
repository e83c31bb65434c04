// Calls to sign-in providers (GitHub, LinuxDO, the WeChat server). Any transport failure becomes a
// 502 naming the provider; the details go to the log only, since they may carry upstream text.
import type { FastifyBaseLogger } from 'fastify';
import { MSG } from '@sluice/shared';
import { request } from 'undici';
import { ApiError } from '../../http/envelope.js';

export interface ProviderAnswer {
  status: number;
  /** The body parsed as JSON, or null when it was not JSON. */
  json: unknown;
}

export function providerFailure(
  log: FastifyBaseLogger,
  provider: string,
  reason: string,
  detail?: unknown,
): ApiError {
  log.warn({ provider, reason, detail }, 'third-party sign-in provider failed');
  return new ApiError(502, MSG.oauthUpstreamFailed(provider));
}

export async function callProvider(
  log: FastifyBaseLogger,
  provider: string,
  url: string,
  opts: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string } = {},
): Promise<ProviderAnswer> {
  try {
    const res = await request(url, {
      method: opts.method ?? 'GET',
      headers: { 'user-agent': 'Sluice', ...opts.headers },
      body: opts.body,
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    });
    const text = await res.body.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      // Left null: callers treat a non-JSON answer as a failure.
    }
    return { status: res.statusCode, json };
  } catch (error) {
    throw providerFailure(log, provider, 'request failed', error instanceof Error ? error.message : error);
  }
}

export const isSuccess = (status: number): boolean => status >= 200 && status < 300;
