// What a provider's stream parser reports for each upstream event.
import type { RawBytes } from '../sse.js';
import type { ChatDelta } from './chat.js';
import type { IrUsage } from './usage.js';

/** One upstream event; `bytes`, `start` and `end` say where its exact bytes lie (SSE framing included). */
export interface IrStreamEvent extends RawBytes {
  /**
   * The event is part of the answer (not a comment, keep-alive or preamble): the client's stream may
   * open with it. Until then a failing channel can still be replaced by another.
   */
  content: boolean;
  /** The end-of-stream marker ([DONE] in the OpenAI format). */
  done: boolean;
  /** Generated text this event added (content, tool-call arguments), for counting when usage is missing. */
  text: string;
  /** Usage the event carried. */
  usage?: IrUsage;
  /** The event exists only to carry usage: left out for clients that did not ask for it. */
  usageOnly: boolean;
  /** The event says the generation finished (a finish reason), so a missing end marker is harmless. */
  finished: boolean;
  /** The upstream reported an error inside the stream, or sent an event that is not valid JSON. */
  error?: string;
  /** What the event means in neutral form; filled in only when the client speaks another dialect. */
  deltas: ChatDelta[] | undefined;
}
