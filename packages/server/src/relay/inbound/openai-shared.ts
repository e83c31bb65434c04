// Pieces every OpenAI-format endpoint shares: the error shape, stream framing and request fields.
import { z } from 'zod';
import type { IrError } from '../ir/errors.js';
import { RelayError } from '../ir/errors.js';
import { SSE_DONE, sseData } from '../sse.js';

export const openAiErrorBody = (error: IrError) => ({
  error: { message: error.message, type: error.type, code: error.code },
});

export const openAiStreamError = (error: IrError): string => sseData(JSON.stringify(openAiErrorBody(error)));

export const OPENAI_STREAM_END = SSE_DONE;

/** Fields every OpenAI generation request may carry; everything else passes through untouched. */
export const generationFields = {
  model: z.string({ error: 'model is required' }).min(1, { error: 'model is required' }),
  stream: z.boolean({ error: 'stream must be true or false' }).nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  max_tokens: z.number().int().min(0, { error: 'max_tokens must not be negative' }).nullish(),
  max_completion_tokens: z.number().int().min(0).nullish(),
};

export function parseOrThrow<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new RelayError(400, 'the request body must be a JSON object', 'invalid_request');
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.join('.') ?? '';
  const message = issue?.message ?? 'invalid request';
  throw new RelayError(
    400,
    field !== '' && !message.startsWith(field) ? `${field}: ${message}` : message,
    'invalid_request',
  );
}

/** Characters of text in a string or an array of content parts ({type:'text', text}). */
export function contentLength(content: unknown): number {
  if (typeof content === 'string') return content.length;
  if (!Array.isArray(content)) return 0;
  let length = 0;
  for (const part of content) {
    if (typeof part === 'string') length += part.length;
    else if (
      typeof part === 'object' &&
      part !== null &&
      typeof (part as { text?: unknown }).text === 'string'
    ) {
      length += (part as { text: string }).text.length;
    }
  }
  return length;
}

export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) =>
      typeof part === 'string'
        ? part
        : typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string'
          ? (part as { text: string }).text
          : '',
    )
    .join('');
}

/** About four characters per token, rounded up: a hold, not a bill. */
export const estimateTokens = (characters: number): number => Math.ceil(characters / 4);
