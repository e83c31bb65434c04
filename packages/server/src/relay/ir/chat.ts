// The format-neutral chat call: what a chat-like request, answer and stream event mean, independent of
// any vendor's wire shape. Wire codecs (relay/wire/<format>) convert their dialect to and from it when a
// client's format differs from its upstream's; a same-format call never goes through it.
import type { IrUsage } from './usage.js';

/** An image given inline (base64) or by URL. */
export interface ChatImage {
  type: 'image';
  /** An http(s) URL, when the image is referenced rather than inlined. */
  url?: string;
  /** Base64 bytes, when inlined. */
  data?: string;
  /** e.g. image/png; required with `data`. */
  mediaType?: string;
}

/** A file (PDF, plain text) given inline or by URL. */
export interface ChatDocument {
  type: 'document';
  url?: string;
  data?: string;
  mediaType?: string;
  /** Plain text content (Anthropic's text documents). */
  text?: string;
  title?: string;
}

export interface ChatAudio {
  type: 'audio';
  /** Base64 bytes. */
  data: string;
  /** wav, mp3, … */
  format: string;
}

export interface ChatText {
  type: 'text';
  text: string;
}

/** Model thinking. `signature` is the vendor's proof of it (Anthropic), needed to send it back. */
export interface ChatReasoning {
  type: 'reasoning';
  text: string;
  signature?: string;
  /** Anthropic's redacted_thinking: opaque data only. */
  redacted?: string;
}

export interface ChatToolCall {
  type: 'tool_call';
  id: string;
  name: string;
  /** JSON text of the arguments. */
  arguments: string;
}

export interface ChatToolResult {
  type: 'tool_result';
  toolCallId: string;
  /** The tool's name; Gemini needs it, the others key results by id. */
  name?: string;
  /** What the tool returned (text, or text and images). */
  content: (ChatText | ChatImage)[];
  isError?: boolean;
}

export type ChatPart =
  ChatText | ChatImage | ChatDocument | ChatAudio | ChatReasoning | ChatToolCall | ChatToolResult;

/** `tool` messages carry only tool results; user and assistant messages carry the rest. */
export interface ChatMessage {
  role: 'user' | 'assistant' | 'tool';
  parts: ChatPart[];
}

export interface ChatTool {
  name: string;
  description?: string;
  /** JSON Schema of the arguments (an object schema). */
  parameters: Record<string, unknown>;
}

export type ChatToolChoice =
  { type: 'auto' } | { type: 'none' } | { type: 'required' } | { type: 'tool'; name: string };

export type ChatResponseFormat =
  | { type: 'json_object' }
  | { type: 'json_schema'; name: string; schema: Record<string, unknown>; strict?: boolean };

export type ReasoningEffort = 'minimal' | 'low' | 'medium' | 'high';

/**
 * Thinking settings. `budgetTokens: 0` means thinking is off; an effort without a budget lets each
 * vendor pick its own budget for that effort.
 */
export interface ChatReasoningConfig {
  effort?: ReasoningEffort;
  budgetTokens?: number;
  /** Whether the client wants the thinking text back (Gemini's includeThoughts). */
  includeThoughts?: boolean;
}

export interface ChatRequest {
  model: string;
  stream: boolean;
  /** System instructions, in order. */
  system: ChatText[];
  messages: ChatMessage[];
  tools: ChatTool[];
  toolChoice?: ChatToolChoice;
  parallelToolCalls?: boolean;
  responseFormat?: ChatResponseFormat;
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  stop: string[];
  presencePenalty?: number;
  frequencyPenalty?: number;
  seed?: number;
  reasoning?: ChatReasoningConfig;
  /** An end-user id for the vendor's abuse tracking. */
  user?: string;
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

export interface ChatAnswer {
  id: string;
  model: string;
  /** Text, reasoning and tool calls, in the order the model produced them. */
  parts: (ChatText | ChatReasoning | ChatToolCall)[];
  finishReason: FinishReason;
  usage?: IrUsage;
}

/**
 * One step of a streamed answer. Tool calls arrive as a first piece with id and name followed by
 * argument pieces, all with the same `index` (the call's position among this answer's tool calls).
 */
export type ChatDelta =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string; signature?: string; redacted?: string }
  | { type: 'tool_call'; index: number; id?: string; name?: string; arguments: string }
  | { type: 'finish'; reason: FinishReason };

/** Identity of a streamed answer, for encoders that announce it before the first delta. */
export interface StreamIdentity {
  id: string;
  model: string;
  /** Seconds since the epoch. */
  created: number;
}

/**
 * Joins the steps that continue each other (text after text, reasoning text after reasoning text,
 * arguments of the same tool call) into one, in place of a list: what one upstream read brought is
 * re-encoded for a client as one event per step instead of one per upstream event.
 */
export function joinDeltas(deltas: readonly ChatDelta[]): ChatDelta[] {
  const joined: ChatDelta[] = [];
  for (const delta of deltas) {
    const last = joined.at(-1);
    if (last?.type === 'text' && delta.type === 'text') {
      joined[joined.length - 1] = { type: 'text', text: last.text + delta.text };
    } else if (
      last?.type === 'reasoning' &&
      delta.type === 'reasoning' &&
      last.signature === undefined &&
      last.redacted === undefined &&
      delta.redacted === undefined
    ) {
      joined[joined.length - 1] = {
        type: 'reasoning',
        text: last.text + delta.text,
        signature: delta.signature,
        redacted: undefined,
      };
    } else if (
      last?.type === 'tool_call' &&
      delta.type === 'tool_call' &&
      last.index === delta.index &&
      delta.id === undefined &&
      delta.name === undefined
    ) {
      joined[joined.length - 1] = { ...last, arguments: last.arguments + delta.arguments };
    } else {
      joined.push(delta);
    }
  }
  return joined;
}
