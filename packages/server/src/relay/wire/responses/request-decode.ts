// A client's POST /v1/responses body → the neutral chat request, for a model of another vendor. Tools
// are request-tools.ts's (hosted ones are left out); store / previous_response_id are the inbound
// layer's; truncation, metadata, include, prompt_cache_key and client_metadata are ignored.
import { z } from 'zod';
import type { ChatReasoningConfig, ChatRequest, ChatResponseFormat } from '../../ir/chat.js';
import { parseOrThrow } from '../../inbound/openai-shared.js';
import { decodeInput } from './input-decode.js';
import { decodeToolChoice, decodeTools } from './request-tools.js';
import { badRequest } from './shared.js';

const EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;

const bodySchema = z.looseObject({
  model: z.string({ error: 'model is required' }).min(1, { error: 'model is required' }),
  input: z.unknown().optional(),
  instructions: z.string({ error: 'instructions must be a string' }).nullish(),
  tools: z.array(z.unknown(), { error: 'tools must be a list' }).nullish(),
  tool_choice: z.unknown().optional(),
  parallel_tool_calls: z.boolean({ error: 'parallel_tool_calls must be true or false' }).nullish(),
  text: z
    .looseObject({
      format: z
        .looseObject({
          type: z.enum(['text', 'json_schema', 'json_object'], {
            error: 'format.type must be text, json_schema or json_object',
          }),
          name: z.string().nullish(),
          schema: z.record(z.string(), z.unknown()).nullish(),
          strict: z.boolean().nullish(),
        })
        .nullish(),
    })
    .nullish(),
  reasoning: z
    .looseObject({
      effort: z.enum(EFFORTS, { error: `reasoning.effort must be one of ${EFFORTS.join(', ')}` }).nullish(),
      summary: z.string().nullish(),
      generate_summary: z.string().nullish(),
    })
    .nullish(),
  max_output_tokens: z
    .number({ error: 'max_output_tokens must be a number' })
    .int({ error: 'max_output_tokens must be a whole number' })
    .min(0, { error: 'max_output_tokens must not be negative' })
    .nullish(),
  temperature: z.number({ error: 'temperature must be a number' }).nullish(),
  top_p: z.number({ error: 'top_p must be a number' }).nullish(),
  stream: z.boolean({ error: 'stream must be true or false' }).nullish(),
  user: z.string().nullish(),
  safety_identifier: z.string().nullish(),
});

type Body = z.output<typeof bodySchema>;

function decodeFormat(text: Body['text']): ChatResponseFormat | undefined {
  const format = text?.format;
  if (!format || format.type === 'text') return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  if (!format.name) throw badRequest('text.format.name', 'is required for json_schema');
  if (!format.schema) throw badRequest('text.format.schema', 'is required for json_schema');
  return {
    type: 'json_schema',
    name: format.name,
    schema: format.schema,
    strict: format.strict ?? undefined,
  };
}

/**
 * OpenAI's efforts on the IR's scale: `none` turns thinking off (budget 0); xhigh and max, which only
 * the newest OpenAI models know, become the IR's highest.
 */
function decodeReasoning(reasoning: Body['reasoning']): ChatReasoningConfig | undefined {
  if (!reasoning) return undefined;
  const summary = reasoning.summary ?? reasoning.generate_summary;
  const effort = reasoning.effort ?? undefined;
  if (effort === undefined && summary == null) return undefined;
  return {
    effort: effort === 'none' ? undefined : effort === 'xhigh' || effort === 'max' ? 'high' : effort,
    budgetTokens: effort === 'none' ? 0 : undefined,
    includeThoughts: summary != null,
  };
}

export function decodeResponsesRequest(raw: Readonly<Record<string, unknown>>): ChatRequest {
  const body = parseOrThrow(bodySchema, raw);
  const input = decodeInput(body.input);
  const instructions = body.instructions ? [{ type: 'text' as const, text: body.instructions }] : [];
  const offered = [{ path: 'tools', tools: body.tools ?? [] }, ...input.tools];
  const tools = decodeTools(offered);
  const hostedOnly = tools.length === 0 && offered.some((list) => list.tools.length > 0);
  return {
    model: body.model,
    stream: body.stream ?? false,
    system: [...instructions, ...input.system],
    messages: input.messages,
    tools,
    toolChoice: decodeToolChoice(body.tool_choice, tools, hostedOnly),
    parallelToolCalls: body.parallel_tool_calls ?? undefined,
    responseFormat: decodeFormat(body.text),
    maxOutputTokens: body.max_output_tokens ?? undefined,
    temperature: body.temperature ?? undefined,
    topP: body.top_p ?? undefined,
    topK: undefined,
    stop: [],
    presencePenalty: undefined,
    frequencyPenalty: undefined,
    seed: undefined,
    reasoning: decodeReasoning(body.reasoning),
    // safety_identifier is OpenAI's successor of `user`; either serves a vendor's abuse tracking.
    user: body.user ?? body.safety_identifier ?? undefined,
  };
}
