// The OAuth 2.0 service-account flow (RFC 7523 JWT bearer grant) that turns a Vertex key into an
// access token: an RS256 JWT signed with the key's private key, posted to the key's own token_uri.
// jose loads on first use: a gateway without Vertex channels never pays for it in memory.
import type { CryptoKey, KeyObject } from 'jose';
import { z } from 'zod';
import type { UpstreamRequest } from '../../ir/request.js';
import type { ChannelTarget, CredentialExchange, IssuedCredential, UpstreamErrorInfo } from '../types.js';
import { parseServiceAccount } from './service-account.js';
import type { ServiceAccount } from './service-account.js';

/** The scope Vertex AI calls need. */
export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** Google takes assertions valid for at most an hour. */
const ASSERTION_LIFETIME_SECONDS = 3600;
const MAX_ERROR_TEXT = 500;

/** The assertion signed with the account's private key, issued at `nowSeconds`. */
export async function serviceAccountAssertion(account: ServiceAccount, nowSeconds: number): Promise<string> {
  const { SignJWT, importPKCS8 } = await import('jose');
  let privateKey: CryptoKey | KeyObject;
  try {
    privateKey = await importPKCS8(account.private_key, 'RS256');
  } catch {
    throw new Error('the private_key of the Vertex service account key is not a PKCS#8 RSA key');
  }
  const header =
    account.private_key_id === undefined
      ? { alg: 'RS256', typ: 'JWT' }
      : { alg: 'RS256', typ: 'JWT', kid: account.private_key_id };
  return new SignJWT({ scope: CLOUD_PLATFORM_SCOPE })
    .setProtectedHeader(header)
    .setIssuer(account.client_email)
    .setAudience(account.token_uri)
    .setIssuedAt(nowSeconds)
    .setExpirationTime(nowSeconds + ASSERTION_LIFETIME_SECONDS)
    .sign(privateKey);
}

async function buildTokenRequest(channel: ChannelTarget, nowSeconds: number): Promise<UpstreamRequest> {
  const account = parseServiceAccount(channel.key);
  const assertion = await serviceAccountAssertion(account, nowSeconds);
  return {
    // The key file's own endpoint: never a fixed Google URL (nor the channel's base URL).
    url: account.token_uri,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion }).toString(),
  };
}

const tokenAnswerSchema = z.looseObject({
  access_token: z.string().min(1),
  expires_in: z.coerce.number().positive(),
});

function parseTokenResponse(body: Buffer): IssuedCredential {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    throw new Error('it is not JSON');
  }
  const checked = tokenAnswerSchema.safeParse(json);
  if (!checked.success) throw new Error('it has no access_token with its expires_in');
  return { value: checked.data.access_token, expiresInSeconds: checked.data.expires_in };
}

const oauthErrorSchema = z.looseObject({ error: z.string(), error_description: z.string().optional() });
const googleErrorSchema = z.looseObject({
  error: z.looseObject({ message: z.string(), status: z.string().optional() }),
});

/**
 * An OAuth error (`{"error":"invalid_grant","error_description":"Invalid JWT Signature."}`), a
 * Google API error, or the text of anything else.
 */
function parseTokenError(status: number, body: Buffer): UpstreamErrorInfo {
  const text = body.toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const oauth = oauthErrorSchema.safeParse(json);
  if (oauth.success) {
    const { error, error_description: description } = oauth.data;
    return { message: description ? `${error}: ${description}` : error, type: error, code: error };
  }
  const google = googleErrorSchema.safeParse(json);
  if (google.success) {
    const { message, status: name } = google.data.error;
    return { message, type: name ?? 'upstream_error', code: name ?? null };
  }
  const trimmed = text.trim().slice(0, MAX_ERROR_TEXT);
  return {
    message: trimmed ? `upstream answered ${status}: ${trimmed}` : `upstream answered ${status}`,
    type: 'upstream_error',
    code: null,
  };
}

export const vertexCredentials: CredentialExchange = {
  buildRequest: buildTokenRequest,
  parseResponse: parseTokenResponse,
  parseError: parseTokenError,
};
