// Vertex AI: the OAuth token endpoint (POST /token, the service-account JWT bearer grant) and the model
// methods under /v1/projects/{project}/locations/{location}/publishers/{google|anthropic}/models/{model}.
// Google's models answer with the Gemini routes, Anthropic's with the Messages route: only the checks
// Vertex adds are here (the token's project, the location, Claude's body without `model` and with
// anthropic_version vertex-2023-10-16). Model Garden's list of Google's models (GET
// /v1beta1/publishers/google/models) takes the same access tokens.
import { sendResult, type Exchange } from '../exchange.js';
import type { Route } from '../routing.js';
import { sendAnthropicError, sendGoogleError } from '../vendor-errors.js';
import { handleMessages } from './anthropic.js';
import { handleCountTokens, handleGenerateContent, handleStreamGenerateContent } from './gemini.js';
import { isRecord } from './input.js';

export const VERTEX_TOKEN_PATH = '/token';
export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

const VERTEX_PATH =
  /^\/(v1|v1beta1)\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/(google|anthropic)\/models\/([^/:]+):([A-Za-z]+)$/;
/** Region names (us-central1, europe-west1), `global` and the `us` / `eu` multi-regions. */
const LOCATION = /^(global|us|eu|[a-z]+-[a-z]+\d+)$/;

/** The token endpoint: answers `{ access_token, expires_in, token_type }` or an OAuth error. */
export function handleVertexToken(ex: Exchange): void {
  const grant = ex.settings.vertex.grant(ex.body, `${ex.baseUrl}${VERTEX_TOKEN_PATH}`);
  const status = grant.ok ? 200 : grant.status;
  const body = grant.ok ? grant.body : { error: grant.error, error_description: grant.description };
  ex.res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-cache, no-store, max-age=0, must-revalidate',
  });
  ex.record.status = status;
  ex.res.end(JSON.stringify(body));
}

interface ModelCall {
  project: string;
  location: string;
  publisher: 'google' | 'anthropic';
  model: string;
}

/** The token's account may call only its own project, in a location that exists. */
function inScope(ex: Exchange, call: ModelCall): boolean {
  const holder = ex.settings.vertex.holder(ex.req.headers);
  const resource = `projects/${call.project}/locations/${call.location}/publishers/${call.publisher}/models/${call.model}`;
  if (!holder.ok || holder.projectId !== call.project) {
    sendGoogleError(
      ex,
      403,
      `Permission 'aiplatform.endpoints.predict' denied on resource '//aiplatform.googleapis.com/${resource}' (or it may not exist).`,
    );
    return false;
  }
  if (!LOCATION.test(call.location)) {
    sendGoogleError(ex, 400, `Location ${call.location} is not supported.`);
    return false;
  }
  return true;
}

/**
 * rawPredict / streamRawPredict: a Messages body whose model is in the URL and whose API version is
 * in the body; `stream` must agree with the method. Answered by the Messages route.
 */
async function handleRawPredict(ex: Exchange, model: string, stream: boolean): Promise<void> {
  const body = ex.body;
  if (!isRecord(body)) return sendAnthropicError(ex, 400, 'body: Input should be a valid dictionary');
  if (body.anthropic_version === undefined) {
    return sendAnthropicError(ex, 400, 'anthropic_version: Field required');
  }
  if (body.anthropic_version !== VERTEX_ANTHROPIC_VERSION) {
    return sendAnthropicError(ex, 400, `anthropic_version: Input should be '${VERTEX_ANTHROPIC_VERSION}'`);
  }
  if (body.model !== undefined) return sendAnthropicError(ex, 400, 'model: Extra inputs are not permitted');
  if ((body.stream === true) !== stream) {
    const method = stream ? 'streamRawPredict' : 'rawPredict';
    return sendAnthropicError(ex, 400, `stream: ${method} takes "stream": ${String(stream)}`);
  }
  const messages: Record<string, unknown> = { model };
  for (const [field, value] of Object.entries(body))
    if (field !== 'anthropic_version') messages[field] = value;
  ex.body = messages;
  await handleMessages(ex);
}

function modelHandler(call: ModelCall, method: string, query: Record<string, string>) {
  const checked =
    (answer: (ex: Exchange) => void | Promise<void>) =>
    (ex: Exchange): void | Promise<void> =>
      inScope(ex, call) ? answer(ex) : undefined;
  if (call.publisher === 'anthropic') {
    if (method === 'rawPredict') return checked((ex) => handleRawPredict(ex, call.model, false));
    if (method === 'streamRawPredict') return checked((ex) => handleRawPredict(ex, call.model, true));
    return undefined;
  }
  switch (method) {
    case 'generateContent':
      return checked((ex) => handleGenerateContent(ex, call.model));
    case 'streamGenerateContent':
      return checked((ex) => handleStreamGenerateContent(ex, call.model, query.alt === 'sse'));
    case 'countTokens':
      return checked(handleCountTokens);
    default:
      return undefined;
  }
}

/** Model Garden's list of Google's publisher models (v1beta1 only; not under a project). */
export const PUBLISHER_MODELS_PATH = '/v1beta1/publishers/google/models';
/** Google models Model Garden lists beside the Gemini ones (they are not called through generateContent). */
const OTHER_GOOGLE_MODELS = ['imagen-4.0-generate-001', 'gemma-3-27b-it'];
const DEFAULT_PAGE = 100;
const MAX_PAGE = 1000;

/**
 * GET /v1beta1/publishers/google/models: PublisherModels (`name: "publishers/google/models/{id}"`) for
 * the mock's Gemini models and a few others, in pages of `pageSize` with an opaque nextPageToken.
 */
function handlePublisherModels(ex: Exchange): void {
  const { pageSize, pageToken } = ex.record.query;
  const size = Number(pageSize ?? DEFAULT_PAGE);
  const limit = Number.isInteger(size) && size > 0 ? Math.min(size, MAX_PAGE) : DEFAULT_PAGE;
  const offset = pageToken ? Number(Buffer.from(pageToken, 'base64url').toString()) : 0;
  if (!Number.isInteger(offset) || offset < 0) return sendGoogleError(ex, 400, 'Invalid page token.');
  const ids = [...ex.settings.geminiModels, ...OTHER_GOOGLE_MODELS];
  const next = offset + limit;
  sendResult(ex, 200, {
    publisherModels: ids.slice(offset, next).map((id) => ({
      name: `publishers/google/models/${id}`,
      versionId: '001',
      openSourceCategory: id.startsWith('gemma') ? 'GOOGLE_OWNED_OSS_WITH_GOOGLE_CHECKPOINT' : 'PROPRIETARY',
      launchStage: 'GA',
      versionState: 'VERSION_STATE_STABLE',
    })),
    ...(next < ids.length ? { nextPageToken: Buffer.from(String(next)).toString('base64url') } : {}),
  });
}

/** The Vertex route of a request, if it is one. */
export function vertexRoute(method: string, path: string, query: Record<string, string>): Route | undefined {
  if (method === 'GET' && path === PUBLISHER_MODELS_PATH) {
    return { handler: handlePublisherModels, auth: 'vertex', dialect: 'gemini', arrayErrors: false };
  }
  if (method !== 'POST') return undefined;
  if (path === VERTEX_TOKEN_PATH) {
    // The assertion is the credential; faults on this path come in Google's error shape.
    return { handler: handleVertexToken, auth: 'none', dialect: 'gemini', arrayErrors: false };
  }
  const match = VERTEX_PATH.exec(path);
  if (!match) return undefined;
  const [, , project = '', location = '', publisher, rawModel = '', action = ''] = match;
  const call: ModelCall = {
    project,
    location,
    publisher: publisher === 'anthropic' ? 'anthropic' : 'google',
    model: decodeURIComponent(rawModel),
  };
  const handler = modelHandler(call, action, query);
  if (!handler) return undefined;
  return {
    handler,
    auth: 'vertex',
    dialect: call.publisher === 'anthropic' ? 'anthropic' : 'gemini',
    arrayErrors: action === 'streamGenerateContent' && query.alt !== 'sse',
  };
}
