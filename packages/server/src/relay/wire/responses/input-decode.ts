// A Responses request's `input` (a string or a list of items) as neutral system text and messages.
// One assistant turn arrives as several items (reasoning, message, function and custom tool calls);
// they become one assistant message, and consecutive tool outputs one tool message. Tools given by
// additional_tools items are handed to the request's tools; a hosted web search's record is left out
// (its results are in the answer that follows, and the search itself cannot run elsewhere).
import { z } from 'zod';
import type {
  ChatDocument,
  ChatImage,
  ChatMessage,
  ChatPart,
  ChatText,
  ChatToolResult,
} from '../../ir/chat.js';
import { badRequest, isRecord, parseAt, parseDataUrl, str } from './shared.js';
import { flatToolName, freeformArguments } from './tool-names.js';

const textPart = z.looseObject({ type: z.string(), text: z.string({ error: 'text must be a string' }) });
const imagePart = z.looseObject({
  image_url: z.string().nullish(),
  file_id: z.string().nullish(),
});
const filePart = z.looseObject({
  file_data: z.string().nullish(),
  file_url: z.string().nullish(),
  file_id: z.string().nullish(),
  filename: z.string().nullish(),
});
const refusalPart = z.looseObject({ refusal: z.string({ error: 'refusal must be a string' }) });

const messageItem = z.looseObject({
  role: z.enum(['user', 'assistant', 'system', 'developer'], {
    error: 'role must be user, assistant, system or developer',
  }),
  content: z.union([z.string(), z.array(z.unknown())], { error: 'content must be a string or a list' }),
});
const callId = z.string({ error: 'call_id is required' }).min(1, { error: 'call_id is required' });
const toolName = z.string({ error: 'name is required' }).min(1, { error: 'name is required' });
const namespace = z.string({ error: 'namespace must be a string' }).nullish();
const functionCallItem = z.looseObject({
  call_id: callId,
  name: toolName,
  namespace,
  arguments: z.string({ error: 'arguments must be a JSON string' }),
});
const customCallItem = z.looseObject({
  call_id: callId,
  name: toolName,
  namespace,
  input: z.string({ error: 'input must be a string' }),
});
const additionalToolsItem = z.looseObject({ tools: z.array(z.unknown(), { error: 'tools must be a list' }) });
const functionOutputItem = z.looseObject({
  call_id: z.string({ error: 'call_id is required' }).min(1, { error: 'call_id is required' }),
  output: z.union([z.string(), z.array(z.unknown())], { error: 'output must be a string or a list' }),
});
const reasoningItem = z.looseObject({
  summary: z.array(z.looseObject({ text: z.string() })).nullish(),
  content: z.array(z.looseObject({ text: z.string() })).nullish(),
  encrypted_content: z.string().nullish(),
});

const FILES_NOT_SUPPORTED = 'file ids are not supported: Sluice has no Files API, send the data inline';

/** File types Sluice can name from a file name when file_data is bare base64 rather than a data URL. */
const MEDIA_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  json: 'application/json',
  html: 'text/html',
};

function image(value: unknown, path: string): ChatImage {
  const part = parseAt(imagePart, value, path);
  if (part.file_id) throw badRequest(path, FILES_NOT_SUPPORTED, 'unsupported_value');
  if (!part.image_url) throw badRequest(path, 'image_url is required');
  const inline = parseDataUrl(part.image_url);
  return inline
    ? { type: 'image', data: inline.data, mediaType: inline.mediaType }
    : { type: 'image', url: part.image_url };
}

function document(value: unknown, path: string): ChatDocument {
  const part = parseAt(filePart, value, path);
  if (part.file_id) throw badRequest(path, FILES_NOT_SUPPORTED, 'unsupported_value');
  const title = part.filename ?? undefined;
  if (part.file_url) return { type: 'document', url: part.file_url, title };
  if (!part.file_data) throw badRequest(path, 'file_data is required');
  const inline = parseDataUrl(part.file_data);
  if (inline) return { type: 'document', data: inline.data, mediaType: inline.mediaType, title };
  const mediaType = MEDIA_TYPES[title?.split('.').pop()?.toLowerCase() ?? ''];
  if (mediaType === undefined) {
    throw badRequest(path, 'file_data must be a data URL (data:<media type>;base64,…)');
  }
  return { type: 'document', data: part.file_data, mediaType, title };
}

/** One content part of a user (or tool output) message. */
function userPart(value: unknown, path: string): ChatPart {
  const type = isRecord(value) ? str(value.type) : undefined;
  switch (type) {
    case 'input_text':
    case 'output_text':
      return { type: 'text', text: parseAt(textPart, value, path).text };
    case 'input_image':
      return image(value, path);
    case 'input_file':
      return document(value, path);
    default:
      throw badRequest(path, `content parts of type ${type ?? '(none)'} are not supported`);
  }
}

/** Text of an assistant message part: output_text, refusal, or input_text as some clients send it. */
function assistantText(value: unknown, path: string): string {
  const type = isRecord(value) ? str(value.type) : undefined;
  if (type === 'output_text' || type === 'input_text') return parseAt(textPart, value, path).text;
  if (type === 'refusal') return parseAt(refusalPart, value, path).refusal;
  throw badRequest(path, `assistant messages can hold only text, not ${type ?? 'a part without a type'}`);
}

function toolOutput(output: string | unknown[], path: string): (ChatText | ChatImage)[] {
  if (typeof output === 'string') return [{ type: 'text', text: output }];
  return output.map((value, i) => {
    const part = userPart(value, `${path}.output.${i}`);
    if (part.type !== 'text' && part.type !== 'image') {
      throw badRequest(`${path}.output.${i}`, 'a function call output can hold only text and images');
    }
    return part;
  });
}

function reasoningText(item: z.output<typeof reasoningItem>): string {
  const summary = (item.summary ?? []).map((s) => s.text).filter((t) => t !== '');
  const texts = summary.length > 0 ? summary : (item.content ?? []).map((c) => c.text);
  return texts.join('\n\n');
}

/** Tools given in one place of the request: `tools`, or an additional_tools item's. */
export interface ToolList {
  path: string;
  tools: readonly unknown[];
}

export interface DecodedInput {
  system: ChatText[];
  messages: ChatMessage[];
  /** The tools of additional_tools items, in order. */
  tools: ToolList[];
}

/** `input` (and the system messages in it) as the IR's system text and messages. */
export function decodeInput(input: unknown): DecodedInput {
  const system: ChatText[] = [];
  const messages: ChatMessage[] = [];
  const tools: ToolList[] = [];
  if (input === undefined || input === null) return { system, messages, tools };
  if (typeof input === 'string') {
    messages.push({ role: 'user', parts: [{ type: 'text', text: input }] });
    return { system, messages, tools };
  }
  if (!Array.isArray(input)) throw badRequest('input', 'must be a string or a list of items');
  const toolNames = new Map<string, string>();
  const appendTo = (role: 'assistant' | 'tool', part: ChatPart): void => {
    const last = messages[messages.length - 1];
    if (last?.role === role) last.parts.push(part);
    else messages.push({ role, parts: [part] });
  };

  input.forEach((value, i) => {
    const path = `input.${i}`;
    if (!isRecord(value)) throw badRequest(path, 'must be an object');
    const type = value.type ?? 'message';
    switch (type) {
      case 'message': {
        const item = parseAt(messageItem, value, path);
        const content = item.content;
        if (item.role === 'system' || item.role === 'developer') {
          const texts =
            typeof content === 'string'
              ? [content]
              : content.map((p, j) => parseAt(textPart, p, `${path}.content.${j}`).text);
          for (const text of texts) system.push({ type: 'text', text });
        } else if (item.role === 'assistant') {
          const texts =
            typeof content === 'string'
              ? [content]
              : content.map((p, j) => assistantText(p, `${path}.content.${j}`));
          for (const text of texts) appendTo('assistant', { type: 'text', text });
        } else {
          const parts: ChatPart[] =
            typeof content === 'string'
              ? [{ type: 'text', text: content }]
              : content.map((p, j) => userPart(p, `${path}.content.${j}`));
          messages.push({ role: 'user', parts });
        }
        break;
      }
      case 'function_call': {
        const item = parseAt(functionCallItem, value, path);
        const name = flatToolName({
          kind: 'function',
          name: item.name,
          namespace: item.namespace ?? undefined,
        });
        toolNames.set(item.call_id, name);
        appendTo('assistant', { type: 'tool_call', id: item.call_id, name, arguments: item.arguments });
        break;
      }
      case 'custom_tool_call': {
        const item = parseAt(customCallItem, value, path);
        const name = flatToolName({
          kind: 'custom',
          name: item.name,
          namespace: item.namespace ?? undefined,
        });
        toolNames.set(item.call_id, name);
        appendTo('assistant', {
          type: 'tool_call',
          id: item.call_id,
          name,
          arguments: freeformArguments(item.input),
        });
        break;
      }
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const item = parseAt(functionOutputItem, value, path);
        const result: ChatToolResult = {
          type: 'tool_result',
          toolCallId: item.call_id,
          name: toolNames.get(item.call_id),
          content: toolOutput(item.output, path),
        };
        appendTo('tool', result);
        break;
      }
      case 'reasoning': {
        const item = parseAt(reasoningItem, value, path);
        const text = reasoningText(item);
        const signature = item.encrypted_content ?? undefined;
        if (text !== '' || signature !== undefined)
          appendTo('assistant', { type: 'reasoning', text, signature });
        break;
      }
      case 'additional_tools':
        tools.push({ path: `${path}.tools`, tools: parseAt(additionalToolsItem, value, path).tools });
        break;
      case 'web_search_call':
        // A hosted search's record: the search cannot run elsewhere, its findings are in the answer.
        break;
      case 'item_reference':
        throw badRequest(
          path,
          'item references are not supported: send the items themselves',
          'unsupported_value',
        );
      default:
        throw badRequest(
          path,
          `input items of type ${String(type)} are not supported: Sluice relays messages, function and custom tool calls and their outputs, reasoning and additional tools`,
          'unsupported_value',
        );
    }
  });
  return { system, messages, tools };
}
