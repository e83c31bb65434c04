// Server-sent events, decoded incrementally from upstream bytes and encoded for clients. Events keep
// their exact bytes so a same-format relay forwards them untouched.

export interface SseEvent {
  /** The whole event as received, up to and including the blank line that ends it. */
  raw: Buffer;
  /** The data lines joined with "\n" (undefined when the event has none, e.g. a comment). */
  data?: Buffer;
  /** The event field, when present (Claude-style streams name their events). */
  event?: string;
}

const LF = 0x0a;
const CR = 0x0d;
const EMPTY = Buffer.alloc(0);
const DATA = Buffer.from('data:');
const EVENT = Buffer.from('event:');

function startsWith(buffer: Buffer, start: number, end: number, prefix: Buffer): boolean {
  if (end - start < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (buffer[start + i] !== prefix[i]) return false;
  return true;
}

/** Where a field's value starts: after the colon and one optional space. */
const valueStart = (buffer: Buffer, afterColon: number, end: number): number =>
  afterColon < end && buffer[afterColon] === 0x20 ? afterColon + 1 : afterColon;

export class SseDecoder {
  private pending: Buffer = EMPTY;
  /** Offset in `pending` where the current (unfinished) event starts. */
  private eventStart = 0;
  /** Offset in `pending` up to which lines have been scanned. */
  private scanned = 0;
  private dataLines: Buffer[] = [];
  private eventName: string | undefined;

  push(chunk: Buffer): SseEvent[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const events: SseEvent[] = [];
    for (;;) {
      const lf = this.pending.indexOf(LF, this.scanned);
      if (lf === -1) break;
      const lineStart = this.scanned;
      const lineEnd = lf > lineStart && this.pending[lf - 1] === CR ? lf - 1 : lf;
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
      this.scanned -= this.eventStart;
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
    this.eventStart = 0;
    this.scanned = 0;
    return event ? [event] : [];
  }

  /**
   * The line at [start, end) of `pending`. Field names are compared in place: a Buffer view per line
   * (and another per comparison) was most of the decoder's time.
   */
  private readLine(start: number, end: number): void {
    const pending = this.pending;
    if (startsWith(pending, start, end, DATA)) {
      this.dataLines.push(pending.subarray(valueStart(pending, start + DATA.length, end), end));
    } else if (startsWith(pending, start, end, EVENT)) {
      this.eventName = pending.toString('utf8', valueStart(pending, start + EVENT.length, end), end);
    }
  }

  private finishEvent(end: number): SseEvent | undefined {
    const raw = this.pending.subarray(this.eventStart, end);
    this.eventStart = end;
    const lines = this.dataLines;
    const eventName = this.eventName;
    this.dataLines = [];
    this.eventName = undefined;
    if (raw.length === 0 || (lines.length === 0 && eventName === undefined && isBlank(raw))) return undefined;
    const event: SseEvent = { raw };
    if (lines.length === 1) event.data = lines[0];
    else if (lines.length > 1) event.data = Buffer.from(lines.map((l) => l.toString('utf8')).join('\n'));
    if (eventName !== undefined) event.event = eventName;
    return event;
  }
}

const isBlank = (b: Buffer): boolean => b.every((byte) => byte === LF || byte === CR);

/** One SSE data event. */
export const sseData = (data: string): string => `data: ${data}\n\n`;

export const SSE_DONE = 'data: [DONE]\n\n';
