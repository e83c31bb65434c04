// Content blocks of a client's Messages request → neutral parts, with 400s that name the field.
import { z } from 'zod';
import type { ChatImage, ChatPart, ChatToolResult } from '../../ir/chat.js';
import { RelayError } from '../../ir/errors.js';

export const textBlock = z.looseObject({ type: z.literal('text'), text: z.string() });
export const blockType = z.looseObject({ type: z.string() });

const base64Source = z.looseObject({ media_type: z.string(), data: z.string() });
const urlSource = z.looseObject({ url: z.string() });
const sourceType = z.looseObject({ source: z.looseObject({ type: z.string() }) });
const documentBlock = z.looseObject({ title: z.string().nullish() });
const textSource = z.looseObject({ media_type: z.string().nullish(), data: z.string() });
const contentSource = z.looseObject({ content: z.union([z.string(), z.array(textBlock)]) });
const toolUseBlock = z.looseObject({ id: z.string(), name: z.string(), input: z.unknown() });
const toolResultBlock = z.looseObject({
  tool_use_id: z.string(),
  content: z.union([z.string(), z.array(blockType)]).nullish(),
  is_error: z.boolean().nullish(),
});
const thinkingBlock = z.looseObject({ thinking: z.string(), signature: z.string().nullish() });
const redactedBlock = z.looseObject({ data: z.string() });

/** Parses `value` at `path`, or throws a 400 naming the field, as Anthropic's own errors do. */
export function parseAt<S extends z.ZodType>(schema: S, value: unknown, path: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = [path, ...(issue?.path ?? []).map(String)].filter((p) => p !== '').join('.');
  const message = issue?.message ?? 'invalid value';
  throw new RelayError(
    400,
    field !== '' && !message.startsWith(field) ? `${field}: ${message}` : message,
    'invalid_request',
  );
}

const unconvertible = (path: string, what: string): RelayError =>
  new RelayError(400, `${path}: ${what} cannot be sent to this model's upstream`, 'invalid_request');

/** Blocks of Anthropic's server tools: their tools are dropped, so their history is too. */
const isServerToolBlock = (type: string): boolean =>
  type === 'server_tool_use' ||
  type === 'mcp_tool_use' ||
  type === 'container_upload' ||
  (type.endsWith('_tool_result') && type !== 'tool_result');

function imagePart(block: unknown, path: string): ChatImage {
  const { source } = parseAt(sourceType, block, path);
  if (source.type === 'base64') {
    const { media_type, data } = parseAt(base64Source, source, `${path}.source`);
    return { type: 'image', url: undefined, data, mediaType: media_type };
  }
  if (source.type === 'url') {
    const { url } = parseAt(urlSource, source, `${path}.source`);
    return { type: 'image', url, data: undefined, mediaType: undefined };
  }
  throw unconvertible(`${path}.source`, `an image source of type '${source.type}'`);
}

function documentPart(block: unknown, path: string): ChatPart {
  const { source } = parseAt(sourceType, block, path);
  const title = parseAt(documentBlock, block, path).title ?? undefined;
  const at = `${path}.source`;
  switch (source.type) {
    case 'base64': {
      const { media_type, data } = parseAt(base64Source, source, at);
      return { type: 'document', url: undefined, data, mediaType: media_type, text: undefined, title };
    }
    case 'url': {
      const { url } = parseAt(urlSource, source, at);
      // Anthropic's URL documents are PDFs (URLPDFSource).
      return { type: 'document', url, data: undefined, mediaType: 'application/pdf', text: undefined, title };
    }
    case 'text': {
      const { media_type, data } = parseAt(textSource, source, at);
      return {
        type: 'document',
        url: undefined,
        data: undefined,
        mediaType: media_type ?? 'text/plain',
        text: data,
        title,
      };
    }
    case 'content': {
      const { content } = parseAt(contentSource, source, at);
      const text = typeof content === 'string' ? content : content.map((b) => b.text).join('\n');
      return { type: 'document', url: undefined, data: undefined, mediaType: 'text/plain', text, title };
    }
    default:
      throw unconvertible(at, `a document source of type '${source.type}'`);
  }
}

export function toolResult(
  block: unknown,
  path: string,
  toolNames: ReadonlyMap<string, string>,
): ChatToolResult {
  const { tool_use_id, content, is_error } = parseAt(toolResultBlock, block, path);
  const parts: ChatToolResult['content'] = [];
  if (typeof content === 'string') parts.push({ type: 'text', text: content });
  else {
    (content ?? []).forEach((inner, i) => {
      const at = `${path}.content.${i}`;
      if (inner.type === 'text') parts.push({ type: 'text', text: parseAt(textBlock, inner, at).text });
      else if (inner.type === 'image') parts.push(imagePart(inner, at));
      else throw unconvertible(at, `a tool result block of type '${inner.type}'`);
    });
  }
  return {
    type: 'tool_result',
    toolCallId: tool_use_id,
    name: toolNames.get(tool_use_id),
    content: parts,
    isError: is_error ?? undefined,
  };
}

/** One content block → a neutral part; undefined for blocks dropped on purpose. */
export function contentPart(block: { type: string }, path: string): ChatPart | undefined {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: parseAt(textBlock, block, path).text };
    case 'image':
      return imagePart(block, path);
    case 'document':
      return documentPart(block, path);
    case 'tool_use': {
      const { id, name, input } = parseAt(toolUseBlock, block, path);
      return { type: 'tool_call', id, name, arguments: JSON.stringify(input ?? {}) };
    }
    case 'thinking': {
      const { thinking, signature } = parseAt(thinkingBlock, block, path);
      return { type: 'reasoning', text: thinking, signature: signature || undefined, redacted: undefined };
    }
    case 'redacted_thinking':
      return {
        type: 'reasoning',
        text: '',
        signature: undefined,
        redacted: parseAt(redactedBlock, block, path).data,
      };
    default:
      if (isServerToolBlock(block.type)) return undefined;
      throw unconvertible(path, `a content block of type '${block.type}'`);
  }
}
