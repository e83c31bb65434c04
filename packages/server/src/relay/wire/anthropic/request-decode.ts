// A client's Messages request (POST /v1/messages from the Anthropic SDK or Claude Code) → ChatRequest.
// Only what another vendor can be given is kept: cache_control, citations and server tools are dropped.
import { z } from 'zod';
import type {
  ChatMessage,
  ChatPart,
  ChatReasoningConfig,
  ChatRequest,
  ChatResponseFormat,
  ChatText,
  ChatTool,
  ChatToolChoice,
  ReasoningEffort,
} from '../../ir/chat.js';
import { RelayError } from '../../ir/errors.js';
import { blockType, contentPart, parseAt, textBlock, toolResult } from './request-blocks.js';

const requestSchema = z.looseObject({
  model: z.string({ error: 'model is required' }).min(1, { error: 'model is required' }),
  max_tokens: z
    .number({ error: 'max_tokens is required' })
    .int({ error: 'max_tokens must be a whole number' })
    .min(0, { error: 'max_tokens must not be negative' }),
  system: z.union([z.string(), z.array(textBlock)]).nullish(),
  messages: z.array(
    z.looseObject({
      role: z.enum(['user', 'assistant', 'system']),
      content: z.union([z.string(), z.array(blockType)]),
    }),
    { error: 'messages is required' },
  ),
  tools: z.array(z.looseObject({ type: z.string().nullish(), name: z.string() })).nullish(),
  tool_choice: z
    .looseObject({
      type: z.enum(['auto', 'any', 'tool', 'none']),
      name: z.string().nullish(),
      disable_parallel_tool_use: z.boolean().nullish(),
    })
    .nullish(),
  temperature: z.number().nullish(),
  top_p: z.number().nullish(),
  top_k: z.number().int().nullish(),
  stop_sequences: z.array(z.string()).nullish(),
  stream: z.boolean({ error: 'stream must be true or false' }).nullish(),
  metadata: z.looseObject({ user_id: z.string().nullish() }).nullish(),
  thinking: z
    .looseObject({
      type: z.enum(['enabled', 'disabled', 'adaptive']),
      budget_tokens: z.number().int().min(0).nullish(),
    })
    .nullish(),
  output_config: z
    .looseObject({
      effort: z.string().nullish(),
      format: z
        .looseObject({ type: z.literal('json_schema'), schema: z.record(z.string(), z.unknown()) })
        .nullish(),
    })
    .nullish(),
});

const customTool = z.looseObject({
  name: z.string(),
  description: z.string().nullish(),
  input_schema: z.record(z.string(), z.unknown(), { error: 'input_schema is required' }),
});

type RawMessage = z.output<typeof requestSchema>['messages'][number];

/**
 * Messages → neutral messages. A user message's tool_result blocks become one `tool` message placed
 * before the user's other parts; a `system` message (mid-conversation system text) joins `system`.
 */
function decodeMessages(raw: readonly RawMessage[], system: ChatText[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  const toolNames = new Map<string, string>();
  raw.forEach((message, m) => {
    const blocks =
      typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    const results: ChatPart[] = [];
    const parts: ChatPart[] = [];
    blocks.forEach((block, b) => {
      const path = `messages.${m}.content.${b}`;
      if (block.type === 'tool_result') {
        if (message.role !== 'user')
          throw new RelayError(400, `${path}: tool_result blocks belong in user messages`, 'invalid_request');
        results.push(toolResult(block, path, toolNames));
        return;
      }
      const part = contentPart(block, path);
      if (part === undefined) return;
      if (message.role === 'system') {
        if (part.type !== 'text')
          throw new RelayError(400, `${path}: a system message may carry only text`, 'invalid_request');
        system.push(part);
        return;
      }
      if (part.type === 'tool_call') toolNames.set(part.id, part.name);
      parts.push(part);
    });
    if (results.length > 0) messages.push({ role: 'tool', parts: results });
    if (message.role !== 'system' && (parts.length > 0 || results.length === 0)) {
      messages.push({ role: message.role, parts });
    }
  });
  return messages;
}

function decodeTools(raw: z.output<typeof requestSchema>['tools']): ChatTool[] {
  const tools: ChatTool[] = [];
  (raw ?? []).forEach((tool, i) => {
    // Typed tools (web_search_…, bash_…, text_editor_…) are Anthropic's own; no other vendor runs them.
    if (tool.type !== undefined && tool.type !== null && tool.type !== 'custom') return;
    const { name, description, input_schema } = parseAt(customTool, tool, `tools.${i}`);
    tools.push({ name, description: description ?? undefined, parameters: input_schema });
  });
  return tools;
}

function decodeToolChoice(raw: z.output<typeof requestSchema>['tool_choice']): ChatToolChoice | undefined {
  switch (raw?.type) {
    case undefined:
      return undefined;
    case 'auto':
      return { type: 'auto' };
    case 'any':
      return { type: 'required' };
    case 'none':
      return { type: 'none' };
    case 'tool':
      if (typeof raw.name !== 'string' || raw.name === '') {
        throw new RelayError(
          400,
          'tool_choice.name: a tool choice of type tool names the tool',
          'invalid_request',
        );
      }
      return { type: 'tool', name: raw.name };
  }
}

/** Anthropic's output_config.effort → the neutral effort (its xhigh and max are the neutral high). */
function effortOf(effort: string | null | undefined): ReasoningEffort | undefined {
  if (effort === 'low' || effort === 'medium' || effort === 'high') return effort;
  if (effort === 'xhigh' || effort === 'max') return 'high';
  return undefined;
}

function decodeReasoning(body: z.output<typeof requestSchema>): ChatReasoningConfig | undefined {
  const effort = effortOf(body.output_config?.effort);
  const thinking = body.thinking;
  if (thinking === undefined || thinking === null) {
    return effort === undefined ? undefined : { effort, budgetTokens: undefined, includeThoughts: undefined };
  }
  switch (thinking.type) {
    case 'enabled':
      if (typeof thinking.budget_tokens !== 'number') {
        throw new RelayError(
          400,
          'thinking.budget_tokens is required when thinking is enabled',
          'invalid_request',
        );
      }
      return { effort, budgetTokens: thinking.budget_tokens, includeThoughts: true };
    case 'disabled':
      return { effort, budgetTokens: 0, includeThoughts: false };
    case 'adaptive':
      // The model decides how much to think: no budget, the effort (if any) guides it.
      return { effort, budgetTokens: undefined, includeThoughts: true };
  }
}

function decodeSystem(raw: z.output<typeof requestSchema>['system']): ChatText[] {
  if (raw === undefined || raw === null) return [];
  if (typeof raw === 'string') return raw === '' ? [] : [{ type: 'text', text: raw }];
  return raw.map((block) => ({ type: 'text', text: block.text }));
}

export function decodeAnthropicRequest(input: Readonly<Record<string, unknown>>): ChatRequest {
  const body = parseAt(requestSchema, input, '');
  const system = decodeSystem(body.system);
  const messages = decodeMessages(body.messages, system);
  const format = body.output_config?.format;
  const responseFormat: ChatResponseFormat | undefined = format
    ? { type: 'json_schema', name: 'output', schema: format.schema, strict: true }
    : undefined;
  const choice = body.tool_choice;
  return {
    model: body.model,
    stream: body.stream === true,
    system,
    messages,
    tools: decodeTools(body.tools),
    toolChoice: decodeToolChoice(choice),
    parallelToolCalls: choice?.disable_parallel_tool_use === true ? false : undefined,
    responseFormat,
    maxOutputTokens: body.max_tokens,
    temperature: body.temperature ?? undefined,
    topP: body.top_p ?? undefined,
    topK: body.top_k ?? undefined,
    stop: body.stop_sequences ?? [],
    presencePenalty: undefined,
    frequencyPenalty: undefined,
    seed: undefined,
    reasoning: decodeReasoning(body),
    user: body.metadata?.user_id ?? undefined,
  };
}
