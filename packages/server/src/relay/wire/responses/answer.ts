// Whole (non-stream) answers: a Responses API Response ↔ the neutral answer.
import type {
  ChatAnswer,
  ChatReasoning,
  ChatText,
  ChatToolCall,
  FinishReason,
  StreamIdentity,
} from '../../ir/chat.js';
import {
  customToolCallItem,
  functionCallItem,
  isRecord,
  itemId,
  messageItem,
  reasoningItem,
  responseObject,
  responsesUsage,
  str,
} from './shared.js';
import type { IncompleteReason, Json } from './shared.js';
import { clientTool, freeformInput } from './tool-names.js';

/** Why a finished answer is incomplete, in the Responses API's words (undefined: it is complete). */
export const incompleteReason = (finish: FinishReason | undefined): IncompleteReason | undefined =>
  finish === 'length' ? 'max_output_tokens' : finish === 'content_filter' ? 'content_filter' : undefined;

/** A tool call as the client's item: a function call (in its namespace) or a custom tool call. */
function toolCallItem(call: ChatToolCall, identity: StreamIdentity, index: number, status: string): Json {
  const tool = clientTool(call.name);
  return tool.kind === 'custom'
    ? customToolCallItem(
        itemId(identity.id, 'ctc', index),
        status,
        call.id,
        tool.name,
        tool.namespace,
        freeformInput(call.arguments),
      )
    : functionCallItem(
        itemId(identity.id, 'fc', index),
        status,
        call.id,
        tool.name,
        tool.namespace,
        call.arguments,
      );
}

export function encodeResponsesAnswer(answer: ChatAnswer, identity: StreamIdentity): Record<string, unknown> {
  const reason = incompleteReason(answer.finishReason);
  const output: Json[] = [];
  const parts = answer.parts;
  // Only the last item can have been cut short.
  const statusAt = (i: number): string =>
    reason !== undefined && i === parts.length - 1 ? 'incomplete' : 'completed';
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const index = output.length;
    if (part.type === 'text') {
      // Consecutive text parts are one message.
      let text = part.text;
      while (parts[i + 1]?.type === 'text') text += (parts[++i] as ChatText).text;
      output.push(messageItem(itemId(identity.id, 'msg', index), statusAt(i), text));
    } else if (part.type === 'reasoning') {
      // Anthropic's redacted thinking has nothing a Responses client can show or send back.
      if (part.text === '' && part.signature === undefined) continue;
      output.push(reasoningItem(itemId(identity.id, 'rs', index), part.text, part.signature));
    } else {
      output.push(toolCallItem(part, identity, index, statusAt(i)));
    }
  }
  return responseObject(
    { id: identity.id, model: answer.model, created: identity.created },
    reason === undefined ? 'completed' : 'incomplete',
    reason,
    output,
    answer.usage,
  );
}

const texts = (list: unknown): string[] =>
  Array.isArray(list) ? list.flatMap((p) => (isRecord(p) && typeof p.text === 'string' ? [p.text] : [])) : [];

/** A reasoning item's text: its summary, or the raw reasoning text some Responses servers send instead. */
export function reasoningText(item: Json): string {
  const summary = texts(item.summary).filter((t) => t !== '');
  return (summary.length > 0 ? summary : texts(item.content)).join('\n\n');
}

function outputParts(output: unknown[]): (ChatText | ChatReasoning | ChatToolCall)[] {
  const parts: (ChatText | ChatReasoning | ChatToolCall)[] = [];
  for (const item of output) {
    if (!isRecord(item)) continue;
    if (item.type === 'message' && Array.isArray(item.content)) {
      for (const c of item.content) {
        if (!isRecord(c)) continue;
        if (c.type === 'output_text' && typeof c.text === 'string')
          parts.push({ type: 'text', text: c.text });
        if (c.type === 'refusal' && typeof c.refusal === 'string')
          parts.push({ type: 'text', text: c.refusal });
      }
    } else if (item.type === 'reasoning') {
      const text = reasoningText(item);
      const signature = str(item.encrypted_content);
      if (text !== '' || signature !== undefined) parts.push({ type: 'reasoning', text, signature });
    } else if (item.type === 'function_call') {
      parts.push({
        type: 'tool_call',
        id: str(item.call_id) ?? '',
        name: str(item.name) ?? '',
        arguments: str(item.arguments) ?? '',
      });
    }
    // Hosted-tool items (web_search_call, …) cannot occur: Sluice sends function tools only.
  }
  return parts;
}

/** The finish reason of a Response: why it is incomplete, or whether it ends in function calls. */
export function finishReason(response: Json, incomplete: boolean, hasToolCalls: boolean): FinishReason {
  const reason = isRecord(response.incomplete_details) ? response.incomplete_details.reason : undefined;
  if (incomplete) return reason === 'content_filter' ? 'content_filter' : 'length';
  return hasToolCalls ? 'tool_calls' : 'stop';
}

/** The upstream's message for a failed Response. */
export const failureMessage = (response: Json): string => {
  const error = isRecord(response.error) ? str(response.error.message) : undefined;
  return error ? `the upstream response failed: ${error}` : 'the upstream response failed';
};

export function decodeResponsesAnswer(body: unknown): ChatAnswer {
  if (!isRecord(body) || !Array.isArray(body.output))
    throw new Error('the answer is not a Responses API response');
  if (body.status === 'failed') throw new Error(failureMessage(body));
  const parts = outputParts(body.output);
  return {
    id: str(body.id) ?? '',
    model: str(body.model) ?? '',
    parts,
    finishReason: finishReason(
      body,
      body.status === 'incomplete',
      parts.some((p) => p.type === 'tool_call'),
    ),
    usage: responsesUsage(body.usage),
  };
}
