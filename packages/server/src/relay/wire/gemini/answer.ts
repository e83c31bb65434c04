// Gemini generateContent answers ⇄ the neutral chat answer.
import type { ChatAnswer, FinishReason, StreamIdentity } from '../../ir/chat.js';
import { readModelParts, writeModelParts } from './parts.js';
import {
  encodeGeminiUsage,
  finishFromGemini,
  finishReasonOf,
  finishToGemini,
  geminiUsage,
  isRecord,
  str,
} from './shared.js';

/**
 * An id for a functionCall Gemini sent without one: `call_<n>`, with the answer's responseId when
 * there is one so that calls of later turns do not reuse the ids of earlier ones.
 */
export const generatedCallId =
  (responseId: string | undefined) =>
  (n: number): string =>
    responseId ? `call_${responseId}_${n}` : `call_${n}`;

/** Why a chunk without candidates ended the answer: a prompt blocked before any generation. */
export const promptBlocked = (body: Record<string, unknown>): boolean =>
  isRecord(body.promptFeedback) && str(body.promptFeedback.blockReason) !== undefined;

/**
 * A Gemini answer → ChatAnswer, from its first candidate. A prompt Gemini blocked (promptFeedback.
 * blockReason, no candidates) is an answer with no parts that ended in content_filter.
 */
export function decodeGeminiAnswer(body: unknown): ChatAnswer {
  if (!isRecord(body)) throw new Error('the Gemini answer is not a JSON object');
  const candidates = Array.isArray(body.candidates) ? body.candidates : [];
  const candidate: unknown = candidates[0];
  if (!isRecord(candidate) && !promptBlocked(body)) throw new Error('the Gemini answer has no candidates');
  const responseId = str(body.responseId);
  const content = isRecord(candidate) && isRecord(candidate.content) ? candidate.content : undefined;
  const parts = readModelParts(content?.parts, generatedCallId(responseId));
  const reason = finishReasonOf(candidate);
  const hadToolCalls = parts.some((part) => part.type === 'tool_call');
  let finishReason: FinishReason;
  if (!isRecord(candidate)) finishReason = 'content_filter';
  else finishReason = finishFromGemini(reason ?? 'STOP', hadToolCalls);
  return {
    id: responseId ?? '',
    model: str(body.modelVersion) ?? '',
    parts,
    finishReason,
    usage: geminiUsage(body.usageMetadata),
  };
}

/** A ChatAnswer as a GenerateContentResponse for a Gemini client. */
export function encodeGeminiAnswer(answer: ChatAnswer, identity: StreamIdentity): Record<string, unknown> {
  return {
    candidates: [
      {
        content: { role: 'model', parts: writeModelParts(answer.parts, false) },
        finishReason: finishToGemini(answer.finishReason),
        index: 0,
      },
    ],
    usageMetadata: answer.usage ? encodeGeminiUsage(answer.usage) : undefined,
    modelVersion: identity.model,
    responseId: identity.id,
  };
}
