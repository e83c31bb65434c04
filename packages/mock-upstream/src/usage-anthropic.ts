// Anthropic Messages: the usage and answer the mock gives a request, by the word-count rule of usage.ts.
// Anthropic reports cache reads and writes apart from input_tokens: the whole prompt is the three together.
import type { MockDirective } from './directive.js';
import { isRecord } from './routes/input.js';
import {
  argumentPieces,
  argumentsObject,
  countTokens,
  planOf,
  planReply,
  positiveLimit,
  replyText,
  thoughtWords,
} from './usage.js';

export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

export type AnthropicStopReason = 'end_turn' | 'max_tokens' | 'tool_use';

export type AnthropicAnswer =
  { kind: 'text'; words: string[] } | { kind: 'tool'; name: string; arguments: string; input: unknown };

export interface AnthropicPlan {
  usage: AnthropicUsage;
  /** Words of the thinking block (none without `reasoning_tokens`); counted in output_tokens. */
  thinking: string[];
  answer: AnthropicAnswer;
  stopReason: AnthropicStopReason;
}

/** Text of a message content or `system`: a string, or its text blocks and the text inside tool_result blocks. */
export function anthropicContentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block) => {
      if (!isRecord(block)) return '';
      if (block.type === 'text' && typeof block.text === 'string') return block.text;
      if (block.type === 'tool_result') return anthropicContentText(block.content);
      return '';
    })
    .join(' ');
}

const messagesOf = (body: Record<string, unknown>): Record<string, unknown>[] =>
  Array.isArray(body.messages) ? body.messages.filter(isRecord) : [];

/** The whole prompt: Σ over messages (1 + words), plus the words of `system`. Also what count_tokens answers. */
export function anthropicPromptTokens(body: Record<string, unknown>): number {
  return messagesOf(body).reduce(
    (sum, message) => sum + 1 + countTokens(anthropicContentText(message.content)),
    countTokens(anthropicContentText(body.system)),
  );
}

/** Everything the mock answers to a Messages request, given the directive that applies to it. */
export function planAnthropic(body: Record<string, unknown>, directive: MockDirective): AnthropicPlan {
  const prompt = anthropicPromptTokens(body);
  const read = Math.min(directive.cached_tokens ?? 0, prompt);
  const write = Math.min(directive.cache_write_tokens ?? 0, prompt - read);
  const thinking = thoughtWords(directive);
  const usage = (answerTokens: number): AnthropicUsage => ({
    input_tokens: prompt - read - write,
    output_tokens: answerTokens + thinking.length,
    cache_read_input_tokens: read,
    cache_creation_input_tokens: write,
  });
  if (directive.tool_call !== undefined) {
    const args = directive.tool_call.arguments ?? '{}';
    return {
      usage: usage(1 + argumentPieces(args).length),
      thinking,
      answer: { kind: 'tool', name: directive.tool_call.name, arguments: args, input: argumentsObject(args) },
      stopReason: 'tool_use',
    };
  }
  const users = messagesOf(body).filter((message) => message.role === 'user');
  const echoed = anthropicContentText(users[users.length - 1]?.content);
  const text = planReply(echoed, directive, positiveLimit(body.max_tokens));
  return {
    usage: usage(text.words.length),
    thinking,
    answer: { kind: 'text', words: text.words },
    stopReason: text.finishReason === 'length' ? 'max_tokens' : 'end_turn',
  };
}

/** Usage the mock reports for a Messages request (body as the client sent it, markers included). */
export function expectedAnthropicUsage(body: unknown, base: MockDirective = {}): AnthropicUsage {
  return planOf(planAnthropic, body, base).usage;
}

/** The text block the mock replies to a Messages request ('' when it calls a tool). */
export function expectedAnthropicReply(body: unknown, base: MockDirective = {}): string {
  return replyText(planOf(planAnthropic, body, base).answer);
}
