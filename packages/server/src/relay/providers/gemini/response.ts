// Reading Gemini answers: a generateContent answer's usage and text (and its neutral form for a client
// of another dialect), and Google's error shape.
import type { ChatRequest } from '../../ir/chat.js';
import { geminiCodec } from '../../wire/gemini/index.js';
import type { ParsedResponse, UpstreamErrorInfo } from '../types.js';
import { isRecord } from '../../wire/json.js';

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

const MAX_ERROR_TEXT = 500;

/** A generateContent answer: usage from usageMetadata (thoughts and cached tokens included). */
export function parseGeminiResponse(body: Buffer, chat?: ChatRequest): ParsedResponse {
  const answer = geminiCodec.decodeAnswer(JSON.parse(body.toString('utf8')));
  let text = '';
  for (const part of answer.parts) text += part.type === 'tool_call' ? part.name + part.arguments : part.text;
  return { usage: answer.usage, text, body, answer: chat ? answer : undefined };
}

/** The reason of a google.rpc.ErrorInfo detail (API_KEY_INVALID, …), which says more than the status. */
function errorReason(details: unknown): string | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) {
    if (isRecord(detail) && String(detail['@type']).endsWith('google.rpc.ErrorInfo')) {
      return str(detail.reason);
    }
  }
  return undefined;
}

/**
 * Google's `{"error":{"code","message","status","details"}}` (wrapped in an array by a stream without
 * alt=sse): the status name (RESOURCE_EXHAUSTED, …) is the type, and the code is the ErrorInfo reason
 * when there is one (an invalid key is a 400 whose reason is API_KEY_INVALID), else the status name.
 */
export function parseGeminiError(status: number, body: Buffer): UpstreamErrorInfo {
  const text = body.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const first: unknown = Array.isArray(parsed) ? parsed[0] : parsed;
  const error = isRecord(first) && isRecord(first.error) ? first.error : undefined;
  const message = str(error?.message);
  if (error && message) {
    const name = str(error.status);
    return { message, type: name ?? 'upstream_error', code: errorReason(error.details) ?? name ?? null };
  }
  const trimmed = text.trim().slice(0, MAX_ERROR_TEXT);
  return {
    message: trimmed ? `upstream answered ${status}: ${trimmed}` : `upstream answered ${status}`,
    type: 'upstream_error',
    code: null,
  };
}
