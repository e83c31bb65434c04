// Gemini streams (:streamGenerateContent?alt=sse) → neutral stream events. Each SSE data event is a
// partial GenerateContentResponse: the parts generated since the last one, cumulative usage, and a
// finishReason on the last. A functionCall always arrives whole in one part. There is no end marker.
import type { ChatDelta } from '../../ir/chat.js';
import type { IrUsage } from '../../ir/usage.js';
import type { SseEvent } from '../../sse.js';
import type { ChatStreamDecoder, DecodedStreamEvent } from '../types.js';
import { generatedCallId, promptBlocked } from './answer.js';
import { readModelParts } from './parts.js';
import { finishFromGemini, finishReasonOf, geminiUsage, isRecord, str } from './shared.js';

/** Every event is built by this one literal, its fields always present and in one order. */
const decoded = (
  deltas: ChatDelta[],
  usage: IrUsage | undefined,
  usageOnly: boolean,
  finished: boolean,
  text: string,
  error: string | undefined,
): DecodedStreamEvent => ({ deltas, usage, usageOnly, finished, done: false, text, error });

function errorMessage(error: Record<string, unknown>): string {
  const message = str(error.message) ?? 'upstream error';
  const status = str(error.status);
  return status ? `${status}: ${message}` : message;
}

export function createGeminiStreamDecoder(): ChatStreamDecoder {
  /** Tool calls seen so far: the index of the next one, and whether STOP means tool_calls. */
  let calls = 0;
  return {
    decode(event: SseEvent): DecodedStreamEvent {
      const data = event.data;
      if (data === undefined || data.length === 0) return decoded([], undefined, false, false, '', undefined);
      let chunk: unknown;
      try {
        chunk = JSON.parse(data);
      } catch {
        return decoded([], undefined, false, false, '', 'the upstream sent an event that is not valid JSON');
      }
      if (!isRecord(chunk)) {
        return decoded(
          [],
          undefined,
          false,
          false,
          '',
          'the upstream sent an event that is not a JSON object',
        );
      }
      if (isRecord(chunk.error)) return decoded([], undefined, false, false, '', errorMessage(chunk.error));

      const usage = geminiUsage(chunk.usageMetadata);
      const candidates = Array.isArray(chunk.candidates) ? chunk.candidates : [];
      const candidate: unknown = candidates[0];
      const deltas: ChatDelta[] = [];
      let text = '';
      const content = isRecord(candidate) && isRecord(candidate.content) ? candidate.content : undefined;
      for (const part of readModelParts(content?.parts, generatedCallId(str(chunk.responseId)), calls)) {
        if (part.type === 'tool_call') {
          deltas.push({
            type: 'tool_call',
            index: calls,
            id: part.id,
            name: part.name,
            arguments: part.arguments,
          });
          calls += 1;
          text += part.name + part.arguments;
        } else {
          deltas.push(part);
          text += part.text;
        }
      }

      const reason = finishReasonOf(candidate);
      const blocked = candidate === undefined && promptBlocked(chunk);
      if (reason !== undefined) deltas.push({ type: 'finish', reason: finishFromGemini(reason, calls > 0) });
      else if (blocked) deltas.push({ type: 'finish', reason: 'content_filter' });
      const usageOnly = candidate === undefined && !blocked && isRecord(chunk.usageMetadata);
      return decoded(deltas, usage, usageOnly, reason !== undefined || blocked, text, undefined);
    },
  };
}
