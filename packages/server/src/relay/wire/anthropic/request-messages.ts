// Neutral messages → Anthropic's `messages`: alternating user/assistant turns of content blocks, in the
// forms Anthropic accepts (it refuses empty text blocks, empty turns, tool results after other content,
// and tool names or ids outside its character set).
import type { ChatDocument, ChatImage, ChatMessage, ChatPart } from '../../ir/chat.js';
import { RelayError } from '../../ir/errors.js';
import type { Json } from './shared.js';
import { toolInput } from './shared.js';

export interface AnthropicTurn {
  role: 'user' | 'assistant';
  content: Json[];
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * A tool name Anthropic accepts (^[a-zA-Z0-9_-]{1,64}$): other characters become _, the rest is cut
 * at 64. Deterministic, so tools, tool_choice and tool_use blocks of one request always agree.
 */
export function anthropicToolName(name: string): string {
  if (TOOL_NAME.test(name)) return name;
  const cleaned = name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
  return cleaned === '' ? '_' : cleaned;
}

/** A tool_use id Anthropic accepts (^[a-zA-Z0-9_-]+$); tool_use and tool_result blocks use the same one. */
const toolUseId = (id: string): string => id.replace(/[^a-zA-Z0-9_-]/g, '_') || '_';

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

const base64Source = (mediaType: string, data: string): Json => ({
  type: 'base64',
  media_type: mediaType,
  data,
});

function imageBlock(image: ChatImage): Json | undefined {
  if (image.data !== undefined) {
    return { type: 'image', source: base64Source(image.mediaType ?? 'image/png', image.data) };
  }
  if (image.url === undefined) return undefined;
  // OpenAI clients inline images as data: URLs; Anthropic takes those only as base64 sources.
  const inline = DATA_URL.exec(image.url);
  if (inline) return { type: 'image', source: base64Source(inline[1] ?? 'image/png', inline[2] ?? '') };
  return { type: 'image', source: { type: 'url', url: image.url } };
}

function documentSource(doc: ChatDocument): Json | undefined {
  if (doc.text !== undefined) return { type: 'text', media_type: 'text/plain', data: doc.text };
  let mediaType = doc.mediaType;
  let data = doc.data;
  const inline = doc.url === undefined ? null : DATA_URL.exec(doc.url);
  if (inline) [mediaType, data] = [inline[1], inline[2]];
  if (data === undefined) return doc.url === undefined ? undefined : { type: 'url', url: doc.url };
  if (mediaType?.startsWith('text/')) {
    return { type: 'text', media_type: 'text/plain', data: Buffer.from(data, 'base64').toString('utf8') };
  }
  // Anthropic's inline documents are PDFs (base64) or plain text; it refuses any other file type.
  if (mediaType !== undefined && mediaType !== 'application/pdf') {
    throw new RelayError(
      400,
      `documents of type ${mediaType} cannot be sent to Anthropic models`,
      'invalid_request',
    );
  }
  return base64Source('application/pdf', data);
}

function block(part: ChatPart, role: ChatMessage['role']): Json | undefined {
  switch (part.type) {
    case 'text':
      return part.text === '' ? undefined : { type: 'text', text: part.text };
    case 'image':
      return imageBlock(part);
    case 'document': {
      const source = documentSource(part);
      return source === undefined ? undefined : { type: 'document', source, title: part.title };
    }
    case 'audio':
      throw new RelayError(400, 'audio input cannot be sent to Anthropic models', 'invalid_request');
    case 'reasoning':
      // Anthropic takes thinking back only as it gave it: signed, or redacted. Unsigned thinking (from
      // another vendor) would be refused, so it is left out.
      if (role !== 'assistant') return undefined;
      if (part.redacted !== undefined) return { type: 'redacted_thinking', data: part.redacted };
      return part.signature
        ? { type: 'thinking', thinking: part.text, signature: part.signature }
        : undefined;
    case 'tool_call':
      return {
        type: 'tool_use',
        id: toolUseId(part.id),
        name: anthropicToolName(part.name),
        input: toolInput(part.arguments),
      };
    case 'tool_result': {
      const content: Json[] = [];
      for (const inner of part.content) {
        const converted = inner.type === 'text' ? block(inner, role) : imageBlock(inner);
        if (converted) content.push(converted);
      }
      return {
        type: 'tool_result',
        tool_use_id: toolUseId(part.toolCallId),
        content: content.length > 0 ? content : undefined,
        is_error: part.isError,
      };
    }
  }
}

/**
 * Messages → turns. Consecutive messages of one role are merged (`tool` messages are user turns of
 * tool_result blocks); within a user turn the tool results come first, as Anthropic requires; a final
 * assistant turn (a prefill) loses its trailing whitespace, which Anthropic refuses.
 */
export function anthropicTurns(messages: readonly ChatMessage[]): AnthropicTurn[] {
  const turns: AnthropicTurn[] = [];
  for (const message of messages) {
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const content: Json[] = [];
    for (const part of message.parts) {
      const converted = block(part, message.role);
      if (converted) content.push(converted);
    }
    if (content.length === 0) continue;
    const last = turns.at(-1);
    if (last?.role === role) last.content.push(...content);
    else turns.push({ role, content });
  }
  for (const turn of turns) {
    if (turn.role === 'user' && turn.content.some((b) => b.type === 'tool_result')) {
      turn.content = [
        ...turn.content.filter((b) => b.type === 'tool_result'),
        ...turn.content.filter((b) => b.type !== 'tool_result'),
      ];
    }
  }
  const final = turns.at(-1);
  const tail = final?.role === 'assistant' ? final.content.at(-1) : undefined;
  if (final && tail?.type === 'text' && typeof tail.text === 'string') {
    const trimmed = tail.text.trimEnd();
    if (trimmed === '') final.content.pop();
    else final.content[final.content.length - 1] = { type: 'text', text: trimmed };
    if (final.content.length === 0) turns.pop();
  }
  return turns;
}

/**
 * Anthropic refuses thinking when the last assistant turn called tools without starting with a
 * thinking block, which is what a history from another vendor (no signatures) looks like.
 */
export function toolTurnLacksThinking(turns: readonly AnthropicTurn[]): boolean {
  for (let i = turns.length - 1; i >= 0; i--) {
    const turn = turns[i];
    if (turn?.role !== 'assistant') continue;
    const first = turn.content[0]?.type;
    return (
      turn.content.some((b) => b.type === 'tool_use') && first !== 'thinking' && first !== 'redacted_thinking'
    );
  }
  return false;
}
