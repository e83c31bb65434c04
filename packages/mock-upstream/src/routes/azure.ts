// Azure OpenAI: OpenAI's routes under /openai/deployments/{deployment}/{path}?api-version={version} and
// the v1 API's /openai/v1/responses, answered by the OpenAI handlers (the deployment stands for the
// model). Azure's gateway checks come first: the api-version (missing → 404, unknown → 400), then the
// fields a dated version does not know yet. GET /openai/models?api-version=… lists the models the
// resource may deploy ("Models - List").
import { sendError, sendJson, type Exchange } from '../exchange.js';
import { sendAzureError } from '../vendor-errors.js';
import { handleSpeech, handleTranscriptions, handleTranslations } from './audio.js';
import { handleChatCompletions, handleCompletions } from './chat.js';
import { handleEmbeddings } from './embeddings.js';
import { handleImageGenerations } from './images.js';
import { isRecord } from './input.js';
import { handleResponses } from './responses.js';

type Handler = (ex: Exchange) => void | Promise<void>;

/** The data-plane inference versions Azure documents (GA and previews). */
export const AZURE_API_VERSIONS: ReadonlySet<string> = new Set([
  '2022-12-01',
  '2023-05-15',
  '2024-02-01',
  '2024-06-01',
  '2024-10-21',
  '2023-03-15-preview',
  '2023-06-01-preview',
  '2023-07-01-preview',
  '2023-08-01-preview',
  '2023-09-01-preview',
  '2023-10-01-preview',
  '2023-12-01-preview',
  '2024-02-15-preview',
  '2024-03-01-preview',
  '2024-04-01-preview',
  '2024-05-01-preview',
  '2024-07-01-preview',
  '2024-08-01-preview',
  '2024-09-01-preview',
  '2024-10-01-preview',
  '2024-12-01-preview',
  '2025-01-01-preview',
  '2025-02-01-preview',
  '2025-03-01-preview',
  '2025-04-01-preview',
]);

/** The v1 API takes no dated version: none, or `preview` / `latest`. */
const V1_API_VERSIONS: ReadonlySet<string> = new Set(['preview', 'latest']);

/** Body fields that arrived with 2024-09-01-preview (and GA 2024-10-21); older versions refuse them. */
const NEWER_FIELDS = ['stream_options', 'max_completion_tokens'];
const NEWER_FIELDS_SINCE = '2024-09-01';

const DEPLOYMENT_HANDLERS: Readonly<Record<string, Handler>> = {
  'chat/completions': handleChatCompletions,
  completions: handleCompletions,
  embeddings: handleEmbeddings,
  'images/generations': handleImageGenerations,
  'audio/speech': handleSpeech,
  'audio/transcriptions': handleTranscriptions,
  'audio/translations': handleTranslations,
};

const DEPLOYMENT_PATH = /^\/openai\/deployments\/([^/]+)\/(.+)$/;

const notFound = (ex: Exchange): void => sendAzureError(ex, 404, '404', 'Resource not found');

const unsupportedVersion = (ex: Exchange): void =>
  sendAzureError(ex, 400, 'BadRequest', 'API version not supported');

/**
 * A data-plane call (a deployment's, the model list): its api-version must be one Azure knows, and
 * must know the body's fields.
 */
function deploymentVersionOk(ex: Exchange): boolean {
  const version = ex.record.query['api-version'];
  if (version === undefined || version === '') {
    notFound(ex);
    return false;
  }
  if (!AZURE_API_VERSIONS.has(version)) {
    unsupportedVersion(ex);
    return false;
  }
  const body = ex.body;
  if (version.slice(0, 10) < NEWER_FIELDS_SINCE && isRecord(body)) {
    const unknown = NEWER_FIELDS.find((field) => body[field] !== undefined);
    if (unknown !== undefined) {
      sendError(ex, 400, `Unrecognized request argument supplied: ${unknown}`);
      return false;
    }
  }
  return true;
}

/** A deployment route: Azure's checks, then the OpenAI handler with the deployment as the model. */
function onDeployment(handler: Handler, deployment: string): Handler {
  return (ex) => {
    if (!deploymentVersionOk(ex)) return;
    // A copy: the recorded body stays what was received (Azure ignores a body's model here).
    ex.body = Object.assign({}, isRecord(ex.body) ? ex.body : {}, { model: deployment });
    return handler(ex);
  };
}

/** The v1 API's Responses route: no version, or preview/latest; a dated one is refused. */
function onV1Responses(ex: Exchange): void | Promise<void> {
  const version = ex.record.query['api-version'];
  if (version !== undefined && !V1_API_VERSIONS.has(version)) return unsupportedVersion(ex);
  return handleResponses(ex);
}

/** Fixed so listings are stable between runs. */
const CREATED = 1_700_000_000;
const YEAR = 365 * 86_400;

/** A Model of Azure's "Models - List": capabilities read from the id, inference supported for a year. */
function azureModel(id: string, inferenceUntil: number): Record<string, unknown> {
  const embeddings = id.includes('embedding');
  const completion = id.includes('instruct');
  return {
    status: 'succeeded',
    capabilities: {
      fine_tune: false,
      inference: true,
      completion,
      chat_completion: !embeddings && !completion && /^(gpt|o\d|chatgpt)/.test(id),
      embeddings,
    },
    lifecycle_status: 'generally-available',
    deprecation: { inference: inferenceUntil },
    id,
    created_at: CREATED,
    object: 'model',
  };
}

/**
 * GET /openai/models?api-version=…: the models the resource may deploy (the mock's model list), plus
 * one Azure still lists past its inference end date (as Azure's own example lists `curie`).
 */
function handleAzureModels(ex: Exchange): void {
  if (!deploymentVersionOk(ex)) return;
  const now = Math.floor(Date.now() / 1000);
  sendJson(ex, 200, {
    data: [
      ...ex.settings.models.map((id) => azureModel(id, now + YEAR)),
      azureModel('text-davinci-003', 1_709_284_527),
    ],
    object: 'list',
  });
}

/** The handler of any request under /openai/ (a known route, or Azure's 404) and its key check. */
export function azureRoute(method: string, path: string): { handler: Handler; auth: 'azure' | 'azure-v1' } {
  if (path.startsWith('/openai/v1/')) {
    return {
      handler: method === 'POST' && path === '/openai/v1/responses' ? onV1Responses : notFound,
      auth: 'azure-v1',
    };
  }
  if (path === '/openai/models') {
    return { handler: method === 'GET' ? handleAzureModels : notFound, auth: 'azure' };
  }
  const match = DEPLOYMENT_PATH.exec(path);
  const handler = match && method === 'POST' ? DEPLOYMENT_HANDLERS[match[2] ?? ''] : undefined;
  if (!match || !handler) return { handler: notFound, auth: 'azure' };
  return { handler: onDeployment(handler, decodeURIComponent(match[1] ?? '')), auth: 'azure' };
}
