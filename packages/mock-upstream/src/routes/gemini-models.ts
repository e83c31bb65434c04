// Gemini's model list and model lookup, and its embeddings (:embedContent, :batchEmbedContents), with the
// same deterministic vectors as the OpenAI route.
import { sendResult, type Exchange } from '../exchange.js';
import { geminiContentText, geminiField } from '../usage-gemini.js';
import { cleanText } from '../directive.js';
import { sendGoogleError } from '../vendor-errors.js';
import { DEFAULT_EMBEDDING_DIMENSIONS, mockEmbedding } from './embeddings.js';
import { isRecord } from './input.js';

/** Models listed by GET /v1beta/models unless the mock is started with its own list. */
export const DEFAULT_GEMINI_MODELS = [
  'gemini-2.5-flash',
  'gemini-2.5-pro',
  'gemini-2.0-flash',
  'gemini-embedding-001',
  'text-embedding-004',
];

const JSON_TYPE = 'application/json; charset=UTF-8';

/** "gemini-2.5-flash" → "Gemini 2.5 Flash". */
const displayName = (id: string): string =>
  id
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');

function modelObject(id: string) {
  const embedding = id.includes('embedding');
  const name = displayName(id);
  return embedding
    ? {
        name: `models/${id}`,
        version: '001',
        displayName: name,
        description: `${name}, served by the mock upstream.`,
        inputTokenLimit: 2048,
        outputTokenLimit: 1,
        supportedGenerationMethods: ['embedContent', 'batchEmbedContents'],
      }
    : {
        name: `models/${id}`,
        version: '001',
        displayName: name,
        description: `${name}, served by the mock upstream.`,
        inputTokenLimit: 1_048_576,
        outputTokenLimit: 65_536,
        supportedGenerationMethods: ['generateContent', 'countTokens', 'createCachedContent'],
        temperature: 1,
        topP: 0.95,
        topK: 64,
        maxTemperature: 2,
        thinking: true,
      };
}

const MAX_PAGE = 1000;
const DEFAULT_PAGE = 50;

/** GET models: pages of `pageSize` (default 50, at most 1000) with an opaque nextPageToken. */
export function handleGeminiModels(ex: Exchange, query: Record<string, string>): void {
  const size = Number(query.pageSize ?? DEFAULT_PAGE);
  const pageSize = Number.isInteger(size) && size > 0 ? Math.min(size, MAX_PAGE) : DEFAULT_PAGE;
  const offset = query.pageToken ? Number(Buffer.from(query.pageToken, 'base64url').toString()) : 0;
  if (!Number.isInteger(offset) || offset < 0) {
    sendGoogleError(ex, 400, 'Invalid page token.');
    return;
  }
  const models = ex.settings.geminiModels;
  const next = offset + pageSize;
  sendResult(
    ex,
    200,
    {
      models: models.slice(offset, next).map(modelObject),
      ...(next < models.length ? { nextPageToken: Buffer.from(String(next)).toString('base64url') } : {}),
    },
    JSON_TYPE,
  );
}

export function handleGeminiModel(ex: Exchange, id: string, version: string): void {
  if (!ex.settings.geminiModels.includes(id)) {
    sendGoogleError(ex, 404, `models/${id} is not found for API version ${version}.`);
    return;
  }
  sendResult(ex, 200, modelObject(id), JSON_TYPE);
}

function outputDimensions(request: Record<string, unknown>): number {
  const dims = geminiField(request, 'outputDimensionality');
  return typeof dims === 'number' && Number.isInteger(dims) && dims > 0 && dims <= 4096
    ? dims
    : DEFAULT_EMBEDDING_DIMENSIONS;
}

/** The vector of one EmbedContentRequest, or undefined when it has no content. */
function embed(request: unknown): { values: number[] } | undefined {
  if (!isRecord(request) || !isRecord(request.content)) return undefined;
  return { values: mockEmbedding(cleanText(geminiContentText(request.content)), outputDimensions(request)) };
}

export function handleEmbedContent(ex: Exchange): void {
  const embedding = embed(ex.body);
  if (embedding === undefined) {
    sendGoogleError(ex, 400, '* EmbedContentRequest.content: content is not specified\n');
    return;
  }
  sendResult(ex, 200, { embedding }, JSON_TYPE);
}

export function handleBatchEmbedContents(ex: Exchange): void {
  const requests = isRecord(ex.body) && Array.isArray(ex.body.requests) ? ex.body.requests : [];
  if (requests.length === 0) {
    sendGoogleError(ex, 400, '* BatchEmbedContentsRequest.requests: requests is not specified\n');
    return;
  }
  const embeddings = requests.map(embed);
  const missing = embeddings.findIndex((embedding) => embedding === undefined);
  if (missing >= 0) {
    sendGoogleError(
      ex,
      400,
      `* BatchEmbedContentsRequest.requests[${missing}].content: content is not specified\n`,
    );
    return;
  }
  sendResult(ex, 200, { embeddings }, JSON_TYPE);
}
