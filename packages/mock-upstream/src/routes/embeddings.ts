// POST /v1/embeddings: deterministic unit vectors (same text, same vector), as floats or base64.
import { sendError, sendJson, type Exchange } from '../exchange.js';
import { embeddingInputs, expectedEmbeddingUsage } from '../usage.js';
import { isRecord } from './input.js';

/** Vector length when the request does not ask for `dimensions`; small to keep answers light. */
export const DEFAULT_EMBEDDING_DIMENSIONS = 16;

/** FNV-1a, to seed the vector of a text. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0 || 1;
}

/** A unit vector derived from the text; values are float32 so the base64 form decodes to the same numbers. */
export function mockEmbedding(text: string, dimensions: number = DEFAULT_EMBEDDING_DIMENSIONS): number[] {
  let state = hash(text);
  const raw: number[] = [];
  for (let i = 0; i < dimensions; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    raw.push(((state >>> 0) / 0xffffffff) * 2 - 1);
  }
  const norm = Math.sqrt(raw.reduce((sum, v) => sum + v * v, 0)) || 1;
  return raw.map((v) => Math.fround(v / norm));
}

const toBase64 = (vector: number[]): string =>
  Buffer.from(Float32Array.from(vector).buffer).toString('base64');

export function handleEmbeddings(ex: Exchange): void {
  const body = ex.body;
  if (!isRecord(body) || typeof body.model !== 'string') {
    sendError(ex, 400, 'You must provide a model parameter.');
    return;
  }
  const inputs = embeddingInputs(body.input);
  if (inputs.length === 0) {
    sendError(ex, 400, "'input' must be a string, an array of strings or an array of token arrays.");
    return;
  }
  const dims = body.dimensions;
  const dimensions =
    typeof dims === 'number' && Number.isInteger(dims) && dims > 0 && dims <= 4096
      ? dims
      : DEFAULT_EMBEDDING_DIMENSIONS;
  const base64 = body.encoding_format === 'base64';
  sendJson(ex, 200, {
    object: 'list',
    data: inputs.map((input, index) => {
      const vector = mockEmbedding(input.text, dimensions);
      return { object: 'embedding', index, embedding: base64 ? toBase64(vector) : vector };
    }),
    model: body.model,
    usage: expectedEmbeddingUsage(body),
  });
}
