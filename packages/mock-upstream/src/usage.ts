// The mock's deterministic token rule and reply text. The server answers with exactly what these pure
// functions compute, so tests can import them to know the usage a request will be billed for.
//
// Rule (markers removed first, so a directive never changes the count):
// - a token is a whitespace-separated word;
// - chat prompt_tokens = Σ over messages (1 + words of the message's text parts);
// - the reply is "You said: <words of the last user message>", or the directive's `reply` / `reply_tokens`;
//   completion_tokens = words of the reply (+ reasoning_tokens), cut to max_completion_tokens/max_tokens;
// - a stream sends one event per reply word.
import { cleanText, directiveFromBody, type MockDirective } from './directive.js';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whitespace-separated words of a request string, markers removed. */
export function words(text: string): string[] {
  const cleaned = cleanText(text).trim();
  return cleaned === '' ? [] : cleaned.split(/\s+/);
}

/** The mock's token count of a text: its number of words. */
export const countTokens = (text: string): number => words(text).length;

/** The directive that applies to a body: `base` (server-level behaviour) overridden by markers in the body. */
export const effectiveDirective = (body: unknown, base: MockDirective = {}): MockDirective => ({
  ...base,
  ...directiveFromBody(body),
});

/**
 * A request's plan as the mock makes it: the body as the client sent it (markers included) under the
 * directive that applies. What the expected* helpers read the usage and the reply from.
 */
export const planOf = <Plan>(
  plan: (body: Record<string, unknown>, directive: MockDirective) => Plan,
  body: unknown,
  base: MockDirective = {},
): Plan => plan(isRecord(body) ? body : {}, effectiveDirective(body, base));

/** A text answer's words as the reply reads; '' for a tool call. */
export const replyText = (answer: { kind: 'text'; words: string[] } | { kind: 'tool' }): string =>
  answer.kind === 'text' ? answer.words.join(' ') : '';

/** Text of a chat message content: a string, or the text parts of a content array joined by spaces. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (isRecord(part) && part.type === 'text' && typeof part.text === 'string' ? part.text : ''))
    .join(' ');
}

const messagesOf = (body: Record<string, unknown>): Record<string, unknown>[] =>
  Array.isArray(body.messages) ? body.messages.filter(isRecord) : [];

export function chatPromptTokens(body: Record<string, unknown>): number {
  return messagesOf(body).reduce((sum, message) => sum + 1 + countTokens(contentText(message.content)), 0);
}

const FILLER = ['lorem', 'ipsum', 'dolor', 'sit', 'amet', 'consectetur', 'adipiscing', 'elit'];
const THOUGHT = ['let', 'me', 'think', 'this', 'through', 'step', 'by', 'step'];

const cycle = (list: string[], count: number): string[] =>
  Array.from({ length: count }, (_, i) => list[i % list.length] as string);

/** The words of the mock's reasoning (a thinking block, thought parts): `reasoning_tokens` of them. */
export const thoughtWords = (directive: MockDirective): string[] =>
  cycle(THOUGHT, directive.reasoning_tokens ?? 0);

/** The words the mock replies with before any max_tokens cut. */
function replyWords(echoed: string, directive: MockDirective): string[] {
  if (directive.reply !== undefined) return words(directive.reply);
  if (directive.reply_tokens !== undefined) return cycle(FILLER, directive.reply_tokens);
  return ['You', 'said:', ...words(echoed)];
}

/** A positive integer limit, or undefined. */
export const positiveLimit = (limit: unknown): number | undefined =>
  typeof limit === 'number' && Number.isInteger(limit) && limit > 0 ? limit : undefined;

export interface TextPlan {
  /** The reply, one word per token and per stream event. */
  words: string[];
  finishReason: 'stop' | 'length';
}

/** The reply to `echoed`, cut to `limit` words unless the directive plays an upstream that ignores it. */
export function planReply(echoed: string, directive: MockDirective, limit: number | undefined): TextPlan {
  const all = replyWords(echoed, directive);
  const cap = directive.ignore_limit === true ? undefined : limit;
  if (cap !== undefined && all.length > cap) return { words: all.slice(0, cap), finishReason: 'length' };
  return { words: all, finishReason: 'stop' };
}

const planText = (body: Record<string, unknown>, echoed: string, directive: MockDirective): TextPlan =>
  planReply(echoed, directive, positiveLimit(body.max_completion_tokens ?? body.max_tokens));

/** Pieces in which a tool call's arguments are streamed: 8 characters each. */
export function argumentPieces(args: string): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < args.length; i += 8) pieces.push(args.slice(i, i + 8));
  return pieces;
}

/** A tool call's arguments as an object (Anthropic's input, Gemini's args): `{}` when not a JSON object. */
export function argumentsObject(args: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(args);
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number; audio_tokens: number };
  completion_tokens_details: {
    reasoning_tokens: number;
    audio_tokens: number;
    accepted_prediction_tokens: number;
    rejected_prediction_tokens: number;
  };
}

export type ChatPlan = { usage: ChatUsage } & (
  | ({ kind: 'text' } & TextPlan)
  | { kind: 'tool'; name: string; arguments: string; finishReason: 'tool_calls' }
);

function lastUserText(body: Record<string, unknown>): string {
  const users = messagesOf(body).filter((message) => message.role === 'user');
  return contentText(users[users.length - 1]?.content);
}

/** Everything the mock will answer to a chat request, given the directive that applies to it. */
export function planChat(body: Record<string, unknown>, directive: MockDirective): ChatPlan {
  const prompt = chatPromptTokens(body);
  const reasoning = directive.reasoning_tokens ?? 0;
  const usageFor = (replyTokens: number): ChatUsage => {
    const completion = replyTokens + reasoning;
    return {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      prompt_tokens_details: {
        cached_tokens: Math.min(directive.cached_tokens ?? 0, prompt),
        audio_tokens: 0,
      },
      completion_tokens_details: {
        reasoning_tokens: reasoning,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
    };
  };
  if (directive.tool_call !== undefined) {
    const args = directive.tool_call.arguments ?? '{}';
    return {
      kind: 'tool',
      name: directive.tool_call.name,
      arguments: args,
      finishReason: 'tool_calls',
      usage: usageFor(1 + argumentPieces(args).length),
    };
  }
  const text = planText(body, lastUserText(body), directive);
  return { kind: 'text', ...text, usage: usageFor(text.words.length) };
}

/** Usage the mock reports for a chat completion request (body as the client sent it, markers included). */
export function expectedChatUsage(body: unknown, base: MockDirective = {}): ChatUsage {
  return planOf(planChat, body, base).usage;
}

/** The assistant text the mock replies to a chat completion request. */
export function expectedChatReply(body: unknown, base: MockDirective = {}): string {
  return replyText(planOf(planChat, body, base));
}

export interface SimpleUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** Legacy completions: the prompt as text (string or strings) and the count of pre-tokenised input. */
function completionPrompt(prompt: unknown): { text: string; tokenIds: number } {
  if (typeof prompt === 'string') return { text: prompt, tokenIds: 0 };
  if (!Array.isArray(prompt)) return { text: '', tokenIds: 0 };
  if (prompt.every((item) => typeof item === 'string')) return { text: prompt.join(' '), tokenIds: 0 };
  const ids = prompt.reduce<number>((sum, item) => sum + (Array.isArray(item) ? item.length : 1), 0);
  return { text: '', tokenIds: ids };
}

export function planCompletion(
  body: Record<string, unknown>,
  directive: MockDirective,
): TextPlan & { usage: SimpleUsage } {
  const prompt = completionPrompt(body.prompt);
  const promptTokens = countTokens(prompt.text) + prompt.tokenIds;
  const text = planText(body, prompt.text, directive);
  const completion = text.words.length;
  return {
    ...text,
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completion,
      total_tokens: promptTokens + completion,
    },
  };
}

/** Usage the mock reports for a legacy /v1/completions request. */
export function expectedCompletionUsage(body: unknown, base: MockDirective = {}): SimpleUsage {
  return planOf(planCompletion, body, base).usage;
}

/** Embedding inputs as texts (token-id inputs become empty texts) with each one's token count. */
export function embeddingInputs(input: unknown): { text: string; tokens: number }[] {
  const one = (item: unknown): { text: string; tokens: number } => {
    if (typeof item === 'string') return { text: cleanText(item), tokens: countTokens(item) };
    if (Array.isArray(item)) return { text: '', tokens: item.length };
    return { text: '', tokens: 0 };
  };
  if (typeof input === 'string') return [one(input)];
  if (!Array.isArray(input)) return [];
  // A flat array of numbers is one pre-tokenised input; any other array is a list of inputs.
  if (input.length > 0 && input.every((item) => typeof item === 'number')) return [one(input)];
  return input.map(one);
}

/** Usage the mock reports for /v1/embeddings: prompt_tokens = total_tokens = words of every input. */
export function expectedEmbeddingUsage(body: unknown): { prompt_tokens: number; total_tokens: number } {
  const tokens = embeddingInputs(isRecord(body) ? body.input : undefined).reduce((s, i) => s + i.tokens, 0);
  return { prompt_tokens: tokens, total_tokens: tokens };
}

/** Rerank documents as texts: strings or `{ text }` objects. */
export function rerankDocuments(documents: unknown): string[] {
  if (!Array.isArray(documents)) return [];
  return documents.map((doc) =>
    typeof doc === 'string' ? doc : isRecord(doc) && typeof doc.text === 'string' ? doc.text : '',
  );
}

/** Usage the mock reports for /v1/rerank: words of the query plus words of every document. */
export function expectedRerankUsage(body: unknown): { total_tokens: number } {
  const record = isRecord(body) ? body : {};
  const query = typeof record.query === 'string' ? countTokens(record.query) : 0;
  const docs = rerankDocuments(record.documents).reduce((sum, doc) => sum + countTokens(doc), 0);
  return { total_tokens: query + docs };
}
