// Gemini generateContent: the usageMetadata and answer the mock gives a request, by the word-count rule of
// usage.ts. Gemini counts cached tokens inside promptTokenCount and thoughts apart from the candidates, and,
// as proto3 JSON does, leaves out counts that are zero.
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

export interface ModalityTokenCount {
  modality: 'TEXT';
  tokenCount: number;
}

export interface GeminiUsage {
  promptTokenCount: number;
  /** Absent when the answer has no tokens. */
  candidatesTokenCount?: number;
  totalTokenCount: number;
  /** Inside promptTokenCount; absent when nothing was cached. */
  cachedContentTokenCount?: number;
  promptTokensDetails: ModalityTokenCount[];
  cacheTokensDetails?: ModalityTokenCount[];
  /** Apart from candidatesTokenCount, inside totalTokenCount; absent without reasoning. */
  thoughtsTokenCount?: number;
}

export type GeminiFinishReason = 'STOP' | 'MAX_TOKENS';

export type GeminiAnswer = { kind: 'text'; words: string[] } | { kind: 'tool'; name: string; args: unknown };

export interface GeminiPlan {
  usage: GeminiUsage;
  /** Words of the thought parts, sent before the answer. */
  thoughts: string[];
  answer: GeminiAnswer;
  finishReason: GeminiFinishReason;
}

/** A field of a Gemini request, which Google accepts in lowerCamelCase or in its proto snake_case name. */
export function geminiField(object: Record<string, unknown>, camel: string): unknown {
  if (camel in object) return object[camel];
  return object[camel.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)];
}

/** Text of a Content: its text parts joined by spaces. */
export function geminiContentText(content: unknown): string {
  if (!isRecord(content) || !Array.isArray(content.parts)) return '';
  return content.parts
    .map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : ''))
    .join(' ');
}

const contentsOf = (body: Record<string, unknown>): Record<string, unknown>[] =>
  Array.isArray(body.contents) ? body.contents.filter(isRecord) : [];

/** Σ over contents (1 + words), plus the words of the system instruction. Also what countTokens answers. */
export function geminiPromptTokens(body: Record<string, unknown>): number {
  return contentsOf(body).reduce(
    (sum, content) => sum + 1 + countTokens(geminiContentText(content)),
    countTokens(geminiContentText(geminiField(body, 'systemInstruction'))),
  );
}

function usageMetadata(prompt: number, cached: number, candidates: number, thoughts: number): GeminiUsage {
  return {
    promptTokenCount: prompt,
    ...(candidates > 0 ? { candidatesTokenCount: candidates } : {}),
    totalTokenCount: prompt + candidates + thoughts,
    ...(cached > 0 ? { cachedContentTokenCount: cached } : {}),
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: prompt }],
    ...(cached > 0 ? { cacheTokensDetails: [{ modality: 'TEXT', tokenCount: cached }] } : {}),
    ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
  };
}

/** Everything the mock answers to a generateContent request, given the directive that applies to it. */
export function planGemini(body: Record<string, unknown>, directive: MockDirective): GeminiPlan {
  const prompt = geminiPromptTokens(body);
  const cached = Math.min(directive.cached_tokens ?? 0, prompt);
  const thoughts = thoughtWords(directive);
  if (directive.tool_call !== undefined) {
    const args = directive.tool_call.arguments ?? '{}';
    return {
      usage: usageMetadata(prompt, cached, 1 + argumentPieces(args).length, thoughts.length),
      thoughts,
      answer: { kind: 'tool', name: directive.tool_call.name, args: argumentsObject(args) },
      finishReason: 'STOP',
    };
  }
  const users = contentsOf(body).filter((content) => (content.role ?? 'user') === 'user');
  const config = geminiField(body, 'generationConfig');
  const limit = isRecord(config) ? positiveLimit(geminiField(config, 'maxOutputTokens')) : undefined;
  const text = planReply(geminiContentText(users[users.length - 1]), directive, limit);
  return {
    usage: usageMetadata(prompt, cached, text.words.length, thoughts.length),
    thoughts,
    answer: { kind: 'text', words: text.words },
    finishReason: text.finishReason === 'length' ? 'MAX_TOKENS' : 'STOP',
  };
}

/** usageMetadata the mock reports for a generateContent request (body as sent, markers included). */
export function expectedGeminiUsage(body: unknown, base: MockDirective = {}): GeminiUsage {
  return planOf(planGemini, body, base).usage;
}

/** The answer text (thought parts excluded) the mock gives a generateContent request. */
export function expectedGeminiReply(body: unknown, base: MockDirective = {}): string {
  return replyText(planOf(planGemini, body, base).answer);
}
