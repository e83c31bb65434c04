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

function fieldValue(line: Buffer, prefixLength: number): Buffer {
  const start = line[prefixLength] === 0x20 ? prefixLength + 1 : prefixLength;
  return line.subarray(start);
}

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
      const lineEnd = lf > this.scanned && this.pending[lf - 1] === CR ? lf - 1 : lf;
      const line = this.pending.subarray(this.scanned, lineEnd);
      this.scanned = lf + 1;
      if (line.length === 0) {
        const event = this.finishEvent(this.scanned);
        if (event) events.push(event);
      } else {
        this.readLine(line);
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
      this.readLine(this.pending.subarray(this.scanned));
      this.scanned = this.pending.length;
    }
    const event = this.finishEvent(this.pending.length);
    this.pending = EMPTY;
    this.eventStart = 0;
    this.scanned = 0;
    return event ? [event] : [];
  }

  private readLine(line: Buffer): void {
    if (line.subarray(0, DATA.length).equals(DATA)) {
      this.dataLines.push(fieldValue(line, DATA.length));
    } else if (line.subarray(0, EVENT.length).equals(EVENT)) {
      this.eventName = fieldValue(line, EVENT.length).toString('utf8');
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
