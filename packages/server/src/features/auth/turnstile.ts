// Cloudflare Turnstile check for sign-in routes (register, login, verification, reset) when
// TurnstileCheckEnabled is on. The token comes as ?turnstile=… as in the spec.
import type { FastifyRequest } from 'fastify';
import { MSG } from '@sluice/shared';
import { request } from 'undici';
import type { AppContext } from '../../app-context.js';
import { ApiError } from '../../http/envelope.js';

export async function requireTurnstile(ctx: AppContext, req: FastifyRequest): Promise<void> {
  if (!ctx.options.get('TurnstileCheckEnabled')) return;
  const query = req.query as Record<string, unknown>;
  const token = typeof query.turnstile === 'string' ? query.turnstile : '';
  if (token === '') throw new ApiError(400, MSG.turnstileChecking);
  const form = new URLSearchParams({
    secret: ctx.options.get('TurnstileSecretKey'),
    response: token,
    remoteip: req.ip,
  });
  let success = false;
  try {
    const res = await request(`${ctx.endpoints.turnstile}/turnstile/v0/siteverify`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    });
    const body = (await res.body.json()) as { success?: unknown };
    success = body.success === true;
  } catch (error) {
    req.log.warn({ err: error }, 'Turnstile verification request failed');
  }
  if (!success) throw new ApiError(403, MSG.turnstileFailed);
}
