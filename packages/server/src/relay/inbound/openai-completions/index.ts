// POST /v1/completions: the legacy OpenAI text-completion format (a prompt instead of messages).
import { z } from 'zod';
import { countTokens } from '../../../billing/token-counter.js';
import type { IrRequest } from '../../ir/request.js';
import type { InboundFormat } from '../types.js';
import {
  OPENAI_STREAM_END,
  estimateTokens,
  generationFields,
  openAiErrorBody,
  openAiStreamError,
  parseOrThrow,
} from '../openai-shared.js';

const completionRequest = z.looseObject({
  ...generationFields,
  prompt: z.union([z.string(), z.array(z.unknown())], { error: 'prompt must be a string or an array' }),
});

/** The prompt as text: a string, strings, or token arrays (counted as their lengths). */
function promptParts(ir: IrRequest): { text: string; tokens: number } {
  const prompt = ir.body.prompt;
  if (typeof prompt === 'string') return { text: prompt, tokens: 0 };
  let text = '';
  let tokens = 0;
  for (const part of Array.isArray(prompt) ? prompt : []) {
    if (typeof part === 'string') text += part;
    else if (typeof part === 'number') tokens += 1;
    else if (Array.isArray(part)) tokens += part.length;
  }
  return { text, tokens };
}

export const openAiCompletions: InboundFormat = {
  mode: 'completions',
  wireFormat: 'openai',
  parse(body, raw) {
    const req = parseOrThrow(completionRequest, body);
    const maxTokens = req.max_tokens ?? undefined;
    return {
      mode: 'completions',
      model: req.model,
      stream: req.stream === true,
      clientWantsUsage: req.stream_options?.include_usage === true,
      ...(maxTokens !== undefined ? { maxTokens } : {}),
      body: req,
      ...(raw ? { raw } : {}),
    };
  },
  estimatePromptTokens(ir) {
    const { text, tokens } = promptParts(ir);
    return estimateTokens(text.length) + tokens;
  },
  async countPromptTokens(ir) {
    const { text, tokens } = promptParts(ir);
    return (await countTokens(text, ir.model)) + tokens;
  },
  errorBody: openAiErrorBody,
  streamError: openAiStreamError,
  streamEnd: OPENAI_STREAM_END,
};
