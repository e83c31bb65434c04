// Which handler answers a request, under which auth scheme and in which vendor's error shape. OpenAI and
// Anthropic routes are fixed paths; Gemini's are resources (models, models/{id}, models/{id}:{method}); the
// task servers (midjourney-proxy under /mj, Suno under /suno) answer their own errors through `errors`.
import type { IncomingHttpHeaders } from 'node:http';
import {
  carriesGoogleKey,
  checkMidjourneySecret,
  checkSunoKey,
  type AuthCheck,
  type AuthScheme,
} from './auth.js';
import { checkBedrockAuth } from './bedrock-auth.js';
import type { Dialect, Exchange } from './exchange.js';
import {
  handleAnthropicModels,
  handleCountTokens as handleAnthropicCountTokens,
  handleMessages,
} from './routes/anthropic.js';
import { handleSpeech, handleTranscriptions, handleTranslations } from './routes/audio.js';
import { handleChatCompletions, handleCompletions } from './routes/chat.js';
import { handleEmbeddings } from './routes/embeddings.js';
import { handleCountTokens, handleGenerateContent, handleStreamGenerateContent } from './routes/gemini.js';
import {
  handleBatchEmbedContents,
  handleEmbedContent,
  handleGeminiModel,
  handleGeminiModels,
} from './routes/gemini-models.js';
import { handleImageFile, handleImageGenerations, IMAGE_PATH } from './routes/images.js';
import { handleBillingSubscription, handleBillingUsage, handleModel, handleModels } from './routes/models.js';
import { handleModerations } from './routes/moderations.js';
import { handleRerank } from './routes/rerank.js';
import { handleResponses } from './routes/responses.js';
import { azureRoute } from './routes/azure.js';
import {
  bedrockAction,
  FOUNDATION_MODELS_PATH,
  handleFoundationModels,
  handleInvoke,
} from './routes/bedrock.js';
import { vertexRoute } from './routes/vertex.js';
import {
  midjourneyRoute,
  sendMidjourneyError,
  sendMidjourneyFault,
  type MidjourneyUpstream,
} from './routes/midjourney.js';
import { sendSunoFault, sendSunoInvalid, sunoRoute, type SunoUpstream } from './routes/suno.js';

type Handler = (ex: Exchange) => void | Promise<void>;
export interface Route {
  handler: Handler;
  auth: AuthScheme;
  dialect: Dialect;
  /** Errors come wrapped in a JSON array (Gemini's streamGenerateContent without alt=sse). */
  arrayErrors: boolean;
  /** Checks the whole request, body included (AWS SigV4 signs it), instead of `auth`. */
  verify?: (ex: Exchange, raw: Buffer) => Promise<AuthCheck>;
  /** A vendor whose errors are not one of the dialects' (the task servers): how it answers them. */
  errors?: RouteErrors;
}

export interface RouteErrors {
  /** The `status` directive. */
  fault(ex: Exchange, status: number): void;
  /** A body or directive the route cannot take. */
  invalid(ex: Exchange, status: number, message: string): void;
}

/** The task servers the mock plays, with their tasks. */
export interface TaskUpstreams {
  midjourney: MidjourneyUpstream;
  suno: SunoUpstream;
}

const MIDJOURNEY_ERRORS: RouteErrors = { fault: sendMidjourneyFault, invalid: sendMidjourneyError };
const SUNO_ERRORS: RouteErrors = { fault: sendSunoFault, invalid: sendSunoInvalid };

/** A task server's route: public, or behind the server's own secret check. */
function withCheck(
  found: { handler: Handler; open: boolean },
  errors: RouteErrors,
  check: (headers: IncomingHttpHeaders) => AuthCheck,
): Route {
  const route: Route = {
    handler: found.handler,
    auth: 'none',
    dialect: 'openai',
    arrayErrors: false,
    errors,
  };
  if (!found.open) route.verify = (ex) => Promise.resolve(check(ex.req.headers));
  return route;
}

/** midjourney-proxy's and Suno's routes. */
function taskRoute(method: string, path: string, upstreams: TaskUpstreams): Route | undefined {
  const { midjourney, suno } = upstreams;
  const mj = midjourneyRoute(method, path, midjourney);
  if (mj) {
    return withCheck(mj, MIDJOURNEY_ERRORS, (headers) => checkMidjourneySecret(headers, midjourney.secrets));
  }
  const song = sunoRoute(method, path, suno);
  return song && withCheck(song, SUNO_ERRORS, (headers) => checkSunoKey(headers, suno.keys));
}

const openai = (handler: Handler): Route => ({
  handler,
  auth: 'bearer',
  dialect: 'openai',
  arrayErrors: false,
});
const anthropic = (handler: Handler): Route => ({
  handler,
  auth: 'anthropic',
  dialect: 'anthropic',
  arrayErrors: false,
});
const gemini = (handler: Handler, arrayErrors = false): Route => ({
  handler,
  auth: 'google',
  dialect: 'gemini',
  arrayErrors,
});

const ROUTES = new Map<string, Route>([
  ['POST /v1/chat/completions', openai(handleChatCompletions)],
  ['POST /v1/completions', openai(handleCompletions)],
  ['POST /v1/embeddings', openai(handleEmbeddings)],
  ['POST /v1/images/generations', openai(handleImageGenerations)],
  ['POST /v1/audio/speech', openai(handleSpeech)],
  ['POST /v1/audio/transcriptions', openai(handleTranscriptions)],
  ['POST /v1/audio/translations', openai(handleTranslations)],
  ['POST /v1/moderations', openai(handleModerations)],
  ['POST /v1/rerank', openai(handleRerank)],
  ['POST /v1/responses', openai(handleResponses)],
  ['GET /v1/models', openai(handleModels)],
  ['GET /v1/dashboard/billing/subscription', openai(handleBillingSubscription)],
  ['GET /v1/dashboard/billing/usage', openai(handleBillingUsage)],
  ['POST /v1/messages', anthropic(handleMessages)],
  ['POST /v1/messages/count_tokens', anthropic(handleAnthropicCountTokens)],
]);

/** Gemini's resources, under /v1beta and /v1 as Google serves them: models, models/{id}, models/{id}:{method}. */
const GEMINI_PATH = /^\/(v1beta|v1)\/models(?:\/([^/:]+)(?::([A-Za-z]+))?)?$/;

function geminiRoute(method: string, path: string, query: Record<string, string>): Route | undefined {
  const match = GEMINI_PATH.exec(path);
  if (!match) return undefined;
  const [, version = 'v1beta', rawId, action] = match;
  const id = rawId === undefined ? undefined : decodeURIComponent(rawId);
  if (method === 'GET' && action === undefined) {
    return id === undefined
      ? gemini((ex) => handleGeminiModels(ex, query))
      : gemini((ex) => handleGeminiModel(ex, id, version));
  }
  if (method !== 'POST' || id === undefined) return undefined;
  switch (action) {
    case 'generateContent':
      return gemini((ex) => handleGenerateContent(ex, id));
    case 'streamGenerateContent': {
      const sse = query.alt === 'sse';
      return gemini((ex) => handleStreamGenerateContent(ex, id, sse), !sse);
    }
    case 'countTokens':
      return gemini(handleCountTokens);
    case 'embedContent':
      return gemini(handleEmbedContent);
    case 'batchEmbedContents':
      return gemini(handleBatchEmbedContents);
    default:
      return undefined;
  }
}

export function findRoute(
  method: string,
  path: string,
  query: Record<string, string>,
  headers: IncomingHttpHeaders,
  tasks: TaskUpstreams,
): Route | undefined {
  // /v1/models is OpenAI's list unless the caller carries a Google key and no bearer one.
  const google =
    path.startsWith('/v1beta/') ||
    (path.startsWith('/v1/models') && (method === 'POST' || carriesGoogleKey(headers, query)));
  if (google) {
    const route = geminiRoute(method, path, query);
    if (route) return route;
  }
  // Anthropic's model list shares OpenAI's path: a caller sending anthropic-version is Anthropic's.
  if (method === 'GET' && path === '/v1/models' && headers['anthropic-version'] !== undefined) {
    return anthropic(handleAnthropicModels);
  }
  const route = ROUTES.get(`${method} ${path}`);
  if (route) return route;
  if (method === 'GET' && path.startsWith('/v1/models/')) {
    const id = decodeURIComponent(path.slice('/v1/models/'.length));
    return openai((ex) => handleModel(ex, id));
  }
  if (method === 'GET' && path === IMAGE_PATH) {
    return { handler: handleImageFile, auth: 'none', dialect: 'openai', arrayErrors: false };
  }
  // midjourney-proxy (/mj, /mj-{fast,turbo,relax}/mj) and a Suno API server (/suno).
  if (path.startsWith('/mj') || path.startsWith('/suno')) {
    const route = taskRoute(method, path, tasks);
    if (route) return route;
  }
  // Vertex AI: its token endpoint and /v1/projects/…/publishers/{google,anthropic}/models/….
  const vertex = vertexRoute(method, path, query);
  if (vertex) return vertex;
  // AWS Bedrock: /model/{modelId}/invoke[-with-response-stream], SigV4-signed or with a Bedrock API key.
  const invoke = bedrockAction(method, path);
  if (invoke) {
    return {
      handler: (ex) => handleInvoke(ex, invoke.modelId, invoke.stream),
      auth: 'none',
      dialect: 'bedrock',
      arrayErrors: false,
      verify: (ex, raw) => checkBedrockAuth(ex, raw, ex.settings.awsKeys),
    };
  }
  // Its control plane's model list (ListFoundationModels), under the same authentication.
  if (method === 'GET' && path === FOUNDATION_MODELS_PATH) {
    return {
      handler: handleFoundationModels,
      auth: 'none',
      dialect: 'bedrock',
      arrayErrors: false,
      verify: (ex, raw) => checkBedrockAuth(ex, raw, ex.settings.awsKeys),
    };
  }
  // Azure OpenAI: everything under /openai/ answers with Azure's key check, OpenAI-shaped bodies.
  if (path.startsWith('/openai/')) {
    const { handler, auth } = azureRoute(method, path);
    return { handler, auth, dialect: 'openai', arrayErrors: false };
  }
  return undefined;
}
