// The models a caller may use, in Anthropic's shape (GET /v1/models with an anthropic-version header):
// `{data: [{type, id, display_name, created_at}], has_more, first_id, last_id}`, paged by `limit`
// (default 20, at most 1000) and the `after_id` / `before_id` cursors the Anthropic SDK's pager sends.
import { RelayError } from '../../ir/errors.js';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 1000;

/** Sluice does not know when a model was released: one-api's fixed creation time, in RFC 3339. */
const CREATED_AT = new Date(1626777600 * 1000).toISOString();

export const anthropicModel = (id: string) => ({
  type: 'model' as const,
  id,
  display_name: id,
  created_at: CREATED_AT,
});

const queryString = (query: unknown, name: string): string | undefined => {
  const value =
    typeof query === 'object' && query !== null ? (query as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' && value !== '' ? value : undefined;
};

export function anthropicModelPage(ids: readonly string[], query: unknown) {
  const given = queryString(query, 'limit');
  const limit = given === undefined ? DEFAULT_LIMIT : Number(given);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new RelayError(400, `limit: Input should be between 1 and ${MAX_LIMIT}`, 'invalid_request');
  }
  const after = queryString(query, 'after_id');
  const before = queryString(query, 'before_id');
  let start = 0;
  let end = ids.length;
  if (after !== undefined) start = ids.indexOf(after) + 1;
  if (before !== undefined) end = Math.max(ids.indexOf(before), 0);
  // Counting back from before_id, a page is the `limit` models just before it.
  const from = before !== undefined && after === undefined ? Math.max(end - limit, start) : start;
  const to = Math.min(from + limit, end);
  const page = ids.slice(from, to);
  return {
    data: page.map(anthropicModel),
    has_more: before !== undefined && after === undefined ? from > 0 : to < end,
    first_id: page[0] ?? null,
    last_id: page[page.length - 1] ?? null,
  };
}

export function anthropicModelOf(ids: readonly string[], id: string) {
  if (!ids.includes(id)) throw new RelayError(404, `model: ${id}`, 'not_found_error');
  return anthropicModel(id);
}
