// Who may call a route: each vendor's way of carrying the API key and its refusals, as the vendor answers
// them. Any non-empty key is accepted except one starting with "bad", which plays a revoked key; the task
// servers (midjourney-proxy, Suno API) instead accept only the secrets they were configured with.
import type { IncomingHttpHeaders } from 'node:http';
import { sendError, type Exchange } from './exchange.js';
import { sendMidjourneyUnauthorized } from './routes/midjourney.js';
import { sendSunoUnauthorized } from './routes/suno.js';
import { sendAnthropicError, sendAzureError, sendGoogleError } from './vendor-errors.js';
import type { MockSettings } from './exchange.js';
import { checkVertexToken } from './vertex-auth.js';

/**
 * - bearer: OpenAI's `Authorization: Bearer <key>`;
 * - anthropic: `x-api-key`, or `Authorization: Bearer <key>` (how the official SDKs send the key since
 *   API version 2026-10-21), plus the required `anthropic-version` header with a known version;
 * - google: `x-goog-api-key` header or `?key=` query parameter;
 * - azure: Azure OpenAI's `api-key` header (a bearer token there is Entra ID's, which the mock has not);
 * - azure-v1: Azure's v1 API (/openai/v1/…), which also takes the key as `Authorization: Bearer`, so the
 *   plain OpenAI client works against it;
 * - vertex: `Authorization: Bearer <access token>` that the mock's Vertex token endpoint issued;
 * - none: public (the image files the mock hands out).
 */
export type AuthScheme = 'bearer' | 'anthropic' | 'google' | 'azure' | 'azure-v1' | 'vertex' | 'none';

export type AuthCheck = { ok: true; key: string | undefined } | { ok: false; refuse: (ex: Exchange) => void };

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  const trimmed = first?.trim();
  return trimmed === '' ? undefined : trimmed;
}

function bearerKey(value: string | undefined): string | undefined {
  if (value === undefined || !/^bearer /i.test(value)) return undefined;
  const key = value.slice(7).trim();
  return key === '' ? undefined : key;
}

const refuse = (send: (ex: Exchange) => void): AuthCheck => ({ ok: false, refuse: send });

const GOOGLE_UNREGISTERED =
  "Method doesn't allow unregistered callers (callers without established identity). " +
  'Please use API Key or other form of API consumer identity to call this API.';
const GOOGLE_INVALID_KEY = 'API key not valid. Please pass a valid API key.';

function checkBearer(headers: IncomingHttpHeaders): AuthCheck {
  const key = bearerKey(header(headers, 'authorization'));
  if (key === undefined) {
    return refuse((ex) =>
      sendError(ex, 401, 'No API key provided: send it as "Authorization: Bearer <key>".'),
    );
  }
  if (key.startsWith('bad')) {
    return refuse((ex) =>
      sendError(ex, 401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'),
    );
  }
  return { ok: true, key };
}

/** The versions the Messages API answers to (2023-01-01 is the deprecated initial release). */
const ANTHROPIC_VERSIONS = new Set(['2023-01-01', '2023-06-01', '2026-10-21']);

function checkAnthropic(headers: IncomingHttpHeaders): AuthCheck {
  const key = header(headers, 'x-api-key') ?? bearerKey(header(headers, 'authorization'));
  if (key === undefined) return refuse((ex) => sendAnthropicError(ex, 401, 'x-api-key header is required'));
  if (key.startsWith('bad')) return refuse((ex) => sendAnthropicError(ex, 401, 'invalid x-api-key'));
  const version = header(headers, 'anthropic-version');
  if (version === undefined) {
    return refuse((ex) => sendAnthropicError(ex, 400, 'anthropic-version: header is required'));
  }
  if (!ANTHROPIC_VERSIONS.has(version)) {
    return refuse((ex) =>
      sendAnthropicError(ex, 400, `anthropic-version: ${JSON.stringify(version)} is not a valid version`),
    );
  }
  return { ok: true, key };
}

function checkGoogle(headers: IncomingHttpHeaders, query: Record<string, string>): AuthCheck {
  const key = header(headers, 'x-goog-api-key') ?? (query.key === '' ? undefined : query.key);
  if (key === undefined) return refuse((ex) => sendGoogleError(ex, 403, GOOGLE_UNREGISTERED));
  if (key.startsWith('bad')) {
    return refuse((ex) =>
      sendGoogleError(ex, 400, GOOGLE_INVALID_KEY, 'INVALID_ARGUMENT', [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'API_KEY_INVALID',
          domain: 'googleapis.com',
          metadata: { service: 'generativelanguage.googleapis.com' },
        },
        {
          '@type': 'type.googleapis.com/google.rpc.LocalizedMessage',
          locale: 'en-US',
          message: GOOGLE_INVALID_KEY,
        },
      ]),
    );
  }
  return { ok: true, key };
}

/** Azure answers a missing key and a wrong one alike. */
const AZURE_ACCESS_DENIED =
  'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid ' +
  'key for an active subscription and use a correct regional API endpoint for your resource.';

function checkAzure(headers: IncomingHttpHeaders, bearer: boolean): AuthCheck {
  const key =
    header(headers, 'api-key') ?? (bearer ? bearerKey(header(headers, 'authorization')) : undefined);
  if (key === undefined || key.startsWith('bad')) {
    return refuse((ex) => sendAzureError(ex, 401, '401', AZURE_ACCESS_DENIED));
  }
  return { ok: true, key };
}

/** The key a request carries under `scheme`, or the refusal to send. */
export function authenticate(
  scheme: AuthScheme,
  headers: IncomingHttpHeaders,
  query: Record<string, string>,
  settings?: MockSettings,
): AuthCheck {
  switch (scheme) {
    case 'bearer':
      return checkBearer(headers);
    case 'anthropic':
      return checkAnthropic(headers);
    case 'google':
      return checkGoogle(headers, query);
    case 'azure':
    case 'azure-v1':
      return checkAzure(headers, scheme === 'azure-v1');
    case 'vertex':
      // Only access tokens this mock issued pass (see vertex-auth.ts).
      return settings
        ? checkVertexToken(headers, settings.vertex)
        : {
            ok: false,
            refuse: (ex) => sendGoogleError(ex, 401, 'Request had invalid authentication credentials.'),
          };
    case 'none':
      // Public, but a key still selects key-scoped behaviours.
      return { ok: true, key: bearerKey(header(headers, 'authorization')) };
  }
}

/** Whether a request carries a Google key and no bearer one: GET /v1/models then speaks Gemini. */
export const carriesGoogleKey = (headers: IncomingHttpHeaders, query: Record<string, string>): boolean =>
  header(headers, 'authorization') === undefined &&
  (header(headers, 'x-goog-api-key') !== undefined || (query.key ?? '') !== '');

/**
 * midjourney-proxy's check: the `mj-api-secret` header must be one of `secrets` (a proxy configured without a
 * secret, an empty list, lets everyone in). A refusal is 401 with an empty body.
 */
export function checkMidjourneySecret(headers: IncomingHttpHeaders, secrets: readonly string[]): AuthCheck {
  const secret = header(headers, 'mj-api-secret');
  if (secrets.length === 0) return { ok: true, key: secret };
  if (secret === undefined || !secrets.includes(secret)) return refuse(sendMidjourneyUnauthorized);
  return { ok: true, key: secret };
}

/**
 * A Suno API server's check: `Authorization: Bearer <key>` with one of `keys` (none configured: open). A
 * refusal is 401 `{ code: "invalid_request", message: "unauthorized secret token", data: null }`.
 */
export function checkSunoKey(headers: IncomingHttpHeaders, keys: readonly string[]): AuthCheck {
  const key = bearerKey(header(headers, 'authorization'));
  if (keys.length === 0) return { ok: true, key };
  if (key === undefined || !keys.includes(key)) return refuse(sendSunoUnauthorized);
  return { ok: true, key };
}
