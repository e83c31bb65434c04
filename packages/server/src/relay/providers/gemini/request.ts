// Type 24 upstream calls: the URL, headers and generateContent body of a Gemini (Google AI) call. A
// Gemini client's body is forwarded as its own bytes unless the relay must change it (an output
// limit of the hold's, a thinking suffix on the model name, the site's safety settings); any other
// client's is encoded from the neutral request.
import type { ChatReasoningConfig, ChatRequest } from '../../ir/chat.js';
import type { IrRequest } from '../../ir/request.js';
import { geminiCodec, parseGeminiModelSuffix } from '../../wire/gemini/index.js';
import { openAiChatCodec } from '../../wire/openai/index.js';
import { joinUrl } from '../openai/request.js';
import type { ChannelTarget, OptionReader } from '../types.js';
import { isRecord } from '../../wire/json.js';

type Json = Record<string, unknown>;

export const GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com';

export type GeminiAction =
  'generateContent' | 'streamGenerateContent' | 'embedContent' | 'batchEmbedContents';

/**
 * The harm categories Gemini models take a threshold for (Google's SafetySetting). CIVIC_INTEGRITY is
 * marked deprecated in @google/genai's HarmCategory but still accepted by the Gemini API.
 */
export const HARM_CATEGORIES = [
  'HARM_CATEGORY_HARASSMENT',
  'HARM_CATEGORY_HATE_SPEECH',
  'HARM_CATEGORY_SEXUALLY_EXPLICIT',
  'HARM_CATEGORY_DANGEROUS_CONTENT',
  'HARM_CATEGORY_CIVIC_INTEGRITY',
] as const;

/** The option GeminiSafetySetting's default: Google's own default for current models. */
export const DEFAULT_SAFETY_THRESHOLD = 'BLOCK_NONE';

/** The site options a Gemini call reads. */
export type GeminiOptions = OptionReader;

export const safetyThreshold = (options: GeminiOptions | undefined): string =>
  options?.get('GeminiSafetySetting') || DEFAULT_SAFETY_THRESHOLD;

export const safetySettings = (threshold: string) =>
  HARM_CATEGORIES.map((category) => ({ category, threshold }));

/**
 * The model the URL names: the upstream name without a thinking suffix, and without a leading
 * `models/` an operator may have written in a model mapping.
 */
export function geminiModelOf(upstreamModel: string): { model: string; reasoning?: ChatReasoningConfig } {
  const suffix = parseGeminiModelSuffix(upstreamModel.replace(/^models\//, ''));
  return suffix.reasoning ? { model: suffix.model, reasoning: suffix.reasoning } : { model: suffix.model };
}

export function geminiUrl(channel: ChannelTarget, model: string, action: GeminiAction): string {
  const url = joinUrl(channel.baseUrl || GEMINI_BASE_URL, `/v1beta/models/${model}:${action}`);
  return action === 'streamGenerateContent' ? `${url}?alt=sse` : url;
}

export function geminiHeaders(key: string, stream: boolean): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: stream ? 'text/event-stream' : 'application/json',
    'x-goog-api-key': key,
  };
}

/** A thinking suffix as Gemini's thinkingConfig: no budget means dynamic thinking (-1). */
export function thinkingConfigOf(reasoning: ChatReasoningConfig): Json {
  const budget = reasoning.budgetTokens ?? -1;
  return budget === 0
    ? { thinkingBudget: 0 }
    : { thinkingBudget: budget, includeThoughts: reasoning.includeThoughts === true };
}

/**
 * A field Google accepts in lowerCamelCase or in its proto snake_case name: the value under either,
 * and the snake_case name removed from `object` so the camelCase one written back is the only one.
 */
function takeField(object: Json, camel: string, snake: string): unknown {
  const value = object[camel] ?? object[snake];
  delete object[snake];
  return value;
}

/**
 * A Gemini client's body for the upstream: its own bytes when nothing changes; else a copy with the
 * hold's output limit, the suffix's thinking config and, when the client set none, the site's
 * safety settings.
 */
export function geminiPassThroughBody(
  ir: IrRequest,
  reasoning: ChatReasoningConfig | undefined,
  threshold: string,
): Buffer | string {
  const needsSafety = ir.body.safetySettings == null && ir.body.safety_settings == null;
  if (ir.outputLimit === undefined && reasoning === undefined && !needsSafety && ir.raw) return ir.raw;
  const body: Json = Object.assign({}, ir.body);
  if (needsSafety) {
    delete body.safety_settings;
    body.safetySettings = safetySettings(threshold);
  }
  if (ir.outputLimit !== undefined || reasoning !== undefined) {
    const given = takeField(body, 'generationConfig', 'generation_config');
    const config: Json = Object.assign({}, isRecord(given) ? given : {});
    if (ir.outputLimit !== undefined) {
      takeField(config, 'maxOutputTokens', 'max_output_tokens');
      config.maxOutputTokens = ir.outputLimit;
    }
    if (reasoning !== undefined) {
      takeField(config, 'thinkingConfig', 'thinking_config');
      config.thinkingConfig = thinkingConfigOf(reasoning);
    }
    body.generationConfig = config;
  }
  return JSON.stringify(body);
}

/**
 * The neutral request of a chat call whose client is not Gemini. The pipeline hands it over as
 * `chat`; a caller that did not (the channel probe sends an OpenAI body) gets its OpenAI body decoded.
 */
export function neutralRequest(ir: IrRequest, chat: ChatRequest | undefined): ChatRequest {
  if (chat) return chat;
  if (ir.wire !== undefined && ir.wire !== 'openai') {
    throw new Error(`a ${ir.wire} request reached the Gemini adapter without its neutral form`);
  }
  const decoded = openAiChatCodec.decodeRequest(ir.body);
  const limit = ir.outputLimit ?? decoded.maxOutputTokens;
  return Object.assign(decoded, { model: ir.model, stream: ir.stream, maxOutputTokens: limit });
}

/** A generateContent body encoded from the neutral request, with the suffix's thinking and safety settings. */
export function geminiConvertedBody(
  chat: ChatRequest,
  model: string,
  reasoning: ChatReasoningConfig | undefined,
  threshold: string,
): string {
  const request = reasoning ? Object.assign({}, chat, { reasoning }) : chat;
  const body = geminiCodec.encodeRequest(request, {
    model,
    maxOutputTokens: request.maxOutputTokens,
    streamUsage: true,
  });
  body.safetySettings = safetySettings(threshold);
  return JSON.stringify(body);
}
