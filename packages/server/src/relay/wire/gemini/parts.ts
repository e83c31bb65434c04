// A model turn's parts both ways: Gemini's parts (text, thought, functionCall, each possibly carrying a
// thoughtSignature) ⇄ the IR's text, reasoning and tool calls. A signature Gemini puts on a text or
// functionCall part travels in the IR as a reasoning part with no text just before that part, so it
// can be put back where it was (Gemini 3 refuses a replayed functionCall without it).
import type { ChatPart, ChatReasoning, ChatText, ChatToolCall } from '../../ir/chat.js';
import type { Json } from './shared.js';
import { SKIP_THOUGHT_SIGNATURE, isRecord, str, toolArgs } from './shared.js';

export type AnswerPart = ChatText | ChatReasoning | ChatToolCall;

/**
 * Gemini parts → IR parts. `callId(n)` names the n-th functionCall (counting from `firstCall`, for
 * streams) when Gemini sent it without an id. Parts the IR has no place for in an answer (inline
 * images, code execution) are skipped.
 */
export function readModelParts(parts: unknown, callId: (n: number) => string, firstCall = 0): AnswerPart[] {
  const out: AnswerPart[] = [];
  if (!Array.isArray(parts)) return out;
  let calls = firstCall;
  for (const part of parts) {
    if (!isRecord(part)) continue;
    const signature = str(part.thoughtSignature) || undefined;
    const text = str(part.text);
    if (part.thought === true) {
      if ((text !== undefined && text !== '') || signature !== undefined) {
        out.push({ type: 'reasoning', text: text ?? '', signature });
      }
      continue;
    }
    const call = isRecord(part.functionCall) ? part.functionCall : undefined;
    if (signature !== undefined && (call !== undefined || text !== undefined)) {
      out.push({ type: 'reasoning', text: '', signature });
    }
    if (call !== undefined) {
      const args = isRecord(call.args) ? call.args : {};
      out.push({
        type: 'tool_call',
        id: str(call.id) || callId(calls),
        name: str(call.name) ?? '',
        arguments: JSON.stringify(args),
      });
      calls += 1;
    } else if (text !== undefined && text !== '') {
      out.push({ type: 'text', text });
    }
  }
  return out;
}

/**
 * IR parts → a model turn's Gemini parts. Reasoning with text becomes a thought part; a
 * signature-only reasoning part goes onto the part after it. With `sentinel` (requests to Gemini), a
 * turn's first functionCall that has lost its signature gets Google's documented sentinel instead.
 */
export function writeModelParts(
  parts: readonly ChatPart[],
  sentinel: boolean,
  media?: (part: ChatPart) => Json | undefined,
): Json[] {
  const out: Json[] = [];
  let pending: string | undefined;
  let sawCall = false;
  for (const part of parts) {
    if (part.type === 'reasoning') {
      if (part.text !== '') {
        out.push({ text: part.text, thought: true, thoughtSignature: part.signature });
      } else if (part.signature !== undefined) {
        if (pending !== undefined) out.push({ text: '', thoughtSignature: pending });
        pending = part.signature;
      }
    } else if (part.type === 'tool_call') {
      const signature = pending ?? (sentinel && !sawCall ? SKIP_THOUGHT_SIGNATURE : undefined);
      out.push({
        functionCall: { id: part.id, name: part.name, args: toolArgs(part.arguments) },
        thoughtSignature: signature,
      });
      pending = undefined;
      sawCall = true;
    } else if (part.type === 'text') {
      if (part.text === '' && pending === undefined) continue;
      out.push({ text: part.text, thoughtSignature: pending });
      pending = undefined;
    } else {
      const encoded = media?.(part);
      if (encoded) out.push(encoded);
    }
  }
  if (pending !== undefined) out.push({ text: '', thoughtSignature: pending });
  return out;
}
