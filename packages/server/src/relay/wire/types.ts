// The contract of a chat wire dialect (OpenAI Chat, OpenAI Responses, Anthropic Messages, Gemini),
// in both directions: the inbound format of that dialect decodes client requests and encodes answers
// with it, and every vendor that speaks it (Anthropic, Bedrock and Vertex for Claude; Gemini and Vertex
// for Gemini; OpenAI and Azure) encodes requests and decodes answers with it. Pure functions only.
import type { IrError } from '../ir/errors.js';
import type { ChatAnswer, ChatDelta, ChatRequest, StreamIdentity } from '../ir/chat.js';
import type { IrUsage } from '../ir/usage.js';
import type { SseEvent } from '../sse.js';
import type { ConstantEvents } from './constant-events.js';
import type { TextEventTemplate } from './text-event-template.js';

/** The chat dialects; a call whose client and upstream speak the same one is forwarded as bytes. */
export type ChatWire = 'openai' | 'responses' | 'anthropic' | 'gemini';

/** What a vendor-side stream event means, decoded from the dialect's event. */
export interface DecodedStreamEvent {
  /** The answer's steps this event carries. */
  deltas: ChatDelta[];
  /** Usage so far, normalised (prompt tokens include cached ones); the last one seen wins. */
  usage?: IrUsage;
  /** The event carries only usage (dropped for OpenAI clients that did not ask for it). */
  usageOnly: boolean;
  /** The event says the generation finished. */
  finished: boolean;
  /** The dialect's end-of-stream marker. */
  done: boolean;
  /** Generated text this event added, for counting when usage is missing. */
  text: string;
  /** The upstream reported an error inside the stream, or sent an event that is not valid. */
  error?: string;
}

export interface ChatStreamDecoder {
  /** One upstream SSE event. */
  decode(event: SseEvent): DecodedStreamEvent;
  /**
   * The dialect's plain text events, when it has them: the template `decode` learns them into, which
   * the SSE decoder matches in the upstream's bytes (see text-event-template.ts), and what such an
   * event with a given text means (what `decode` would have said of it).
   */
  readonly plainText?: { template: TextEventTemplate; decode(text: string): DecodedStreamEvent };
  /**
   * The book of events that mean the same in every stream of the dialect, shared by its decoders:
   * `decode` records them, the SSE decoder knows them by their bytes (see constant-events.ts).
   */
  readonly constantEvents?: ConstantEvents;
}

export interface ChatStreamEncoder {
  /** Client bytes for these steps (the stream's opening events come with the first call). */
  push(deltas: readonly ChatDelta[]): string;
  /**
   * The closing events of a complete answer, with the call's final usage (the upstream's, or Sluice's
   * own count when the upstream sent none).
   */
  end(usage: IrUsage): string;
  /** An error told inside a started stream. */
  error(error: IrError): string;
}

export interface EncodeOptions {
  /** The model name the upstream gets (after the channel's mapping). */
  model: string;
  /** The output limit to send; undefined leaves the request's own (or the vendor's default). */
  maxOutputTokens?: number;
  /** Ask a stream for usage when the dialect makes that optional (OpenAI's include_usage). */
  streamUsage: boolean;
}

export interface ChatCodec {
  readonly wire: ChatWire;
  /** A client's request body (already a JSON object) → the neutral request. Throws a 400 RelayError. */
  decodeRequest(body: Readonly<Record<string, unknown>>): ChatRequest;
  /** The neutral request → this dialect's request body. */
  encodeRequest(request: ChatRequest, options: EncodeOptions): Record<string, unknown>;
  /** A vendor's successful answer body → the neutral answer. Throws when it is not this dialect's shape. */
  decodeAnswer(body: unknown): ChatAnswer;
  /** The neutral answer → this dialect's answer body, for a client. */
  encodeAnswer(answer: ChatAnswer, identity: StreamIdentity): Record<string, unknown>;
  createStreamDecoder(): ChatStreamDecoder;
  createStreamEncoder(identity: StreamIdentity, options: { includeUsage: boolean }): ChatStreamEncoder;
}
