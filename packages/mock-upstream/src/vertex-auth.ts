// Vertex AI's OAuth as the mock plays Google: service accounts the test registers (email, public key,
// project), a token endpoint that checks the signed JWT assertion of the service-account flow as
// Google's does (RS256 signature with the account's public key, iss, aud, scope, iat/exp) and issues
// opaque access tokens, and the bearer check of the Vertex routes against the tokens it issued.
import { createPublicKey, randomBytes, verify, type KeyObject } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { AuthCheck } from './auth.js';
import { sendGoogleError } from './vendor-errors.js';

export interface VertexServiceAccount {
  /** The key file's client_email: the JWT's `iss`. */
  clientEmail: string;
  /** The public half of the account's key (SPKI PEM or X.509 certificate): JWTs must verify with it. */
  publicKeyPem: string;
  /** The project its tokens may call (the Vertex path's project). */
  projectId: string;
  /** The key file's private_key_id; when given, a JWT naming another `kid` fails. */
  privateKeyId?: string;
  /** `expires_in` of the tokens issued to it; default 3599, as Google answers. */
  tokenLifetimeSeconds?: number;
}

export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
/** Google refuses assertions valid for longer than an hour, and tolerates some clock skew. */
const MAX_ASSERTION_SECONDS = 3600;
const CLOCK_SKEW_SECONDS = 300;

const INVALID_TIMEFRAME =
  'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. ' +
  'Check your iat and exp values in the JWT claim.';
const CREDENTIALS_HINT =
  'Expected OAuth 2 access token, login cookie or other valid authentication credential. ' +
  'See https://developers.google.com/identity/sign-in/web/devconsole-project.';

interface Account {
  email: string;
  publicKey: KeyObject;
  projectId: string;
  privateKeyId: string | undefined;
  lifetimeSeconds: number;
}

/** What the token endpoint answers: an access token, or an OAuth error (RFC 6749 §5.2). */
export type TokenGrant =
  | { ok: true; body: { access_token: string; expires_in: number; token_type: 'Bearer' } }
  | { ok: false; status: number; error: string; description: string };

/** Who holds a bearer token, or why it is refused. */
export type TokenHolder =
  { ok: true; email: string; projectId: string } | { ok: false; reason: 'missing' | 'unknown' | 'expired' };

const refuse = (error: string, description: string, status = 400): TokenGrant => ({
  ok: false,
  status,
  error,
  description,
});

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function decodeSegment(segment: string | undefined): Record<string, unknown> | undefined {
  if (segment === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  const value = headers.authorization;
  const first = (Array.isArray(value) ? value[0] : value)?.trim();
  if (first === undefined || !/^bearer /i.test(first)) return undefined;
  const token = first.slice(7).trim();
  return token === '' ? undefined : token;
}

export class VertexAccounts {
  private readonly accounts = new Map<string, Account>();
  private readonly tokens = new Map<string, { account: Account; expiresAtMs: number }>();

  register(account: VertexServiceAccount): void {
    this.accounts.set(account.clientEmail, {
      email: account.clientEmail,
      publicKey: createPublicKey(account.publicKeyPem),
      projectId: account.projectId,
      privateKeyId: account.privateKeyId,
      lifetimeSeconds: account.tokenLifetimeSeconds ?? 3599,
    });
  }

  /** The token endpoint: `form` is the request's form fields, `audience` the endpoint's own URL. */
  grant(form: unknown, audience: string, nowMs = Date.now()): TokenGrant {
    const fields = isRecord(form) ? form : {};
    if (fields.grant_type !== JWT_BEARER_GRANT) {
      return refuse('unsupported_grant_type', `Invalid grant_type: ${String(fields.grant_type ?? '')}`);
    }
    const assertion = typeof fields.assertion === 'string' ? fields.assertion : '';
    const segments = assertion.split('.');
    const header = decodeSegment(segments[0]);
    const claims = decodeSegment(segments[1]);
    if (segments.length !== 3 || !header || !claims) return refuse('invalid_grant', 'Invalid JWT.');
    if (header.alg !== 'RS256') return refuse('invalid_grant', 'Invalid JWT: the algorithm must be RS256.');
    const account = typeof claims.iss === 'string' ? this.accounts.get(claims.iss) : undefined;
    if (!account) return refuse('invalid_grant', 'Invalid grant: account not found');
    const signed = Buffer.from(`${segments[0]}.${segments[1]}`);
    const signature = Buffer.from(segments[2] ?? '', 'base64url');
    const kidMatches =
      account.privateKeyId === undefined || header.kid === undefined || header.kid === account.privateKeyId;
    if (!kidMatches || !verify('RSA-SHA256', signed, account.publicKey, signature)) {
      return refuse('invalid_grant', 'Invalid JWT Signature.');
    }
    if (claims.aud !== audience) {
      return refuse('invalid_grant', `Invalid JWT: Failed audience check. The right audience is ${audience}`);
    }
    const now = Math.floor(nowMs / 1000);
    const { iat, exp } = claims;
    if (
      typeof iat !== 'number' ||
      typeof exp !== 'number' ||
      exp <= iat ||
      exp - iat > MAX_ASSERTION_SECONDS ||
      iat > now + CLOCK_SKEW_SECONDS ||
      exp < now - CLOCK_SKEW_SECONDS
    ) {
      return refuse('invalid_grant', INVALID_TIMEFRAME);
    }
    const scopes = typeof claims.scope === 'string' ? claims.scope.split(' ') : [];
    if (!scopes.includes(CLOUD_PLATFORM_SCOPE)) {
      return refuse('invalid_scope', 'Invalid OAuth scope or ID token audience provided.');
    }
    const token = `ya29.mock-${randomBytes(24).toString('base64url')}`;
    this.tokens.set(token, { account, expiresAtMs: nowMs + account.lifetimeSeconds * 1000 });
    return {
      ok: true,
      body: { access_token: token, expires_in: account.lifetimeSeconds, token_type: 'Bearer' },
    };
  }

  /** Who holds the bearer token of a request. */
  holder(headers: IncomingHttpHeaders, nowMs = Date.now()): TokenHolder {
    const token = bearerToken(headers);
    if (token === undefined) return { ok: false, reason: 'missing' };
    const issued = this.tokens.get(token);
    if (!issued) return { ok: false, reason: 'unknown' };
    if (nowMs >= issued.expiresAtMs) return { ok: false, reason: 'expired' };
    return { ok: true, email: issued.account.email, projectId: issued.account.projectId };
  }
}

/**
 * The Vertex routes' auth: a bearer access token this mock issued and that has not expired, else
 * Google's 401 UNAUTHENTICATED. The key a request carries (for key-scoped behaviours) is the
 * account's client_email.
 */
export function checkVertexToken(headers: IncomingHttpHeaders, accounts: VertexAccounts): AuthCheck {
  const holder = accounts.holder(headers);
  if (holder.ok) return { ok: true, key: holder.email };
  const message =
    holder.reason === 'missing'
      ? `Request is missing required authentication credential. ${CREDENTIALS_HINT}`
      : `Request had invalid authentication credentials. ${CREDENTIALS_HINT}`;
  const reason =
    holder.reason === 'missing'
      ? 'CREDENTIALS_MISSING'
      : holder.reason === 'expired'
        ? 'ACCESS_TOKEN_EXPIRED'
        : 'ACCESS_TOKEN_TYPE_UNSUPPORTED';
  return {
    ok: false,
    refuse: (ex) =>
      sendGoogleError(ex, 401, message, 'UNAUTHENTICATED', [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason,
          domain: 'googleapis.com',
          metadata: {
            service: 'aiplatform.googleapis.com',
            method: 'google.cloud.aiplatform.v1.PredictionService',
          },
        },
      ]),
  };
}
