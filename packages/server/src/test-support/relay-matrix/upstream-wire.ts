// What reached the upstream, read in the wire the upstream speaks: the system instruction, the tools
// declared, the replayed tool call and its result, an inline image, and the usage the mock reports
// for that body (by its own deterministic rule, normalised to the IR's convention).
import { expect } from 'vitest';
import {
  expectedAnthropicUsage,
  expectedChatUsage,
  expectedGeminiUsage,
  expectedResponsesUsage,
} from '@sluice/mock-upstream';
import type { ChatWire } from '../../relay/wire/types.js';
import type { InlineImage, Json, SeenToolCall } from './scenario.js';
import { asArray, asJson, asString, isJson, parseDataUrl, parseObject } from './scenario.js';

/** Usage in the IR's convention: prompt includes cache reads and writes. */
export interface UpstreamUsage {
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
}

export interface UpstreamToolResult {
  /** Absent where the wire pairs results by name (Gemini without ids). */
  id?: string;
  name?: string;
  content: Json;
}

export interface UpstreamWire {
  system(body: Json): string;
  /** Declared tools: name → JSON schema of the arguments. */
  tools(body: Json): Record<string, unknown>;
  /** The assistant's tool call replayed in a second turn. */
  toolCall(body: Json): SeenToolCall;
  toolResult(body: Json): UpstreamToolResult;
  image(body: Json): InlineImage;
  usage(body: Json): UpstreamUsage;
}

const records = (value: unknown, what: string): Json[] => asArray(value, what).map((v) => asJson(v, what));

/** Text of a string or of an array of text parts (OpenAI, Anthropic). */
function textOf(content: unknown, what: string): string {
  if (typeof content === 'string') return content;
  return records(content, what)
    .map((part) => {
      expect(part.type, `${what} holds text`).toBe('text');
      return asString(part.text, what);
    })
    .join('');
}

const only = <T>(found: T[], what: string): T => {
  expect(found, `exactly one ${what} reached the upstream`).toHaveLength(1);
  return found[0] as T;
};

const openAiWire: UpstreamWire = {
  system: (body) =>
    records(body.messages, 'messages')
      .filter((m) => m.role === 'system' || m.role === 'developer')
      .map((m) => textOf(m.content, 'system content'))
      .join('\n\n'),
  tools: (body) =>
    Object.fromEntries(
      records(body.tools, 'tools').map((tool) => {
        expect(tool.type).toBe('function');
        const fn = asJson(tool.function, 'function');
        return [asString(fn.name, 'tool name'), fn.parameters];
      }),
    ),
  toolCall(body) {
    const withCalls = records(body.messages, 'messages').filter(
      (m) => m.role === 'assistant' && m.tool_calls,
    );
    const call = only(
      records(only(withCalls, 'assistant turn with calls').tool_calls, 'tool_calls'),
      'tool call',
    );
    const fn = asJson(call.function, 'function');
    return {
      id: asString(call.id, 'tool call id'),
      name: asString(fn.name, 'name'),
      args: parseObject(fn.arguments, 'arguments'),
    };
  },
  toolResult(body) {
    const result = only(
      records(body.messages, 'messages').filter((m) => m.role === 'tool'),
      'tool message',
    );
    return {
      id: asString(result.tool_call_id, 'tool_call_id'),
      content: parseObject(textOf(result.content, 'tool content'), 'tool content'),
    };
  },
  image(body) {
    const parts = records(body.messages, 'messages')
      .filter((m) => m.role === 'user' && Array.isArray(m.content))
      .flatMap((m) => records(m.content, 'content'))
      .filter((part) => part.type === 'image_url');
    return parseDataUrl(asJson(only(parts, 'image part').image_url, 'image_url').url, 'image_url.url');
  },
  usage(body) {
    const usage = expectedChatUsage(body);
    return {
      promptTokens: usage.prompt_tokens,
      completionTokens: usage.completion_tokens,
      cachedTokens: usage.prompt_tokens_details.cached_tokens,
      cacheWriteTokens: 0,
    };
  },
};

const inputItems = (body: Json): Json[] =>
  typeof body.input === 'string' ? [] : records(body.input, 'input');

const responsesWire: UpstreamWire = {
  system: (body) =>
    [
      ...(body.instructions === undefined || body.instructions === null
        ? []
        : [asString(body.instructions, 'instructions')]),
      ...inputItems(body)
        .filter((item) => item.role === 'system' || item.role === 'developer')
        .map((item) =>
          typeof item.content === 'string'
            ? item.content
            : records(item.content, 'content')
                .map((p) => asString(p.text, 'text'))
                .join(''),
        ),
    ].join('\n\n'),
  tools: (body) =>
    Object.fromEntries(
      records(body.tools, 'tools').map((tool) => {
        expect(tool.type).toBe('function');
        return [asString(tool.name, 'tool name'), tool.parameters];
      }),
    ),
  toolCall(body) {
    const call = only(
      inputItems(body).filter((item) => item.type === 'function_call'),
      'function_call item',
    );
    return {
      id: asString(call.call_id, 'call_id'),
      name: asString(call.name, 'name'),
      args: parseObject(call.arguments, 'arguments'),
    };
  },
  toolResult(body) {
    const output = only(
      inputItems(body).filter((item) => item.type === 'function_call_output'),
      'function_call_output item',
    );
    return { id: asString(output.call_id, 'call_id'), content: parseObject(output.output, 'output') };
  },
  image(body) {
    const parts = inputItems(body)
      .filter((item) => Array.isArray(item.content))
      .flatMap((item) => records(item.content, 'content'))
      .filter((part) => part.type === 'input_image');
    return parseDataUrl(only(parts, 'input_image part').image_url, 'image_url');
  },
  usage(body) {
    const usage = expectedResponsesUsage(body);
    return {
      promptTokens: usage.input_tokens,
      completionTokens: usage.output_tokens,
      cachedTokens: usage.input_tokens_details.cached_tokens,
      cacheWriteTokens: 0,
    };
  },
};

const anthropicBlocks = (body: Json, role: string): Json[] =>
  records(body.messages, 'messages')
    .filter((m) => m.role === role && Array.isArray(m.content))
    .flatMap((m) => records(m.content, 'content'));

const anthropicWire: UpstreamWire = {
  system: (body) => (body.system === undefined ? '' : textOf(body.system, 'system')),
  tools: (body) =>
    Object.fromEntries(
      records(body.tools, 'tools').map((tool) => [asString(tool.name, 'tool name'), tool.input_schema]),
    ),
  toolCall(body) {
    const use = only(
      anthropicBlocks(body, 'assistant').filter((b) => b.type === 'tool_use'),
      'tool_use block',
    );
    return { id: asString(use.id, 'id'), name: asString(use.name, 'name'), args: asJson(use.input, 'input') };
  },
  toolResult(body) {
    const result = only(
      anthropicBlocks(body, 'user').filter((b) => b.type === 'tool_result'),
      'tool_result block',
    );
    return {
      id: asString(result.tool_use_id, 'tool_use_id'),
      content: parseObject(textOf(result.content, 'tool_result content'), 'tool_result content'),
    };
  },
  image(body) {
    const image = only(
      anthropicBlocks(body, 'user').filter((b) => b.type === 'image'),
      'image block',
    );
    const source = asJson(image.source, 'source');
    expect(source.type).toBe('base64');
    return { mediaType: asString(source.media_type, 'media_type'), data: asString(source.data, 'data') };
  },
  usage(body) {
    const usage = expectedAnthropicUsage(body);
    return {
      promptTokens: usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens,
      completionTokens: usage.output_tokens,
      cachedTokens: usage.cache_read_input_tokens,
      cacheWriteTokens: usage.cache_creation_input_tokens,
    };
  },
};

const geminiParts = (body: Json, role: string): Json[] =>
  records(body.contents, 'contents')
    .filter((c) => (c.role ?? 'user') === role)
    .flatMap((c) => records(c.parts, 'parts'));

const geminiWire: UpstreamWire = {
  system(body) {
    const instruction = body.systemInstruction;
    if (instruction === undefined) return '';
    if (typeof instruction === 'string') return instruction;
    return records(asJson(instruction, 'systemInstruction').parts, 'parts')
      .map((p) => asString(p.text, 'text'))
      .join('');
  },
  tools: (body) =>
    Object.fromEntries(
      records(body.tools, 'tools')
        .flatMap((tool) => records(tool.functionDeclarations, 'functionDeclarations'))
        .map((fn) => [asString(fn.name, 'name'), fn.parametersJsonSchema ?? fn.parameters]),
    ),
  toolCall(body) {
    const part = only(
      geminiParts(body, 'model').filter((p) => p.functionCall !== undefined),
      'functionCall part',
    );
    const call = asJson(part.functionCall, 'functionCall');
    return {
      ...(call.id === undefined ? {} : { id: asString(call.id, 'id') }),
      name: asString(call.name, 'name'),
      args: asJson(call.args, 'args'),
    };
  },
  toolResult(body) {
    const part = only(
      geminiParts(body, 'user').filter((p) => p.functionResponse !== undefined),
      'functionResponse part',
    );
    const response = asJson(part.functionResponse, 'functionResponse');
    return {
      ...(response.id === undefined ? {} : { id: asString(response.id, 'id') }),
      name: asString(response.name, 'name'),
      content: asJson(response.response, 'response'),
    };
  },
  image(body) {
    const part = only(
      geminiParts(body, 'user').filter((p) => isJson(p.inlineData)),
      'inlineData part',
    );
    const inline = asJson(part.inlineData, 'inlineData');
    return { mediaType: asString(inline.mimeType, 'mimeType'), data: asString(inline.data, 'data') };
  },
  usage(body) {
    const usage = expectedGeminiUsage(body);
    return {
      promptTokens: usage.promptTokenCount,
      completionTokens: (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0),
      cachedTokens: usage.cachedContentTokenCount ?? 0,
      cacheWriteTokens: 0,
    };
  },
};

export const UPSTREAM_WIRES: Readonly<Record<ChatWire, UpstreamWire>> = {
  openai: openAiWire,
  responses: responsesWire,
  anthropic: anthropicWire,
  gemini: geminiWire,
};
