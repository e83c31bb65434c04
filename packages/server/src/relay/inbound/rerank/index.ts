// POST /v1/rerank (the Jina/Cohere shape): billed by usage.total_tokens, else the query and documents
// counted.
import { z } from 'zod';
import { countTokens } from '../../../billing/token-counter.js';
import { oneShotFormat, oneShotIr } from '../json-endpoint.js';
import { generationFields, parseOrThrow } from '../openai-shared.js';

const rerankRequest = z.looseObject({
  model: generationFields.model,
  query: z.string({ error: 'query must be a string' }),
  documents: z
    .array(z.unknown(), { error: 'documents must be an array' })
    .min(1, { error: 'documents must not be empty' }),
  top_n: z.number().int().min(1, { error: 'top_n must be at least 1' }).nullish(),
});

/** A document is a string or an object with a text field. */
const documentText = (doc: unknown): string =>
  typeof doc === 'string'
    ? doc
    : typeof doc === 'object' && doc !== null && typeof (doc as { text?: unknown }).text === 'string'
      ? (doc as { text: string }).text
      : '';

export const openAiRerank = oneShotFormat(
  'rerank',
  (body, raw) => {
    const req = parseOrThrow(rerankRequest, body);
    return oneShotIr('rerank', req.model, req, raw);
  },
  (ir) => {
    const documents = Array.isArray(ir.body.documents) ? ir.body.documents : [];
    const query = typeof ir.body.query === 'string' ? ir.body.query : '';
    return { text: [query, ...documents.map(documentText)].join('\n'), tokens: 0 };
  },
  (text, ir) => countTokens(text, ir.model),
);
