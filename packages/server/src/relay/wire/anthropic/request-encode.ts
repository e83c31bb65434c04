// ChatRequest → the body of POST /v1/messages for an Anthropic upstream (Bedrock and Vertex reuse it).
// Anthropic refuses what it does not accept rather than ignoring it, so this writes only fields it
// knows and applies its rules (sampling with thinking, tool choice, names) instead of forwarding.
import type { ChatRequest, ChatResponseFormat, ReasoningEffort } from '../../ir/chat.js';
import type { EncodeOptions } from '../types.js';
import type { AnthropicTurn } from './request-messages.js';
import { anthropicToolName, anthropicTurns, toolTurnLacksThinking } from './request-messages.js';
import type { Json } from './shared.js';

/** Used when neither the caller nor the request sets an output limit (Anthropic requires one). */
const DEFAULT_MAX_TOKENS = 4096;

/** Anthropic's smallest thinking budget; the budget must also stay below max_tokens. */
const MIN_THINKING_BUDGET = 1024;

/**
 * Thinking budget for an effort given without a budget. Anthropic's budgeted thinking has no effort
 * levels, so these are Sluice's choice: minimal is Anthropic's minimum (1024), low 2048, medium 8192,
 * high 24576 — rising steps that stay inside the output limits of current Claude models.
 */
const EFFORT_BUDGET: Readonly<Record<ReasoningEffort, number>> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 24576,
};

/** The thinking budget to send, or undefined for thinking off (not asked for, or no room for it). */
function thinkingBudget(request: ChatRequest, maxTokens: number): number | undefined {
  const reasoning = request.reasoning;
  if (reasoning === undefined) return undefined;
  const asked =
    reasoning.budgetTokens ?? (reasoning.effort === undefined ? 0 : EFFORT_BUDGET[reasoning.effort]);
  if (!(asked > 0) || maxTokens <= MIN_THINKING_BUDGET) return undefined;
  return Math.min(Math.max(asked, MIN_THINKING_BUDGET), maxTokens - 1);
}

/**
 * Anthropic has no response_format; structured output is asked for in the system prompt instead.
 * (Its output_config.format exists only on newer models, and not on every platform that serves
 * Claude, while an instruction works on all of them.)
 */
function formatInstruction(format: ChatResponseFormat | undefined): string | undefined {
  if (format === undefined) return undefined;
  const plain = 'Answer with a single JSON object and nothing else: no prose and no code fences.';
  if (format.type === 'json_object') return plain;
  return `${plain} The object must match this JSON Schema (${format.name}):\n${JSON.stringify(format.schema)}`;
}

function toolChoice(request: ChatRequest, thinking: boolean): Json | undefined {
  if (request.tools.length === 0) return undefined;
  const disableParallel = request.parallelToolCalls === false ? true : undefined;
  let choice = request.toolChoice;
  // With thinking on, Anthropic accepts only auto and none: a forced tool falls back to auto.
  if (thinking && (choice?.type === 'required' || choice?.type === 'tool')) choice = { type: 'auto' };
  switch (choice?.type) {
    case undefined:
      return disableParallel ? { type: 'auto', disable_parallel_tool_use: true } : undefined;
    case 'none':
      return { type: 'none' };
    case 'auto':
      return { type: 'auto', disable_parallel_tool_use: disableParallel };
    case 'required':
      return { type: 'any', disable_parallel_tool_use: disableParallel };
    case 'tool':
      return {
        type: 'tool',
        name: anthropicToolName(choice.name),
        disable_parallel_tool_use: disableParallel,
      };
  }
}

/** Sampling Anthropic accepts: temperature 0–1, never with top_p; with thinking only top_p 0.95–1. */
function sampling(request: ChatRequest, thinking: boolean) {
  const { temperature, topP, topK } = request;
  if (thinking) {
    return {
      temperature: undefined,
      top_p: topP !== undefined && topP >= 0.95 && topP <= 1 ? topP : undefined,
      top_k: undefined,
    };
  }
  return {
    temperature: temperature === undefined ? undefined : Math.min(Math.max(temperature, 0), 1),
    top_p: temperature === undefined ? topP : undefined,
    top_k: topK,
  };
}

export function encodeAnthropicRequest(
  request: ChatRequest,
  options: EncodeOptions,
): Record<string, unknown> {
  const maxTokens = options.maxOutputTokens ?? request.maxOutputTokens ?? DEFAULT_MAX_TOKENS;
  const messages: AnthropicTurn[] = anthropicTurns(request.messages);
  let budget = thinkingBudget(request, maxTokens);
  if (budget !== undefined && toolTurnLacksThinking(messages)) budget = undefined;
  const thinking = budget !== undefined;

  const system: Json[] = request.system
    .filter((s) => s.text !== '')
    .map((s) => ({ type: 'text', text: s.text }));
  const instruction = formatInstruction(request.responseFormat);
  if (instruction !== undefined) system.push({ type: 'text', text: instruction });

  const tools = request.tools.map((tool) => ({
    name: anthropicToolName(tool.name),
    description: tool.description,
    // Anthropic requires an object schema; OpenAI lets a tool without parameters omit it.
    input_schema:
      tool.parameters.type === undefined
        ? Object.assign({ type: 'object' }, tool.parameters)
        : tool.parameters,
  }));
  // Anthropic refuses stop sequences made only of whitespace.
  const stop = request.stop.filter((s) => s.trim() !== '');
  const { temperature, top_p, top_k } = sampling(request, thinking);

  return {
    model: options.model,
    max_tokens: maxTokens,
    system: system.length > 0 ? system : undefined,
    messages,
    tools: tools.length > 0 ? tools : undefined,
    tool_choice: toolChoice(request, thinking),
    temperature,
    top_p,
    top_k,
    stop_sequences: stop.length > 0 ? stop : undefined,
    thinking: budget === undefined ? undefined : { type: 'enabled', budget_tokens: budget },
    metadata: request.user === undefined || request.user === '' ? undefined : { user_id: request.user },
    stream: request.stream,
  };
}
