// Neutral stream steps → a Gemini stream (alt=sse) for a Gemini client: one partial
// GenerateContentResponse per step, a last one with the finishReason and usage, and no end marker.
import type { ChatDelta, FinishReason, StreamIdentity } from '../../ir/chat.js';
import type { IrError } from '../../ir/errors.js';
import type { IrUsage } from '../../ir/usage.js';
import type { ChatStreamEncoder } from '../types.js';
import type { Json } from './shared.js';
import { encodeGeminiUsage, finishToGemini, geminiErrorBody, geminiSse, toolArgs } from './shared.js';

interface PendingCall {
  id: string;
  name: string;
  args: string;
  signature: string | undefined;
}

/**
 * Gemini clients always get usage (Gemini sends it unasked), so `includeUsage` is not read. Tool calls
 * arrive in pieces but Gemini sends each functionCall whole, so they are held until the finish step
 * (or the end) and sent then.
 */
export function createGeminiStreamEncoder(
  identity: StreamIdentity,
  _options: { includeUsage: boolean },
): ChatStreamEncoder {
  const calls = new Map<number, PendingCall>();
  /** A signature-only reasoning step, waiting for the part it belongs to. */
  let signature: string | undefined;
  let finish: FinishReason = 'stop';

  const takeSignature = (): string | undefined => {
    const taken = signature;
    signature = undefined;
    return taken;
  };

  const event = (parts: Json[], finishReason: string | undefined, usage: IrUsage | undefined): string =>
    geminiSse({
      candidates: [{ content: { role: 'model', parts }, finishReason, index: 0 }],
      usageMetadata: usage ? encodeGeminiUsage(usage) : undefined,
      modelVersion: identity.model,
      responseId: identity.id,
    });

  const flushCalls = (parts: Json[]): void => {
    for (const call of calls.values()) {
      parts.push({
        functionCall: { id: call.id, name: call.name, args: toolArgs(call.args) },
        thoughtSignature: call.signature,
      });
    }
    calls.clear();
  };

  const addCall = (delta: Extract<ChatDelta, { type: 'tool_call' }>): void => {
    const call = calls.get(delta.index);
    if (call) {
      call.args += delta.arguments;
      if (delta.id) call.id = delta.id;
      if (delta.name) call.name = delta.name;
      return;
    }
    calls.set(delta.index, {
      id: delta.id ?? `call_${delta.index}`,
      name: delta.name ?? '',
      args: delta.arguments,
      signature: takeSignature(),
    });
  };

  return {
    push(deltas) {
      const parts: Json[] = [];
      for (const delta of deltas) {
        switch (delta.type) {
          case 'text':
            if (delta.text !== '') parts.push({ text: delta.text, thoughtSignature: takeSignature() });
            break;
          case 'reasoning':
            if (delta.text !== '') {
              parts.push({ text: delta.text, thought: true, thoughtSignature: delta.signature });
            } else if (delta.signature !== undefined) {
              if (signature !== undefined) parts.push({ text: '', thoughtSignature: signature });
              signature = delta.signature;
            }
            break;
          case 'tool_call':
            addCall(delta);
            break;
          case 'finish':
            flushCalls(parts);
            finish = delta.reason;
            break;
        }
      }
      return parts.length > 0 ? event(parts, undefined, undefined) : '';
    },

    end(usage) {
      const parts: Json[] = [];
      flushCalls(parts);
      const left = takeSignature();
      if (left !== undefined) parts.push({ text: '', thoughtSignature: left });
      return event(parts, finishToGemini(finish), usage);
    },

    error(error: IrError) {
      return geminiSse(geminiErrorBody(error));
    },
  };
}
