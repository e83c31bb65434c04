// The models a caller may use, in Google's shape (GET /v1beta/models, and GET /v1/models for a caller
// that sends x-goog-api-key): `{models: [Model], nextPageToken}` in pages, as the SDKs' pagers read it.
import { RelayError } from '../../ir/errors.js';

const DEFAULT_PAGE = 50;
const MAX_PAGE = 1000;

/**
 * One Model. Sluice knows names only, so limits and sampling defaults are left out; the methods are
 * those the relay serves for the model's kind (embedding models by their name, as Google names them).
 */
export function googleModel(id: string) {
  const embedding = /embed/i.test(id);
  return {
    name: `models/${id}`,
    baseModelId: id,
    displayName: id,
    supportedGenerationMethods: embedding
      ? ['embedContent', 'batchEmbedContents']
      : ['generateContent', 'streamGenerateContent', 'countTokens'],
  };
}

const queryString = (query: unknown, name: string): string | undefined => {
  const value =
    typeof query === 'object' && query !== null ? (query as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' && value !== '' ? value : undefined;
};

/** A page of `ids` by the request's pageSize (default 50, at most 1000) and opaque pageToken. */
export function googleModelPage(ids: readonly string[], query: unknown) {
  const size = Number(queryString(query, 'pageSize') ?? DEFAULT_PAGE);
  const pageSize = Number.isInteger(size) && size > 0 ? Math.min(size, MAX_PAGE) : DEFAULT_PAGE;
  const token = queryString(query, 'pageToken');
  const offset = token === undefined ? 0 : Number(Buffer.from(token, 'base64url').toString('utf8'));
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new RelayError(400, 'Invalid page token.', 'invalid_request');
  }
  const next = offset + pageSize;
  return {
    models: ids.slice(offset, next).map(googleModel),
    nextPageToken: next < ids.length ? Buffer.from(String(next)).toString('base64url') : undefined,
  };
}

/** models/{id} of the list, or Google's 404. */
export function googleModelOf(ids: readonly string[], id: string) {
  const name = id.replace(/^models\//, '');
  if (!ids.includes(name)) throw new RelayError(404, `models/${name} is not found`, 'model_not_found');
  return googleModel(name);
}
