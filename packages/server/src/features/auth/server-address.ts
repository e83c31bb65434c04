// The address users reach the console at, for links in mails and OAuth redirect URIs.
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';

/**
 * ServerAddress when the operator set it; otherwise the origin of this request. The fallback trusts
 * the Host (or X-Forwarded-Host) header, so production sites should set ServerAddress.
 */
export function serverAddress(ctx: AppContext, req: FastifyRequest): string {
  const configured = ctx.options.get('ServerAddress').trim().replace(/\/+$/, '');
  return configured !== '' ? configured : `${req.protocol}://${req.host}`;
}
