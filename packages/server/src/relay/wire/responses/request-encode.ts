// The neutral request → a POST /v1/responses body, for upstreams that speak the Responses API (OpenAI,
// Azure's /openai/v1/responses) when the client spoke another format.
import type {
  ChatMessage,
  ChatPart,
  ChatReasoningConfig,
  ChatRequest,
  ChatResponseFormat,
  ChatToolChoice,
} from '../../ir/chat.js';
import { RelayError } from '../../ir/errors.js';
import type { EncodeOptions } from '../types.js';
import { dataUrl } from './shared.js';
import type { Json } from './shared.js';

function userContent(part: ChatPart): Json {
  switch (part.type) {
    case 'text':
      return { type: 'input_text', text: part.text };
    case 'image':
      return {
        type: 'input_image',
        image_url: part.url ?? dataUrl(part.mediaType, part.data ?? ''),
        detail: 'auto',
      };
    case 'document':
      if (part.text !== undefined) {
        return { type: 'input_text', text: part.title ? `${part.title}\n\n${part.text}` : part.text };
      }
      return part.url !== undefined
        ? { type: 'input_file', file_url: part.url }
        : {
            type: 'input_file',
            file_data: dataUrl(part.mediaType, part.data ?? ''),
            filename: part.title ?? 'document',
          };
    case 'audio':
      throw new RelayError(
        400,
        'audio input cannot be sent to a Responses API upstream',
        'unsupported_value',
      );
    default:
      throw new RelayError(400, `a user message cannot carry a ${part.type} part`, 'invalid_request');
  }
}

function functionOutput(part: Extract<ChatPart, { type: 'tool_result' }>): Json {
  const onlyText = part.content.every((c) => c.type === 'text');
  return {
    type: 'function_call_output',
    call_id: part.toolCallId,
    output: onlyText
      ? part.content.map((c) => (c.type === 'text' ? c.text : '')).join('')
      : part.content.map(userContent),
  };
}

/**
 * An assistant turn as items: text as assistant messages, tool calls as function_call items.
 * Reasoning is left out: its signature may be another vendor's (Anthropic's, Gemini's), which OpenAI
 * refuses as encrypted_content, and OpenAI continues a conversation without its earlier reasoning.
 */
function assistantItems(message: ChatMessage, items: Json[]): void {
  let text: string | undefined;
  const flush = (): void => {
    if (text !== undefined) items.push({ type: 'message', role: 'assistant', content: text });
    text = undefined;
  };
  for (const part of message.parts) {
    if (part.type === 'text') text = (text ?? '') + part.text;
    else if (part.type === 'tool_call') {
      flush();
      items.push({ type: 'function_call', call_id: part.id, name: part.name, arguments: part.arguments });
    }
  }
  flush();
}

function inputItems(messages: ChatMessage[]): Json[] {
  const items: Json[] = [];
  for (const message of messages) {
    if (message.role === 'assistant') assistantItems(message, items);
    else if (message.role === 'tool') {
      for (const part of message.parts) if (part.type === 'tool_result') items.push(functionOutput(part));
    } else {
      const results = message.parts.filter((p) => p.type === 'tool_result');
      for (const part of results) items.push(functionOutput(part));
      const content = message.parts.filter((p) => p.type !== 'tool_result').map(userContent);
      if (content.length > 0) items.push({ type: 'message', role: 'user', content });
    }
  }
  return items;
}

function toolChoice(choice: ChatToolChoice | undefined): unknown {
  if (choice === undefined) return undefined;
  return choice.type === 'tool' ? { type: 'function', name: choice.name } : choice.type;
}

function textFormat(format: ChatResponseFormat | undefined): Json | undefined {
  if (format === undefined) return undefined;
  if (format.type === 'json_object') return { format: { type: 'json_object' } };
  return {
    format: { type: 'json_schema', name: format.name, schema: format.schema, strict: format.strict },
  };
}

/** A thinking budget on OpenAI's effort scale; a budget of 0 (thinking off) sends no reasoning. */
function reasoning(config: ChatReasoningConfig | undefined): Json | undefined {
  if (config === undefined || config.budgetTokens === 0) return undefined;
  const budget = config.budgetTokens;
  const effort =
    config.effort ??
    (budget === undefined ? undefined : budget <= 1024 ? 'low' : budget <= 8192 ? 'medium' : 'high');
  return effort === undefined ? undefined : { effort };
}

export function encodeResponsesRequest(
  request: ChatRequest,
  options: EncodeOptions,
): Record<string, unknown> {
  const instructions = request.system.map((s) => s.text).join('\n\n');
  return {
    model: options.model,
    input: inputItems(request.messages),
    instructions: instructions === '' ? undefined : instructions,
    // Responses function tools are strict unless told otherwise, and a strict schema must list every
    // property as required; other formats' schemas rarely do, so strict is off.
    tools:
      request.tools.length === 0
        ? undefined
        : request.tools.map((t) => ({
            type: 'function',
            name: t.name,
            description: t.description,
            parameters: t.parameters,
            strict: false,
          })),
    tool_choice: toolChoice(request.toolChoice),
    parallel_tool_calls: request.parallelToolCalls,
    text: textFormat(request.responseFormat),
    reasoning: reasoning(request.reasoning),
    max_output_tokens: options.maxOutputTokens ?? request.maxOutputTokens,
    temperature: request.temperature,
    top_p: request.topP,
    stream: request.stream,
    user: request.user,
    // Sluice keeps no conversation state at OpenAI: every call carries its whole input.
    store: false,
  };
}
