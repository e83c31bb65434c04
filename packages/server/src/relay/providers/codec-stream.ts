// A provider's stream parser built from its dialect's codec: SSE framing, then the codec's decoder.
// Each event keeps its exact bytes (forwarded to a client of the same dialect) and its neutral deltas
// (re-encoded for a client of another one).
import type { IrStreamEvent } from '../ir/stream.js';
import { SseDecoder } from '../sse.js';
import type { RawBytes, SseEvent } from '../sse.js';
import type { ChatCodec, ChatStreamDecoder, DecodedStreamEvent } from '../wire/types.js';
import type { StreamParser } from './types.js';

/**
 * A decoded event as the pipeline reads it, its exact bytes kept. One literal with every field in one
 * order (see "One shape per object" in docs/relay-design.md).
 */
export function streamEventOf(raw: RawBytes, d: DecodedStreamEvent): IrStreamEvent {
  return {
    bytes: raw.bytes,
    start: raw.start,
    end: raw.end,
    content: d.deltas.length > 0,
    done: d.done,
    text: d.text,
    usage: d.usage,
    usageOnly: d.usageOnly,
    finished: d.finished,
    error: d.error,
    deltas: d.deltas,
  };
}

const toEvent = (decoder: ChatStreamDecoder, event: SseEvent): IrStreamEvent =>
  streamEventOf(event, decoder.decode(event));

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
