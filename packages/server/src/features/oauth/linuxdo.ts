// LinuxDO Connect (OAuth2): trade the callback code for an access token with the client credentials
// as HTTP basic auth, then read the forum profile.
import type { FastifyBaseLogger } from 'fastify';
import { MSG } from '@sluice/shared';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { forbidden } from '../../http/envelope.js';
import type { ExternalIdentity } from './external-account.js';
import { callProvider, isSuccess, providerFailure } from './provider-http.js';

const PROVIDER = 'LinuxDO';

const tokenAnswer = z.object({ access_token: z.string().min(1) });
const profileAnswer = z.object({
  id: z.number().int().positive(),
  username: z.string(),
  name: z.string().nullish(),
  active: z.boolean().optional(),
  silenced: z.boolean().optional(),
  trust_level: z.number().optional(),
});

export async function linuxdoIdentity(
  ctx: AppContext,
  log: FastifyBaseLogger,
  code: string,
  redirectUri: string,
): Promise<ExternalIdentity> {
  const client = `${ctx.options.get('LinuxDOClientId')}:${ctx.options.get('LinuxDOClientSecret')}`;
  const tokenRes = await callProvider(log, PROVIDER, `${ctx.endpoints.linuxdoOAuth}/oauth2/token`, {
    method: 'POST',
    headers: {
      accept: 'application/json',
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(client).toString('base64')}`,
    },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
    }).toString(),
  });
  const token = tokenAnswer.safeParse(tokenRes.json);
  if (!isSuccess(tokenRes.status) || !token.success) {
    throw providerFailure(log, PROVIDER, 'token exchange refused', {
      status: tokenRes.status,
      error: (tokenRes.json as { error?: unknown } | null)?.error,
    });
  }

  const userRes = await callProvider(log, PROVIDER, `${ctx.endpoints.linuxdoApi}/api/user`, {
    headers: { accept: 'application/json', authorization: `Bearer ${token.data.access_token}` },
  });
  const profile = profileAnswer.safeParse(userRes.json);
  if (!isSuccess(userRes.status) || !profile.success) {
    throw providerFailure(log, PROVIDER, 'profile request failed', { status: userRes.status });
  }
  const p = profile.data;
  if (p.active === false || p.silenced === true) throw forbidden(MSG.linuxdoAccountInactive);
  return {
    provider: PROVIDER,
    column: 'linux_do_id',
    externalId: String(p.id),
    usernamePrefix: 'linuxdo',
    preferredUsername: p.username,
    displayName: p.name || p.username,
  };
}
