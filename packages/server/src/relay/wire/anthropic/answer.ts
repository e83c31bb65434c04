// Whole (non-stream) Messages answers: an Anthropic upstream's body → ChatAnswer, and ChatAnswer →
// the Message object an Anthropic client expects.
import type { ChatAnswer, FinishReason, StreamIdentity } from '../../ir/chat.js';
import { emptyUsage } from '../../ir/usage.js';
import { isRecord, messageId, toolInput } from './shared.js';
import { anthropicUsage, encodeAnthropicUsage } from './usage.js';

type AnswerPart = ChatAnswer['parts'][number];

/** Anthropic's stop_reason → FinishReason; an unknown or missing one is a normal stop. */
export function finishReasonOf(stopReason: unknown): FinishReason {
  switch (stopReason) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default:
      // end_turn, stop_sequence, pause_turn (a server tool paused the turn; the text so far is whole).
      return 'stop';
  }
}

/** FinishReason → stop_reason. Which stop sequence matched is not known here, so `stop` is end_turn. */
export function stopReasonOf(reason: FinishReason): string {
  switch (reason) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    case 'stop':
      return 'end_turn';
  }
}

function answerPart(block: unknown): AnswerPart | undefined {
  if (!isRecord(block)) return undefined;
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? { type: 'text', text: block.text } : undefined;
    case 'thinking':
      return typeof block.thinking === 'string'
        ? {
            type: 'reasoning',
            text: block.thinking,
            signature:
              typeof block.signature === 'string' && block.signature !== '' ? block.signature : undefined,
            redacted: undefined,
          }
        : undefined;
    case 'redacted_thinking':
      return typeof block.data === 'string'
        ? { type: 'reasoning', text: '', signature: undefined, redacted: block.data }
        : undefined;
    case 'tool_use':
      return typeof block.id === 'string' && typeof block.name === 'string'
        ? { type: 'tool_call', id: block.id, name: block.name, arguments: JSON.stringify(block.input ?? {}) }
        : undefined;
    default:
      // Server tool blocks (server_tool_use, web_search_tool_result, …) have no neutral form.
      return undefined;
  }
}

export function decodeAnthropicAnswer(body: unknown): ChatAnswer {
  if (!isRecord(body) || body.type !== 'message' || !Array.isArray(body.content)) {
    throw new Error('the upstream answer is not an Anthropic message');
  }
  const parts: AnswerPart[] = [];
  for (const block of body.content) {
    const part = answerPart(block);
    if (part) parts.push(part);
  }
  return {
    id: typeof body.id === 'string' ? body.id : '',
    model: typeof body.model === 'string' ? body.model : '',
    parts,
    finishReason: finishReasonOf(body.stop_reason),
    usage: anthropicUsage(body.usage),
  };
}

function contentBlock(part: AnswerPart): Record<string, unknown> {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'reasoning':
      return part.redacted !== undefined
        ? { type: 'redacted_thinking', data: part.redacted }
        : { type: 'thinking', thinking: part.text, signature: part.signature ?? '' };
    case 'tool_call':
      return { type: 'tool_use', id: part.id, name: part.name, input: toolInput(part.arguments) };
  }
}

export function encodeAnthropicAnswer(answer: ChatAnswer, identity: StreamIdentity): Record<string, unknown> {
  return {
    id: messageId(identity.id),
    type: 'message',
    role: 'assistant',
    model: identity.model,
    content: answer.parts.map(contentBlock),
    stop_reason: stopReasonOf(answer.finishReason),
    stop_sequence: null,
    usage: encodeAnthropicUsage(answer.usage ?? emptyUsage()),
  };
}
