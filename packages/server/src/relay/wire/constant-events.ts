// Some events of a dialect's streams mean the same in every stream and come from an upstream byte for
// byte the same each time: Anthropic's ping, the stop of a content block, message_stop. A decoder that
// has parsed such an event records its bytes here, in a book its dialect's streams share; the SSE
// decoder then knows the same bytes at the start of an event in any later stream, and the event is
// read without being framed or parsed. Only events that carry nothing but themselves (no text, usage,
// delta or error; at most the end of the stream) are recorded, and only whole events that end at their
// first blank line written "\n\n", as they are matched.
import { rawText } from '../sse.js';
import type { RawBytes } from '../sse.js';

/** Events longer than this are not recorded (those worth knowing are a few dozen bytes). */
const MAX_LENGTH = 256;
/** Events a book holds at most; past that the oldest goes. */
const MAX_EVENTS = 64;

export class ConstantEvents {
  /** An event's bytes as latin1 text → whether it ends the stream. */
  private readonly known = new Map<string, boolean>();
  /** Whether the event `match` last found ends the stream. */
  done = false;

  /**
   * Where the event at `at` in `text` (an SSE decoder's bytes as latin1) ends, when its bytes are a
   * recorded event's (`done` then tells what it means); -1 when they are not.
   */
  match(text: string, at: number): number {
    if (this.known.size === 0) return -1;
    const blank = text.indexOf('\n\n', at);
    if (blank === -1 || blank + 2 - at > MAX_LENGTH) return -1;
    const done = this.known.get(text.slice(at, blank + 2));
    if (done === undefined) return -1;
    this.done = done;
    return blank + 2;
  }

  /**
   * Records a framed event that means nothing but itself in any stream (`done`: the end of the stream).
   * Called by a decoder after parsing it.
   */
  record(event: RawBytes, done: boolean): void {
    if (event.end - event.start > MAX_LENGTH) return;
    const raw = rawText(event);
    // `match` finds an event by its first blank line; one written otherwise would never be found.
    if (raw.includes('\r') || raw.indexOf('\n\n') !== raw.length - 2 || this.known.has(raw)) return;
    if (this.known.size >= MAX_EVENTS) this.known.delete(this.known.keys().next().value as string);
    this.known.set(raw, done);
  }

  /** How many events the book holds. */
  get size(): number {
    return this.known.size;
  }
}
