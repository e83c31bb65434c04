// ChatRequest → a generateContent body for Gemini (Google AI) and Vertex Gemini. The model is not in
// the body: the adapter puts options.model in the URL, and adds what is channel-specific (safety
// settings) itself.
import type {
  ChatImage,
  ChatMessage,
  ChatPart,
  ChatReasoningConfig,
  ChatRequest,
  ChatToolChoice,
  ChatToolResult,
  ReasoningEffort,
} from '../../ir/chat.js';
import type { EncodeOptions } from '../types.js';
import { geminiParameters } from './schema.js';
import type { Json } from './shared.js';
import { writeModelParts } from './parts.js';
import { documentMimeOf, imageMimeOf, isRecord, parseDataUrl } from './shared.js';

/** Gemini accepts at most five stop sequences. */
const MAX_STOP_SEQUENCES = 5;

/**
 * Thinking budgets for an effort with no budget of its own. Google documents budgets of 128–32768 for
 * 2.5 Pro (which cannot turn thinking off), 0–24576 for 2.5 Flash and 512–24576 for 2.5 Flash-Lite;
 * every value here lies inside all three, so `minimal` is 512 rather than 0. Gemini 3 models take a
 * budget too (Google maps it to their thinking levels).
 */
const EFFORT_BUDGET: Readonly<Record<ReasoningEffort, number>> = {
  minimal: 512,
  low: 1024,
  medium: 8192,
  high: 24576,
};

/** Thinking on with no budget or effort is Gemini's dynamic thinking (budget -1). */
function thinkingConfig(reasoning: ChatReasoningConfig | undefined) {
  if (!reasoning) return undefined;
  const budget = reasoning.budgetTokens ?? (reasoning.effort ? EFFORT_BUDGET[reasoning.effort] : -1);
  return { thinkingBudget: budget, includeThoughts: budget === 0 ? undefined : reasoning.includeThoughts };
}

const AUDIO_TYPES: Readonly<Record<string, string>> = { mp3: 'audio/mp3', wav: 'audio/wav' };

const inline = (mimeType: string, data: string): Json => ({ inlineData: { mimeType, data } });

/**
 * A file by URL. Gemini fetches only files it hosts (the Files API, or gs:// on Vertex) and a few
 * public sources; an ordinary https image URL is sent as fileData all the same and Gemini answers
 * an error for it if it cannot read it. A data: URL is sent inline.
 */
function byUrl(url: string, mimeType: string): Json {
  const data = parseDataUrl(url);
  return data ? inline(data.mediaType, data.data) : { fileData: { mimeType, fileUri: url } };
}

function imagePart(image: ChatImage): Json | undefined {
  if (image.data !== undefined) return inline(image.mediaType ?? 'image/png', image.data);
  return image.url !== undefined ? byUrl(image.url, image.mediaType ?? imageMimeOf(image.url)) : undefined;
}

/** Media and text a user (or model) turn may carry. */
function contentPart(part: ChatPart): Json | undefined {
  switch (part.type) {
    case 'text':
      return part.text === '' ? undefined : { text: part.text };
    case 'image':
      return imagePart(part);
    case 'audio':
      return inline(AUDIO_TYPES[part.format] ?? `audio/${part.format}`, part.data);
    case 'document':
      if (part.data !== undefined) return inline(part.mediaType ?? 'application/pdf', part.data);
      if (part.url !== undefined) return byUrl(part.url, part.mediaType ?? documentMimeOf(part.url));
      return part.text !== undefined ? { text: part.text } : undefined;
    default:
      return undefined;
  }
}

/**
 * A tool result's `response`, which Gemini wants as an object: JSON object text as it is, anything
 * else under "output" (or "error" for a failed call), the keys Google documents for FunctionResponse.
 */
function functionResponse(result: ChatToolResult): Json {
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (result.isError) return { error: isRecord(parsed) ? parsed : text };
  return isRecord(parsed) ? parsed : { output: text };
}

/**
 * A tool message: one functionResponse per result, named by the result or by the call it answers
 * (Gemini requires the name). Images a tool returned follow the responses as inline parts.
 */
function toolParts(parts: ChatPart[], callNames: ReadonlyMap<string, string>): Json[] {
  const responses: Json[] = [];
  const media: Json[] = [];
  for (const part of parts) {
    if (part.type !== 'tool_result') continue;
    const name = part.name ?? callNames.get(part.toolCallId) ?? part.toolCallId;
    responses.push({ functionResponse: { id: part.toolCallId, name, response: functionResponse(part) } });
    for (const item of part.content) {
      const image = item.type === 'image' ? imagePart(item) : undefined;
      if (image) media.push(image);
    }
  }
  return [...responses, ...media];
}

interface GeminiContent {
  role: 'user' | 'model';
  parts: Json[];
}

/**
 * Messages → contents. Tool messages become user turns; consecutive turns of one role are merged, so
 * the responses to a model turn's parallel calls arrive in one turn as Gemini requires.
 */
function encodeContents(messages: ChatMessage[]): GeminiContent[] {
  // The latest call of each id so far: clients that reuse ids across turns still get the right name.
  const callNames = new Map<string, string>();
  const contents: GeminiContent[] = [];
  for (const message of messages) {
    const role = message.role === 'assistant' ? 'model' : 'user';
    if (message.role === 'assistant') {
      for (const part of message.parts) if (part.type === 'tool_call') callNames.set(part.id, part.name);
    }
    const parts =
      message.role === 'assistant'
        ? writeModelParts(message.parts, true, contentPart)
        : message.role === 'tool'
          ? toolParts(message.parts, callNames)
          : message.parts.map(contentPart).filter((part): part is Json => part !== undefined);
    if (parts.length === 0) continue;
    const last = contents[contents.length - 1];
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  }
  return contents;
}

function toolConfig(choice: ChatToolChoice | undefined) {
  if (!choice) return undefined;
  switch (choice.type) {
    case 'auto':
      return { functionCallingConfig: { mode: 'AUTO' } };
    case 'none':
      return { functionCallingConfig: { mode: 'NONE' } };
    case 'required':
      return { functionCallingConfig: { mode: 'ANY' } };
    case 'tool':
      return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.name] } };
  }
}

/** A ChatRequest as a generateContent body; parallelToolCalls and user have no Gemini field. */
export function encodeGeminiRequest(request: ChatRequest, options: EncodeOptions): Record<string, unknown> {
  const format = request.responseFormat;
  const hasTools = request.tools.length > 0;
  return {
    contents: encodeContents(request.messages),
    systemInstruction:
      request.system.length > 0 ? { parts: request.system.map((part) => ({ text: part.text })) } : undefined,
    tools: hasTools
      ? [
          {
            // parametersJsonSchema takes JSON Schema as it is; `parameters` takes only Google's
            // OpenAPI subset and rejects keywords such as additionalProperties on older models.
            functionDeclarations: request.tools.map((tool) => ({
              name: tool.name,
              description: tool.description,
              parametersJsonSchema: geminiParameters(tool.parameters),
            })),
          },
        ]
      : undefined,
    toolConfig: hasTools ? toolConfig(request.toolChoice) : undefined,
    generationConfig: {
      maxOutputTokens: options.maxOutputTokens ?? request.maxOutputTokens,
      temperature: request.temperature,
      topP: request.topP,
      topK: request.topK,
      stopSequences: request.stop.length > 0 ? request.stop.slice(0, MAX_STOP_SEQUENCES) : undefined,
      presencePenalty: request.presencePenalty,
      frequencyPenalty: request.frequencyPenalty,
      seed: request.seed,
      responseMimeType: format ? 'application/json' : undefined,
      responseJsonSchema: format?.type === 'json_schema' ? format.schema : undefined,
      thinkingConfig: thinkingConfig(request.reasoning),
    },
  };
}
