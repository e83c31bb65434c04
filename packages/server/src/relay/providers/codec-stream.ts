// A provider's stream parser built from its dialect's codec: SSE framing, then the codec's decoder.
// Each event keeps its exact bytes (forwarded to a client of the same dialect) and its neutral deltas
// (re-encoded for a client of another one).
import type { IrStreamEvent } from '../ir/stream.js';
import { SseDecoder } from '../sse.js';
import type { SseEvent } from '../sse.js';
import type { ChatCodec, ChatStreamDecoder } from '../wire/types.js';
import type { StreamParser } from './types.js';

/** One literal with every field in one order (see "One shape per object" in docs/relay-design.md). */
function toEvent(decoder: ChatStreamDecoder, event: SseEvent): IrStreamEvent {
  const d = decoder.decode(event);
  return {
    raw: event.raw,
    chunk: undefined,
    done: d.done,
    text: d.text,
    usage: d.usage,
    usageOnly: d.usageOnly,
    finished: d.finished,
    error: d.error,
    deltas: d.deltas,
  };
}

/** Decodes an SSE body with `codec`. */
export function codecStreamParser(codec: ChatCodec): StreamParser {
  const sse = new SseDecoder();
  const decoder = codec.createStreamDecoder();
  const read = (event: SseEvent) => toEvent(decoder, event);
  return {
    push: (chunk) => sse.push(chunk).map(read),
    end: () => sse.end().map(read),
  };
}
