// POST /v1/moderations: billed by the input's tokens (upstreams report no usage, so they are counted).
import { z } from 'zod';
import { countTokens } from '../../../billing/token-counter.js';
import { oneShotFormat, oneShotIr } from '../json-endpoint.js';
import { contentText, parseOrThrow } from '../openai-shared.js';

/** The model OpenAI uses when the request names none; it is also the name the call is priced under. */
export const DEFAULT_MODERATION_MODEL = 'omni-moderation-latest';

const moderationRequest = z.looseObject({
  model: z.string({ error: 'model must be a string' }).min(1).nullish(),
  input: z.union([z.string(), z.array(z.unknown())], {
    error: 'input must be a string, an array of strings or an array of content parts',
  }),
});

/** Strings, or content parts ({type:'text', text}); images have no text to count. */
function inputText(input: unknown): string {
  if (typeof input === 'string') return input;
  if (!Array.isArray(input)) return '';
  return input.map((item) => (typeof item === 'string' ? item : contentText([item]))).join('\n');
}

export const openAiModerations = oneShotFormat(
  'moderations',
  (body, raw) => {
    const req = parseOrThrow(moderationRequest, body);
    return oneShotIr('moderations', req.model ?? DEFAULT_MODERATION_MODEL, req, raw);
  },
  (ir) => ({ text: inputText(ir.body.input), tokens: 0 }),
  (text, ir) => countTokens(text, ir.model),
);
