// Fake GitHub: the OAuth token exchange and GET /user, on one local server (use its url as both
// the githubOAuth and githubApi endpoints).
import { randomBytes } from 'node:crypto';
import { startFakeServer } from './http-fake.js';
import type { FakeServer } from './http-fake.js';

export interface GitHubProfile {
  id: number;
  login: string;
  name?: string | null;
  email?: string | null;
}

export interface FakeGitHub extends FakeServer {
  /** What happens when the user approves the app on GitHub: a one-time code for this profile. */
  authorize(profile: GitHubProfile): string;
  /** Makes GET /user answer this HTTP status until reset with null. */
  failProfileWith(status: number | null): void;
}

export async function startFakeGitHub(app: { clientId: string; clientSecret: string }): Promise<FakeGitHub> {
  const codes = new Map<string, GitHubProfile>();
  const tokens = new Map<string, GitHubProfile>();
  let profileFailure: number | null = null;

  const server = await startFakeServer((req) => {
    if (req.method === 'POST' && req.path === '/login/oauth/access_token') {
      if (req.headers.accept !== 'application/json') {
        return { status: 406, json: { error: 'the fake only answers JSON' } };
      }
      if (req.fields.client_id !== app.clientId || req.fields.client_secret !== app.clientSecret) {
        return { json: { error: 'incorrect_client_credentials', error_description: 'bad client' } };
      }
      const profile = codes.get(req.fields.code ?? '');
      if (!profile) return { json: { error: 'bad_verification_code', error_description: 'bad code' } };
      codes.delete(req.fields.code ?? '');
      const token = `gho_${randomBytes(12).toString('hex')}`;
      tokens.set(token, profile);
      return { json: { access_token: token, token_type: 'bearer', scope: 'user:email' } };
    }
    if (req.method === 'GET' && req.path === '/user') {
      if (profileFailure !== null) return { status: profileFailure, json: { message: 'Server Error' } };
      const token = /^(?:Bearer|token)\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
      const profile = tokens.get(token);
      if (!profile) return { status: 401, json: { message: 'Bad credentials' } };
      return {
        json: {
          id: profile.id,
          login: profile.login,
          name: profile.name ?? null,
          email: profile.email ?? null,
        },
      };
    }
    return { status: 404, json: { message: 'Not Found' } };
  });

  return {
    ...server,
    authorize(profile) {
      const code = randomBytes(10).toString('hex');
      codes.set(code, profile);
      return code;
    },
    failProfileWith(status) {
      profileFailure = status;
    },
  };
}
