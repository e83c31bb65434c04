// OpenAI Chat Completions requests ⇄ the neutral chat request.
import type {
  ChatImage,
  ChatMessage,
  ChatPart,
  ChatReasoningConfig,
  ChatRequest,
  ChatText,
  ChatTool,
  ChatToolChoice,
  ChatResponseFormat,
  ReasoningEffort,
} from '../../ir/chat.js';
import { RelayError } from '../../ir/errors.js';
import type { EncodeOptions } from '../types.js';
import { isRecord, num, parseDataUrl, str } from '../json.js';
import type { Json } from '../json.js';

const EFFORTS: ReadonlySet<string> = new Set(['minimal', 'low', 'medium', 'high']);

function imageFromUrl(url: string): ChatImage {
  const inline = parseDataUrl(url);
  return inline ? { type: 'image', data: inline.data, mediaType: inline.mediaType } : { type: 'image', url };
}

/** One content part of a user or system message. */
function decodePart(part: unknown): ChatPart | undefined {
  if (typeof part === 'string') return { type: 'text', text: part };
  if (!isRecord(part)) return undefined;
  switch (part.type) {
    case 'text':
      return { type: 'text', text: str(part.text) ?? '' };
    case 'image_url': {
      const url = isRecord(part.image_url) ? str(part.image_url.url) : str(part.image_url);
      return url ? imageFromUrl(url) : undefined;
    }
    case 'input_audio': {
      const audio = isRecord(part.input_audio) ? part.input_audio : {};
      return { type: 'audio', data: str(audio.data) ?? '', format: str(audio.format) ?? 'wav' };
    }
    case 'file': {
      const file = isRecord(part.file) ? part.file : {};
      const inline = parseDataUrl(str(file.file_data) ?? '');
      if (!inline) {
        throw new RelayError(
          400,
          'only inline files (file_data) can be sent through this gateway',
          'invalid_request',
        );
      }
      const title = str(file.filename);
      return {
        type: 'document',
        data: inline.data,
        mediaType: inline.mediaType,
        ...(title ? { title } : {}),
      };
    }
    default:
      return undefined;
  }
}

function decodeContent(content: unknown): ChatPart[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  const parts: ChatPart[] = [];
  for (const part of content) {
    const decoded = decodePart(part);
    if (decoded) parts.push(decoded);
  }
  return parts;
}

const textOf = (parts: ChatPart[]): string => parts.map((p) => (p.type === 'text' ? p.text : '')).join('');

function decodeAssistant(message: Json): ChatMessage {
  const parts: ChatPart[] = [];
  const reasoning = str(message.reasoning_content) ?? str(message.reasoning);
  if (reasoning) parts.push({ type: 'reasoning', text: reasoning });
  for (const part of decodeContent(message.content)) if (part.type === 'text') parts.push(part);
  if (Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls) {
      if (!isRecord(call) || !isRecord(call.function)) continue;
      parts.push({
        type: 'tool_call',
        id: str(call.id) ?? '',
        name: str(call.function.name) ?? '',
        arguments: str(call.function.arguments) ?? '{}',
      });
    }
  }
  return { role: 'assistant', parts };
}

function decodeToolChoice(choice: unknown): ChatToolChoice | undefined {
  if (choice === 'auto' || choice === 'none' || choice === 'required') return { type: choice };
  if (isRecord(choice) && isRecord(choice.function) && typeof choice.function.name === 'string') {
    return { type: 'tool', name: choice.function.name };
  }
  return undefined;
}

function decodeResponseFormat(format: unknown): ChatResponseFormat | undefined {
  if (!isRecord(format)) return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  if (format.type === 'json_schema' && isRecord(format.json_schema)) {
    const spec = format.json_schema;
    return {
      type: 'json_schema',
      name: str(spec.name) ?? 'response',
      schema: isRecord(spec.schema) ? spec.schema : {},
      ...(typeof spec.strict === 'boolean' ? { strict: spec.strict } : {}),
    };
  }
  return undefined;
}

function decodeTools(tools: unknown): ChatTool[] {
  if (!Array.isArray(tools)) return [];
  const out: ChatTool[] = [];
  for (const tool of tools) {
    if (!isRecord(tool) || tool.type !== 'function' || !isRecord(tool.function)) continue;
    const fn = tool.function;
    if (typeof fn.name !== 'string') continue;
    const description = str(fn.description);
    out.push({
      name: fn.name,
      ...(description ? { description } : {}),
      parameters: isRecord(fn.parameters) ? fn.parameters : { type: 'object', properties: {} },
    });
  }
  return out;
}

/** The body of POST /v1/chat/completions (already checked to have a model and messages). */
export function decodeOpenAiChatRequest(body: Readonly<Json>): ChatRequest {
  const system: ChatText[] = [];
  const messages: ChatMessage[] = [];
  for (const message of Array.isArray(body.messages) ? body.messages : []) {
    if (!isRecord(message)) continue;
    const role = message.role;
    if (role === 'system' || role === 'developer') {
      const text = textOf(decodeContent(message.content));
      if (text !== '') system.push({ type: 'text', text });
    } else if (role === 'assistant') {
      messages.push(decodeAssistant(message));
    } else if (role === 'tool') {
      const content = decodeContent(message.content).filter(
        (p): p is ChatText | ChatImage => p.type === 'text' || p.type === 'image',
      );
      messages.push({
        role: 'tool',
        parts: [{ type: 'tool_result', toolCallId: str(message.tool_call_id) ?? '', content }],
      });
    } else {
      messages.push({ role: 'user', parts: decodeContent(message.content) });
    }
  }
  const effort = str(body.reasoning_effort);
  const reasoning: ChatReasoningConfig | undefined =
    effort && EFFORTS.has(effort) ? { effort: effort as ReasoningEffort } : undefined;
  const stop = typeof body.stop === 'string' ? [body.stop] : Array.isArray(body.stop) ? body.stop : [];
  const toolChoice = decodeToolChoice(body.tool_choice);
  const responseFormat = decodeResponseFormat(body.response_format);
  return {
    model: str(body.model) ?? '',
    stream: body.stream === true,
    system,
    messages,
    tools: decodeTools(body.tools),
    ...(toolChoice ? { toolChoice } : {}),
    ...(typeof body.parallel_tool_calls === 'boolean' ? { parallelToolCalls: body.parallel_tool_calls } : {}),
    ...(responseFormat ? { responseFormat } : {}),
    ...optionalNumbers({
      maxOutputTokens: num(body.max_completion_tokens) ?? num(body.max_tokens),
      temperature: num(body.temperature),
      topP: num(body.top_p),
      presencePenalty: num(body.presence_penalty),
      frequencyPenalty: num(body.frequency_penalty),
      seed: num(body.seed),
    }),
    stop: stop.filter((s): s is string => typeof s === 'string'),
    ...(reasoning ? { reasoning } : {}),
    ...(typeof body.user === 'string' ? { user: body.user } : {}),
  };
}

/** The entries whose value is defined (optional fields stay absent rather than undefined). */
function optionalNumbers<T extends Record<string, number | undefined>>(
  values: T,
): Partial<Record<keyof T, number>> {
  const out: Partial<Record<keyof T, number>> = {};
  for (const key of Object.keys(values) as (keyof T)[]) {
    const value = values[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** A thinking budget as the effort OpenAI understands. */
export function effortForBudget(budget: number): ReasoningEffort {
  if (budget <= 1024) return 'low';
  if (budget <= 8192) return 'medium';
  return 'high';
}

function encodeUserPart(part: ChatPart): Json | undefined {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return {
        type: 'image_url',
        image_url: { url: part.url ?? `data:${part.mediaType ?? 'image/png'};base64,${part.data ?? ''}` },
      };
    case 'audio':
      return { type: 'input_audio', input_audio: { data: part.data, format: part.format } };
    case 'document':
      if (part.text !== undefined) return { type: 'text', text: part.text };
      if (part.data === undefined) return part.url ? { type: 'text', text: part.url } : undefined;
      return {
        type: 'file',
        file: {
          filename: part.title ?? 'document',
          file_data: `data:${part.mediaType ?? 'application/pdf'};base64,${part.data}`,
        },
      };
    default:
      return undefined;
  }
}

function encodeMessage(message: ChatMessage): Json[] {
  if (message.role === 'tool') {
    return message.parts.flatMap((part) =>
      part.type === 'tool_result'
        ? [{ role: 'tool', tool_call_id: part.toolCallId, content: textOf(part.content) }]
        : [],
    );
  }
  if (message.role === 'assistant') {
    const text = textOf(message.parts);
    const calls = message.parts.flatMap((part) =>
      part.type === 'tool_call'
        ? [{ id: part.id, type: 'function', function: { name: part.name, arguments: part.arguments } }]
        : [],
    );
    return [
      {
        role: 'assistant',
        content: text === '' && calls.length > 0 ? null : text,
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
      },
    ];
  }
  const onlyText = message.parts.every((p) => p.type === 'text');
  const content = onlyText
    ? textOf(message.parts)
    : message.parts.flatMap((p) => {
        const encoded = encodeUserPart(p);
        return encoded ? [encoded] : [];
      });
  return [{ role: 'user', content }];
}

function encodeToolChoice(choice: ChatToolChoice): unknown {
  return choice.type === 'tool' ? { type: 'function', function: { name: choice.name } } : choice.type;
}

function encodeResponseFormat(format: ChatResponseFormat): Json {
  if (format.type === 'json_object') return { type: 'json_object' };
  return {
    type: 'json_schema',
    json_schema: {
      name: format.name,
      schema: format.schema,
      ...(format.strict !== undefined ? { strict: format.strict } : {}),
    },
  };
}

/**
 * The neutral request as an OpenAI chat body. The output limit goes in `max_tokens`, which every
 * OpenAI-compatible vendor knows; the OpenAI adapter renames it for vendors that want another field.
 */
export function encodeOpenAiChatRequest(request: ChatRequest, options: EncodeOptions): Json {
  const messages: Json[] = [];
  const systemText = request.system.map((s) => s.text).join('\n\n');
  if (systemText !== '') messages.push({ role: 'system', content: systemText });
  for (const message of request.messages) messages.push(...encodeMessage(message));
  const body: Json = { model: options.model, messages };
  const limit = options.maxOutputTokens ?? request.maxOutputTokens;
  if (limit !== undefined) body.max_tokens = limit;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.stop.length > 0) body.stop = request.stop;
  if (request.presencePenalty !== undefined) body.presence_penalty = request.presencePenalty;
  if (request.frequencyPenalty !== undefined) body.frequency_penalty = request.frequencyPenalty;
  if (request.seed !== undefined) body.seed = request.seed;
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: 'function',
      function: {
        name: tool.name,
        ...(tool.description ? { description: tool.description } : {}),
        parameters: tool.parameters,
      },
    }));
  }
  if (request.toolChoice) body.tool_choice = encodeToolChoice(request.toolChoice);
  if (request.parallelToolCalls !== undefined && request.tools.length > 0) {
    body.parallel_tool_calls = request.parallelToolCalls;
  }
  if (request.responseFormat) body.response_format = encodeResponseFormat(request.responseFormat);
  const reasoning = request.reasoning;
  if (reasoning?.effort) body.reasoning_effort = reasoning.effort;
  else if (reasoning?.budgetTokens !== undefined && reasoning.budgetTokens > 0) {
    body.reasoning_effort = effortForBudget(reasoning.budgetTokens);
  }
  if (request.user !== undefined) body.user = request.user;
  if (request.stream) {
    body.stream = true;
    if (options.streamUsage) body.stream_options = { include_usage: true };
  }
  return body;
}
