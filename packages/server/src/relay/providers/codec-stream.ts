// A provider's stream parser built from its dialect's codec: SSE framing, then the codec's decoder.
// Each event keeps its exact bytes (forwarded to a client of the same dialect) and its neutral deltas
// (re-encoded for a client of another one).
import type { IrStreamEvent } from '../ir/stream.js';
import { SseDecoder } from '../sse.js';
import type { ConstantEvent, PlainEvent, RawBytes, SseEvent } from '../sse.js';
import type { ConstantEvents } from '../wire/constant-events.js';
import type { TextEventTemplate } from '../wire/text-event-template.js';
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

/** How a stream's plain text events are read: the template that matches them, and what one means. */
export interface PlainReader {
  template: TextEventTemplate;
  read(event: PlainEvent): IrStreamEvent;
}

/** What an event a book of constant events knows means: nothing but itself, or the end. */
const constantEventOf = (event: ConstantEvent): IrStreamEvent =>
  streamEventOf(event, {
    deltas: [],
    usage: undefined,
    usageOnly: false,
    finished: false,
    done: event.done,
    text: '',
    error: undefined,
  });

/**
 * The events of what `sse` was given: each plain text event `plain`'s template matches whole is read
 * from its bytes, each event `constants` knows by its bytes means what it records, any other is
 * framed and read by `read`.
 */
export function readEvents(
  sse: SseDecoder,
  plain: PlainReader | undefined,
  constants: ConstantEvents | undefined,
  read: (event: SseEvent) => IrStreamEvent,
): IrStreamEvent[] {
  const events: IrStreamEvent[] = [];
  for (;;) {
    if (plain !== undefined) {
      const matched = sse.nextPlain(plain.template);
      if (matched !== undefined) {
        events.push(plain.read(matched));
        continue;
      }
    }
    if (constants !== undefined) {
      const known = sse.nextConstant(constants);
      if (known !== undefined) {
        events.push(constantEventOf(known));
        continue;
      }
    }
    const event = sse.next();
    if (event === undefined) return events;
    events.push(read(event));
  }
}

/** A parser of SSE bytes for a dialect's decoder. */
export function decoderStreamParser(decoder: ChatStreamDecoder): StreamParser {
  const sse = new SseDecoder();
  const { plainText, constantEvents } = decoder;
  const plain: PlainReader | undefined = plainText && {
    template: plainText.template,
    read: (event) => streamEventOf(event, plainText.decode(event.text)),
  };
  const read = (event: SseEvent) => streamEventOf(event, decoder.decode(event));
  return {
    push: (chunk) => {
      sse.append(chunk);
      return readEvents(sse, plain, constantEvents, read);
    },
    end: () => sse.end().map(read),
  };
}

/** Decodes an SSE body with `codec`. */
export const codecStreamParser = (codec: ChatCodec): StreamParser =>
  decoderStreamParser(codec.createStreamDecoder());
