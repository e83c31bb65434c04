// AWS event-stream framing (application/vnd.amazon.eventstream), decoded incrementally: each message
// is a 4-byte big-endian total length, headers and a payload, with CRC32 checks. This module only
// gathers a message's bytes; AWS's own codec (@smithy/core event-streams) checks and decodes them.
import type { EventStreamCodec, Message } from '@smithy/core/event-streams';

type Codec = Pick<EventStreamCodec, 'decode'>;
let loadedCodec: (() => Codec) | undefined;

/**
 * Loads AWS's event-stream codec (on a Bedrock call's way out, before its answer can arrive), so a
 * gateway without Bedrock channels never loads it.
 */
export async function loadEventStreamCodec(): Promise<void> {
  if (loadedCodec) return;
  const [{ EventStreamCodec: Codec }, { fromUtf8, toUtf8 }] = await Promise.all([
    import('@smithy/core/event-streams'),
    import('@smithy/core/serde'),
  ]);
  loadedCodec = () => new Codec(toUtf8, fromUtf8);
}

function newCodec(): Codec {
  if (!loadedCodec) throw new Error('the event-stream codec was not loaded before the answer came');
  return loadedCodec();
}

/** A message's prelude: total length, headers length, prelude CRC. */
const PRELUDE_BYTES = 12;
/** Prelude plus the message CRC: a message with no headers and no payload. */
const MIN_MESSAGE_BYTES = 16;
/** AWS caps an event-stream message at 16 MB (and its payload at 16 MB less the rest). */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024 + 128 * 1024;
const EMPTY = Buffer.alloc(0);

/** What one event-stream message says, by its `:message-type` header. */
export type EventStreamItem =
  | { kind: 'event'; eventType: string; payload: Uint8Array }
  | { kind: 'exception'; exceptionType: string; payload: Uint8Array }
  | { kind: 'error'; code: string; message: string }
  | { kind: 'malformed'; message: string };

const stringHeader = (message: Message, name: string): string => {
  const header = message.headers[name];
  return header?.type === 'string' ? header.value : '';
};

function itemOf(message: Message): EventStreamItem {
  switch (stringHeader(message, ':message-type')) {
    case 'exception':
      return {
        kind: 'exception',
        exceptionType: stringHeader(message, ':exception-type'),
        payload: message.body,
      };
    case 'error':
      return {
        kind: 'error',
        code: stringHeader(message, ':error-code'),
        message: stringHeader(message, ':error-message'),
      };
    default:
      return { kind: 'event', eventType: stringHeader(message, ':event-type'), payload: message.body };
  }
}

export class EventStreamDecoder {
  private readonly codec = newCodec();
  private pending: Buffer = EMPTY;
  /** Set once the framing is broken: nothing after it can be trusted. */
  private broken = false;

  /** The messages completed by `chunk` (a broken frame ends the stream with one `malformed` item). */
  push(chunk: Buffer): EventStreamItem[] {
    if (this.broken) return [];
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const items: EventStreamItem[] = [];
    let offset = 0;
    while (this.pending.length - offset >= PRELUDE_BYTES) {
      const length = this.pending.readUInt32BE(offset);
      if (length < MIN_MESSAGE_BYTES || length > MAX_MESSAGE_BYTES) {
        items.push(this.fail(`a message length of ${length} bytes`));
        return items;
      }
      if (this.pending.length - offset < length) break;
      try {
        items.push(itemOf(this.codec.decode(this.pending.subarray(offset, offset + length))));
      } catch (error) {
        items.push(this.fail((error as Error).message));
        return items;
      }
      offset += length;
    }
    this.pending = offset === this.pending.length ? EMPTY : this.pending.subarray(offset);
    return items;
  }

  /** The upstream closed: bytes of an unfinished message mean it was cut. */
  end(): EventStreamItem[] {
    if (this.broken || this.pending.length === 0) return [];
    return [this.fail('the stream ended inside a message')];
  }

  private fail(problem: string): EventStreamItem {
    this.broken = true;
    this.pending = EMPTY;
    return { kind: 'malformed', message: `the upstream sent a malformed event-stream message (${problem})` };
  }
}
