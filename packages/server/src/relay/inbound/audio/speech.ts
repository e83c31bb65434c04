// POST /v1/audio/speech: text in, audio bytes out. Billed by the input's characters as prompt tokens,
// the unit OpenAI prices speech in (tts-1: $15 per 1M characters = ModelRatio 7.5).
import { z } from 'zod';
import type { InboundFormat } from '../types.js';
import { oneShotFormat, oneShotIr } from '../json-endpoint.js';
import { generationFields, parseOrThrow } from '../openai-shared.js';

const speechRequest = z.looseObject({
  model: generationFields.model,
  input: z.string({ error: 'input is required' }).min(1, { error: 'input is required' }),
  voice: z.unknown().optional(),
  response_format: z.string().nullish(),
});

/** Characters as the user sees them (code points), not UTF-16 units. */
export const characterCount = (text: string): number => [...text].length;

const inputOf = (body: Readonly<Record<string, unknown>>): string =>
  typeof body.input === 'string' ? body.input : '';

const speechFormat = oneShotFormat(
  'speech',
  (body, raw) => {
    const req = parseOrThrow(speechRequest, body);
    return oneShotIr('speech', req.model, req, raw);
  },
  (ir) => ({ text: inputOf(ir.body), tokens: 0 }),
  (text) => Promise.resolve(characterCount(text)),
);

export const openAiSpeech: InboundFormat = {
  ...speechFormat,
  // The hold is exact as well: one token per character.
  estimatePromptTokens: (ir) => characterCount(inputOf(ir.body)),
};
