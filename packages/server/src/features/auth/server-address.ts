// The address users reach the console at, for links in mails, OAuth redirect URIs and payment callbacks.
import { MSG } from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import { badRequest } from '../../http/envelope.js';

/**
 * The ServerAddress option, never the request's Host or X-Forwarded-Host: a link built from a header
 * the caller chose would send a reset token to the caller's site. Refuses while it is not set.
 */
export function serverAddress(ctx: AppContext): string {
  const configured = ctx.options.get('ServerAddress').trim().replace(/\/+$/, '');
  if (configured === '') throw badRequest(MSG.serverAddressNotConfigured);
  return configured;
}
