// GitHub OAuth: trade the callback code for an access token, then read the profile.
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import type { ExternalIdentity } from './external-account.js';
import { callProvider, isSuccess, providerFailure } from './provider-http.js';

const PROVIDER = 'GitHub';

const tokenAnswer = z.object({ access_token: z.string().min(1) });
const profileAnswer = z.object({
  id: z.number().int().positive(),
  login: z.string(),
  name: z.string().nullish(),
  email: z.string().nullish(),
});

export async function githubIdentity(
  ctx: AppContext,
  log: FastifyBaseLogger,
  code: string,
): Promise<ExternalIdentity> {
  const tokenRes = await callProvider(
    log,
    PROVIDER,
    `${ctx.endpoints.githubOAuth}/login/oauth/access_token`,
    {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: ctx.options.get('GitHubClientId'),
        client_secret: ctx.options.get('GitHubClientSecret'),
        code,
      }),
    },
  );
  // GitHub answers 200 with {error: …} for a bad code or bad client credentials.
  const token = tokenAnswer.safeParse(tokenRes.json);
  if (!isSuccess(tokenRes.status) || !token.success) {
    throw providerFailure(log, PROVIDER, 'token exchange refused', {
      status: tokenRes.status,
      error: (tokenRes.json as { error?: unknown } | null)?.error,
    });
  }

  const userRes = await callProvider(log, PROVIDER, `${ctx.endpoints.githubApi}/user`, {
    headers: { accept: 'application/vnd.github+json', authorization: `Bearer ${token.data.access_token}` },
  });
  const profile = profileAnswer.safeParse(userRes.json);
  if (!isSuccess(userRes.status) || !profile.success) {
    throw providerFailure(log, PROVIDER, 'profile request failed', { status: userRes.status });
  }
  const p = profile.data;
  return {
    provider: PROVIDER,
    column: 'github_id',
    externalId: String(p.id),
    usernamePrefix: 'github',
    preferredUsername: p.login,
    displayName: p.name || p.login,
    ...(p.email ? { email: p.email } : {}),
  };
}
