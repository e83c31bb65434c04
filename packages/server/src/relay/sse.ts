// Server-sent events, decoded incrementally from upstream bytes and encoded for clients. Events keep
// their exact bytes so a same-format relay forwards them untouched.
import { isAscii } from 'node:buffer';
import type { ConstantEvents } from './wire/constant-events.js';
import type { TextEventTemplate } from './wire/text-event-template.js';
import { jsonStringValue } from './wire/json.js';

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

/** A plain text event read from its bytes by a text template (see `SseDecoder.nextPlain`). */
export interface PlainEvent extends RawBytes {
  text: string;
}

/** An event its dialect's book of constant events knows by its bytes (see `SseDecoder.nextConstant`). */
export interface ConstantEvent extends RawBytes {
  /** Whether it ends the stream. */
  done: boolean;
}

/** An event's bytes as the decoder scans them (latin1: one character per byte), for text templates. */
export const rawText = (event: RawBytes): string => event.bytes.toString('latin1', event.start, event.end);

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
 *
 * A reader appends each upstream read and takes its events one at a time: `nextPlain` reads a plain
 * text event its template matches whole, straight from the bytes, `nextConstant` an event its
 * dialect's book of constant events knows; `next` frames any event. `push` does both steps for readers
 * without a template or a book.
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
  /**
   * The current event's data lines: start and end offsets, in pairs, `dataCount` of them. The array
   * is kept from event to event and never shortened: setting an array's length is a call into V8's
   * runtime, about 450 instructions per event.
   */
  private readonly dataLines: number[] = [];
  private dataCount = 0;
  private eventName: string | undefined;

  /** All the events of an upstream read (with what was left of the reads before it). */
  push(chunk: Buffer): SseEvent[] {
    this.append(chunk);
    const events: SseEvent[] = [];
    for (let event = this.next(); event !== undefined; event = this.next()) events.push(event);
    return events;
  }

  /** Takes an upstream read; its events are then taken with `next` and `nextPlain`. */
  append(chunk: Buffer): void {
    // What lies before the current event has been handed out: dropped, so the buffer holds at most
    // one event besides the new read.
    const kept = this.eventStart;
    if (kept >= this.pending.length) {
      this.pending = chunk;
      this.text = chunk.toString('latin1');
      this.ascii = isAscii(chunk);
      this.eventStart = 0;
      this.scanned = 0;
      return;
    }
    const rest = this.pending.subarray(kept);
    this.ascii = (this.ascii || isAscii(rest)) && isAscii(chunk);
    this.pending = Buffer.concat([rest, chunk]);
    this.text = this.text.slice(kept) + chunk.toString('latin1');
    this.scanned -= kept;
    for (let i = 0; i < this.dataCount; i++) (this.dataLines[i] as number) -= kept;
    this.eventStart = 0;
  }

  /** The next whole event of what was appended; undefined when none is left. */
  next(): SseEvent | undefined {
    const text = this.text;
    for (;;) {
      const lf = text.indexOf('\n', this.scanned);
      if (lf === -1) return undefined;
      const lineStart = this.scanned;
      const lineEnd = lf > lineStart && text.charCodeAt(lf - 1) === CR ? lf - 1 : lf;
      this.scanned = lf + 1;
      if (lineEnd === lineStart) {
        const event = this.finishEvent(this.scanned);
        if (event !== undefined) return event;
      } else {
        this.readLine(lineStart, lineEnd);
      }
    }
  }

  /**
   * The next event, when it is whole and `template` matches it: a plain text event, read without
   * framing or parsing it. Undefined otherwise (`next` then takes it), and always while the event is
   * only partly read.
   */
  nextPlain(template: TextEventTemplate): PlainEvent | undefined {
    const start = this.scanned;
    if (start !== this.eventStart) return undefined;
    const end = template.match(this.text, start);
    if (end === -1) return undefined;
    let text = this.textOf(template.textStart, template.textEnd);
    if (template.textEscaped) {
      const value = jsonStringValue(text);
      if (value === undefined) return undefined;
      text = value;
    }
    this.scanned = end;
    this.eventStart = end;
    // One literal with every field (see "One shape per object" in docs/relay-design.md).
    return { bytes: this.pending, start, end, text };
  }

  /**
   * The next event, when it is whole and `book` knows its bytes: an event that means the same in every
   * stream, read without framing or parsing it. Undefined otherwise (`next` then takes it), and always
   * while the event is only partly read.
   */
  nextConstant(book: ConstantEvents): ConstantEvent | undefined {
    const start = this.scanned;
    if (start !== this.eventStart) return undefined;
    const end = book.match(this.text, start);
    if (end === -1) return undefined;
    this.scanned = end;
    this.eventStart = end;
    // One literal with every field (see "One shape per object" in docs/relay-design.md).
    return { bytes: this.pending, start, end, done: book.done };
  }

  /** The upstream closed: the events left, an event without its final blank line included. */
  end(): SseEvent[] {
    const events: SseEvent[] = [];
    for (let event = this.next(); event !== undefined; event = this.next()) events.push(event);
    if (this.scanned < this.pending.length) {
      this.readLine(this.scanned, this.pending.length);
      this.scanned = this.pending.length;
    }
    const last = this.finishEvent(this.pending.length);
    if (last !== undefined) events.push(last);
    this.pending = EMPTY;
    this.text = '';
    this.ascii = true;
    this.eventStart = 0;
    this.scanned = 0;
    return events;
  }

  /** The text of bytes [start, end) of `pending`. */
  private textOf(start: number, end: number): string {
    return this.ascii ? this.text.slice(start, end) : this.pending.toString('utf8', start, end);
  }

  /** The line at [start, end) of `pending`. */
  private readLine(start: number, end: number): void {
    const text = this.text;
    if (text.startsWith('data:', start)) {
      this.dataLines[this.dataCount++] = valueStart(text, start + 5, end);
      this.dataLines[this.dataCount++] = end;
    } else if (text.startsWith('event:', start)) {
      this.eventName = this.textOf(valueStart(text, start + 6, end), end);
    }
  }

  private finishEvent(end: number): SseEvent | undefined {
    const start = this.eventStart;
    this.eventStart = end;
    const lines = this.dataLines;
    const count = this.dataCount;
    const eventName = this.eventName;
    this.eventName = undefined;
    this.dataCount = 0;
    if (end === start || (count === 0 && eventName === undefined && this.isBlank(start, end))) {
      return undefined;
    }
    let data: string | undefined;
    if (count === 2) data = this.textOf(lines[0] as number, lines[1] as number);
    else if (count > 2) {
      const parts: string[] = [];
      for (let i = 0; i < count; i += 2) parts.push(this.textOf(lines[i] as number, lines[i + 1] as number));
      data = parts.join('\n');
    }
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
