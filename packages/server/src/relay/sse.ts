// Server-sent events, decoded incrementally from upstream bytes and encoded for clients. Events keep
// their exact bytes so a same-format relay forwards them untouched.
import { isAscii } from 'node:buffer';

/**
 * Where an event's exact bytes lie: `bytes` from `start` to `end` (the whole event as received, up to
 * and including the blank line that ends it). Offsets, not a view per event: a relay forwards the
 * events of one read together, as one view per run of them (measured in-process: a view per event
 * was about 3.7 µs of the 21 µs a 53-event stream took to read).
 */
export interface RawBytes {
  /** The upstream read the event lies in (or the reads joined, when the event spanned them). */
  bytes: Buffer;
  start: number;
  end: number;
}

/** An event's exact bytes, as a view. */
export const rawOf = (event: RawBytes): Buffer => event.bytes.subarray(event.start, event.end);

export interface SseEvent extends RawBytes {
  /** The data lines joined with "\n", as text (undefined when the event has none, e.g. a comment). */
  data?: string;
  /** The event field, when present (Claude-style streams name their events). */
  event?: string;
}

const LF = 0x0a;
const CR = 0x0d;
const EMPTY = Buffer.alloc(0);

/** Where a field's value starts: after the colon and one optional space. */
const valueStart = (text: string, afterColon: number, end: number): number =>
  afterColon < end && text.charCodeAt(afterColon) === 0x20 ? afterColon + 1 : afterColon;

/**
 * The decoder scans a copy of the unread bytes as a latin1 string (one character per byte, so offsets
 * match and a line feed is a line feed: UTF-8 never uses bytes below 0x80 inside a character). String
 * searches and slices are plain JavaScript, where a Buffer view per line or value was a native call
 * and an object each, most of the decoder's time. When the bytes are all ASCII (the usual case) that
 * string is already their text and each event's data is a slice of it; otherwise each data is decoded
 * from the bytes as UTF-8.
 */
export class SseDecoder {
  private pending: Buffer = EMPTY;
  /** `pending` as latin1. */
  private text = '';
  /** Whether `pending` is all ASCII (then `text` is also its UTF-8 reading). */
  private ascii = true;
  /** Offset in `pending` where the current (unfinished) event starts. */
  private eventStart = 0;
  /** Offset in `pending` up to which lines have been scanned. */
  private scanned = 0;
  /** The current event's data lines: start and end offsets, in pairs. */
  private readonly dataLines: number[] = [];
  private eventName: string | undefined;

  push(chunk: Buffer): SseEvent[] {
    if (this.pending.length === 0) {
      this.pending = chunk;
      this.text = chunk.toString('latin1');
      this.ascii = isAscii(chunk);
    } else {
      this.pending = Buffer.concat([this.pending, chunk]);
      this.text += chunk.toString('latin1');
      this.ascii = this.ascii && isAscii(chunk);
    }
    const text = this.text;
    const events: SseEvent[] = [];
    for (;;) {
      const lf = text.indexOf('\n', this.scanned);
      if (lf === -1) break;
      const lineStart = this.scanned;
      const lineEnd = lf > lineStart && text.charCodeAt(lf - 1) === CR ? lf - 1 : lf;
      this.scanned = lf + 1;
      if (lineEnd === lineStart) {
        const event = this.finishEvent(this.scanned);
        if (event) events.push(event);
      } else {
        this.readLine(lineStart, lineEnd);
      }
    }
    // Drop what has been handed out so the buffer never grows past one event.
    if (this.eventStart > 0) {
      this.pending = this.pending.subarray(this.eventStart);
      this.text = this.text.slice(this.eventStart);
      this.ascii = this.ascii || isAscii(this.pending);
      this.scanned -= this.eventStart;
      for (let i = 0; i < this.dataLines.length; i++) (this.dataLines[i] as number) -= this.eventStart;
      this.eventStart = 0;
    }
    return events;
  }

  /** The upstream closed: an event without its final blank line still counts. */
  end(): SseEvent[] {
    if (this.scanned < this.pending.length) {
      this.readLine(this.scanned, this.pending.length);
      this.scanned = this.pending.length;
    }
    const event = this.finishEvent(this.pending.length);
    this.pending = EMPTY;
    this.text = '';
    this.ascii = true;
    this.eventStart = 0;
    this.scanned = 0;
    return event ? [event] : [];
  }

  /** The text of bytes [start, end) of `pending`. */
  private textOf(start: number, end: number): string {
    return this.ascii ? this.text.slice(start, end) : this.pending.toString('utf8', start, end);
  }

  /** The line at [start, end) of `pending`. */
  private readLine(start: number, end: number): void {
    const text = this.text;
    if (text.startsWith('data:', start)) {
      this.dataLines.push(valueStart(text, start + 5, end), end);
    } else if (text.startsWith('event:', start)) {
      this.eventName = this.textOf(valueStart(text, start + 6, end), end);
    }
  }

  private finishEvent(end: number): SseEvent | undefined {
    const start = this.eventStart;
    this.eventStart = end;
    const lines = this.dataLines;
    const eventName = this.eventName;
    this.eventName = undefined;
    if (end === start || (lines.length === 0 && eventName === undefined && this.isBlank(start, end))) {
      lines.length = 0;
      return undefined;
    }
    let data: string | undefined;
    if (lines.length === 2) data = this.textOf(lines[0] as number, lines[1] as number);
    else if (lines.length > 2) {
      const parts: string[] = [];
      for (let i = 0; i < lines.length; i += 2)
        parts.push(this.textOf(lines[i] as number, lines[i + 1] as number));
      data = parts.join('\n');
    }
    // The offsets' array is kept for the next event: a new one per event was about 150 bytes each.
    lines.length = 0;
    // One literal with every field (see "One shape per object" in docs/relay-design.md).
    return { bytes: this.pending, start, end, data, event: eventName };
  }

  private isBlank(start: number, end: number): boolean {
    for (let i = start; i < end; i++) {
      const byte = this.text.charCodeAt(i);
      if (byte !== LF && byte !== CR) return false;
    }
    return true;
  }
}

/** An event made from its data (and name), framed as a server sends it. */
export function sseEvent(data: string, event?: string): SseEvent {
  // SSE data lines cannot hold a line break: a multi-line payload takes one data line per line.
  const lines = data.includes('\n') ? data.split('\n').join('\ndata: ') : data;
  const bytes = Buffer.from(`${event === undefined ? '' : `event: ${event}\n`}data: ${lines}\n\n`);
  return { bytes, start: 0, end: bytes.length, data, event };
}

/** One SSE data event. */
export const sseData = (data: string): string => `data: ${data}\n\n`;

export const SSE_DONE = 'data: [DONE]\n\n';
