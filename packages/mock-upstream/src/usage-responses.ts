// OpenAI Responses API: the usage and answer the mock gives a request, by the word-count rule of usage.ts.
// A string input is one user message; `instructions` count as a system message would in chat, so the
// same conversation costs the same prompt tokens on /v1/responses and /v1/chat/completions.
import type { MockDirective } from './directive.js';
import { isRecord } from './routes/input.js';
import {
  argumentPieces,
  countTokens,
  planOf,
  planReply,
  positiveLimit,
  replyText,
  thoughtWords,
} from './usage.js';

export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

export type ResponsesAnswer =
  { kind: 'text'; words: string[] } | { kind: 'tool'; name: string; arguments: string };

export interface ResponsesPlan {
  usage: ResponsesUsage;
  /** Words of the reasoning summary (none without `reasoning_tokens`); counted in output_tokens. */
  reasoning: string[];
  answer: ResponsesAnswer;
  /** The reply was cut by max_output_tokens: status "incomplete". */
  incomplete: boolean;
}

/** Text of a message's content or a function_call_output's output: a string, or its text parts joined. */
export function responsesContentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) =>
      isRecord(part) &&
      (part.type === 'input_text' || part.type === 'output_text') &&
      typeof part.text === 'string'
        ? part.text
        : '',
    )
    .join(' ');
}

/** The input as items: a string input is one user message. */
export function inputItems(input: unknown): Record<string, unknown>[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  return Array.isArray(input) ? input.filter(isRecord) : [];
}

/** The text an input item carries: a message's text parts, a function_call_output's output. */
function itemText(item: Record<string, unknown>): string {
  if (item.type === 'function_call_output') return responsesContentText(item.output);
  return item.role !== undefined ? responsesContentText(item.content) : '';
}

/** The whole prompt: instructions (1 + words, when given) + Σ over input items (1 + words of their text). */
export function responsesPromptTokens(body: Record<string, unknown>): number {
  const instructions = typeof body.instructions === 'string' ? 1 + countTokens(body.instructions) : 0;
  return inputItems(body.input).reduce((sum, item) => sum + 1 + countTokens(itemText(item)), instructions);
}

/** The text of the last user message in the input (a string input is one). */
function lastUserText(body: Record<string, unknown>): string {
  const users = inputItems(body.input).filter((item) => item.role === 'user');
  const last = users[users.length - 1];
  return last ? responsesContentText(last.content) : '';
}

/** Everything the mock answers to a Responses request, given the directive that applies to it. */
export function planResponses(body: Record<string, unknown>, directive: MockDirective): ResponsesPlan {
  const prompt = responsesPromptTokens(body);
  const reasoning = thoughtWords(directive);
  const usage = (answerTokens: number): ResponsesUsage => {
    const output = answerTokens + reasoning.length;
    return {
      input_tokens: prompt,
      input_tokens_details: { cached_tokens: Math.min(directive.cached_tokens ?? 0, prompt) },
      output_tokens: output,
      output_tokens_details: { reasoning_tokens: reasoning.length },
      total_tokens: prompt + output,
    };
  };
  if (directive.tool_call !== undefined) {
    const args = directive.tool_call.arguments ?? '{}';
    return {
      usage: usage(1 + argumentPieces(args).length),
      reasoning,
      answer: { kind: 'tool', name: directive.tool_call.name, arguments: args },
      incomplete: false,
    };
  }
  const text = planReply(lastUserText(body), directive, positiveLimit(body.max_output_tokens));
  return {
    usage: usage(text.words.length),
    reasoning,
    answer: { kind: 'text', words: text.words },
    incomplete: text.finishReason === 'length',
  };
}

/** Usage the mock reports for a Responses request (body as it went on the wire, markers included). */
export function expectedResponsesUsage(body: unknown, base: MockDirective = {}): ResponsesUsage {
  return planOf(planResponses, body, base).usage;
}

/** The output text the mock replies to a Responses request ('' when it calls a function). */
export function expectedResponsesReply(body: unknown, base: MockDirective = {}): string {
  return replyText(planOf(planResponses, body, base).answer);
}
