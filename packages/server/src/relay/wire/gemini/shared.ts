// Pieces the Gemini codec's request, answer and stream halves share: finish reasons, usage, the error
// body, SSE framing and media types. Field names follow @google/genai's types (src/types.ts).
import type { FinishReason } from '../../ir/chat.js';
import type { IrError } from '../../ir/errors.js';
import { upstreamTokenCount } from '../../ir/usage.js';
import type { IrUsage } from '../../ir/usage.js';

import { isRecord, parseDataUrl, str, toolArguments } from '../json.js';
import type { Json } from '../json.js';

export { isRecord, parseDataUrl, str, type Json };

/**
 * The signature Google's own Gemini CLI puts on a model turn's first functionCall when the real one is
 * lost: Gemini 3 answers 400 to a replayed functionCall without a thoughtSignature, and this value is
 * let through. History that went through another vendor's format loses the real signatures.
 */
export const SKIP_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';

/** One event of a Gemini stream (alt=sse): Google frames them with CRLF. */
export const geminiSse = (payload: unknown): string => `data: ${JSON.stringify(payload)}\r\n\r\n`;

/** A tool call's JSON arguments as the object Gemini's `args` must be; anything else becomes {}. */
export const toolArgs = toolArguments;

// ---- finish reasons ----

/** Gemini's FinishReason values that mean the answer was blocked or cut by a content filter. */
const FILTERED = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
]);

/**
 * A candidate's finishReason in the IR. Gemini ends a turn with function calls with STOP, so the
 * caller says whether the answer held any. LANGUAGE, OTHER and the malformed-call reasons have no
 * neutral equivalent and read as a plain stop.
 */
export function finishFromGemini(reason: string, hadToolCalls: boolean): FinishReason {
  if (reason === 'MAX_TOKENS') return 'length';
  if (FILTERED.has(reason)) return 'content_filter';
  return hadToolCalls ? 'tool_calls' : 'stop';
}

const FINISH_OUT: Readonly<Record<FinishReason, string>> = {
  stop: 'STOP',
  length: 'MAX_TOKENS',
  tool_calls: 'STOP',
  content_filter: 'SAFETY',
};

export const finishToGemini = (reason: FinishReason): string => FINISH_OUT[reason];

/** A non-empty finishReason other than the unspecified value, as a stream's last chunk carries. */
export const finishReasonOf = (candidate: unknown): string | undefined => {
  const reason = isRecord(candidate) ? str(candidate.finishReason) : undefined;
  return reason !== undefined && reason !== '' && reason !== 'FINISH_REASON_UNSPECIFIED' ? reason : undefined;
};

// ---- usage ----

/**
 * Gemini's usageMetadata as IrUsage, or undefined (Sluice counts itself) when a count is not
 * believable. promptTokenCount already includes cachedContentTokenCount. candidatesTokenCount
 * excludes thoughts, so completion = candidates + thoughts. toolUsePromptTokenCount (input the
 * server-side tools such as Google Search fed the model) is counted as prompt: totalTokenCount is
 * documented as the sum of prompt, candidates, tool-use prompt and thoughts.
 */
export function geminiUsage(usageMetadata: unknown): IrUsage | undefined {
  if (!isRecord(usageMetadata)) return undefined;
  const prompt = upstreamTokenCount(usageMetadata.promptTokenCount);
  const toolPrompt = upstreamTokenCount(usageMetadata.toolUsePromptTokenCount);
  const candidates = upstreamTokenCount(usageMetadata.candidatesTokenCount);
  const thoughts = upstreamTokenCount(usageMetadata.thoughtsTokenCount);
  const cached = upstreamTokenCount(usageMetadata.cachedContentTokenCount);
  if (prompt === null || toolPrompt === null || candidates === null || thoughts === null || cached === null) {
    return undefined;
  }
  const promptTokens = prompt + toolPrompt;
  return {
    promptTokens,
    completionTokens: candidates + thoughts,
    cachedTokens: Math.min(cached, promptTokens),
    reasoningTokens: thoughts > 0 ? thoughts : undefined,
  };
}

/** IrUsage as Gemini's usageMetadata: candidatesTokenCount without thoughts, zero detail counts left out. */
export function encodeGeminiUsage(usage: IrUsage) {
  const thoughts = Math.min(usage.reasoningTokens ?? 0, usage.completionTokens);
  return {
    promptTokenCount: usage.promptTokens,
    candidatesTokenCount: usage.completionTokens - thoughts,
    totalTokenCount: usage.promptTokens + usage.completionTokens,
    cachedContentTokenCount: usage.cachedTokens > 0 ? usage.cachedTokens : undefined,
    thoughtsTokenCount: thoughts > 0 ? thoughts : undefined,
  };
}

// ---- errors ----

/** google.rpc.Code names by the HTTP status Google answers them with. */
const STATUS_NAMES: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  408: 'DEADLINE_EXCEEDED',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

const statusName = (status: number): string =>
  STATUS_NAMES[status] ?? (status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT');

/** An error in Google's shape: {"error":{"code": <HTTP status>, "message", "status": <canonical name>}}. */
export const geminiErrorBody = (error: IrError) => ({
  error: { code: error.status, message: error.message, status: statusName(error.status) },
});

// ---- media types ----

const extension = (url: string): string => {
  const path = url.split(/[?#]/, 1)[0] ?? '';
  const dot = path.lastIndexOf('.');
  return dot > path.lastIndexOf('/') ? path.slice(dot + 1).toLowerCase() : '';
};

const IMAGE_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  heic: 'image/heic',
  heif: 'image/heif',
};

const DOCUMENT_TYPES: Readonly<Record<string, string>> = {
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
  html: 'text/html',
  csv: 'text/csv',
  xml: 'text/xml',
};

/** An image's media type from its URL's extension; JPEG when it has none Gemini knows. */
export const imageMimeOf = (url: string): string => IMAGE_TYPES[extension(url)] ?? 'image/jpeg';

/** A document's media type from its URL's extension; PDF when it has none Gemini knows. */
export const documentMimeOf = (url: string): string => DOCUMENT_TYPES[extension(url)] ?? 'application/pdf';

/** The media type a URL's extension names, if it is one of the image or document types above. */
export const knownMimeOf = (url: string): string | undefined =>
  IMAGE_TYPES[extension(url)] ?? DOCUMENT_TYPES[extension(url)];

/** An audio media type's format name as OpenAI's input_audio spells it (audio/mpeg → mp3). */
export function audioFormatOf(mimeType: string): string {
  const subtype = (mimeType.split('/')[1] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (subtype === 'mpeg' || subtype === 'mpga') return 'mp3';
  if (subtype === 'x-wav' || subtype === 'wave') return 'wav';
  return subtype;
}
