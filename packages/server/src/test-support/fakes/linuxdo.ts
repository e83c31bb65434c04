// Fake LinuxDO Connect: the OAuth2 token endpoint (client credentials as HTTP basic auth) and
// GET /api/user, on one local server (use its url as both linuxdoOAuth and linuxdoApi).
import { randomBytes } from 'node:crypto';
import { basicCredentials, startFakeServer } from './http-fake.js';
import type { FakeServer } from './http-fake.js';

export interface LinuxDoProfile {
  id: number;
  username: string;
  name?: string;
  active?: boolean;
  silenced?: boolean;
  trust_level?: number;
}

export interface FakeLinuxDo extends FakeServer {
  authorize(profile: LinuxDoProfile): string;
}

export async function startFakeLinuxDo(app: {
  clientId: string;
  clientSecret: string;
}): Promise<FakeLinuxDo> {
  const codes = new Map<string, LinuxDoProfile>();
  const tokens = new Map<string, LinuxDoProfile>();

  const server = await startFakeServer((req) => {
    if (req.method === 'POST' && req.path === '/oauth2/token') {
      const client = basicCredentials(req.headers.authorization);
      if (client?.user !== app.clientId || client.pass !== app.clientSecret) {
        return { status: 401, json: { error: 'invalid_client' } };
      }
      if (req.fields.grant_type !== 'authorization_code' || !req.fields.redirect_uri) {
        return { status: 400, json: { error: 'invalid_request' } };
      }
      const profile = codes.get(req.fields.code ?? '');
      if (!profile) return { status: 400, json: { error: 'invalid_grant' } };
      codes.delete(req.fields.code ?? '');
      const token = randomBytes(16).toString('hex');
      tokens.set(token, profile);
      return { json: { access_token: token, token_type: 'bearer', expires_in: 3600 } };
    }
    if (req.method === 'GET' && req.path === '/api/user') {
      const token = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
      const profile = tokens.get(token);
      if (!profile) return { status: 401, json: { error: 'invalid_token' } };
      return {
        json: {
          id: profile.id,
          username: profile.username,
          name: profile.name ?? '',
          active: profile.active ?? true,
          silenced: profile.silenced ?? false,
          trust_level: profile.trust_level ?? 1,
        },
      };
    }
    return { status: 404, json: { error: 'not_found' } };
  });

  return {
    ...server,
    authorize(profile) {
      const code = randomBytes(10).toString('hex');
      codes.set(code, profile);
      return code;
    },
  };
}
