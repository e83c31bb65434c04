// POST /v1/embeddings: billed by prompt tokens (the upstream's usage, else counted from the input).
import { z } from 'zod';
import { countTokens } from '../../../billing/token-counter.js';
import type { IrRequest } from '../../ir/request.js';
import { oneShotFormat, oneShotIr } from '../json-endpoint.js';
import { generationFields, parseOrThrow } from '../openai-shared.js';

const embeddingRequest = z.looseObject({
  model: generationFields.model,
  input: z.union([z.string(), z.array(z.unknown()).min(1, { error: 'input must not be empty' })], {
    error: 'input must be a string or an array',
  }),
});

/** Text inputs, and token-array inputs (already tokens: counted by their length). */
export function inputParts(input: unknown): { text: string; tokens: number } {
  if (typeof input === 'string') return { text: input, tokens: 0 };
  let text = '';
  let tokens = 0;
  for (const item of Array.isArray(input) ? input : []) {
    if (typeof item === 'string') text += `${item}\n`;
    else if (typeof item === 'number') tokens += 1;
    else if (Array.isArray(item)) tokens += item.length;
  }
  return { text, tokens };
}

export const openAiEmbeddings = oneShotFormat(
  'embeddings',
  (body, raw) => {
    const req = parseOrThrow(embeddingRequest, body);
    return oneShotIr('embeddings', req.model, req, raw);
  },
  (ir: IrRequest) => inputParts(ir.body.input),
  (text, ir) => countTokens(text, ir.model),
);
