// A small server-sent-events reader for the playground stream: text goes in as it arrives (a chunk
// may end mid-line or mid-event), whole events' data come out.

export class SseParser {
  private buffer = '';
  private data: string[] = [];

  /** Feeds decoded text; returns the data of every event completed by it. */
  push(text: string): string[] {
    this.buffer += text;
    const events: string[] = [];
    for (;;) {
      const newline = this.buffer.search(/\r\n|\r|\n/);
      if (newline === -1) break;
      // A lone "\r" at the very end may be the first half of "\r\n": wait for the next chunk.
      if (this.buffer[newline] === '\r' && newline === this.buffer.length - 1) break;
      const width = this.buffer.startsWith('\r\n', newline) ? 2 : 1;
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + width);
      this.readLine(line, events);
    }
    return events;
  }

  /** The stream ended: an event that lacked its closing blank line still counts. */
  end(): string[] {
    const events: string[] = [];
    if (this.buffer !== '') this.readLine(this.buffer, events);
    this.buffer = '';
    this.readLine('', events);
    return events;
  }

  private readLine(line: string, events: string[]): void {
    if (line === '') {
      if (this.data.length > 0) events.push(this.data.join('\n'));
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return; // a comment (keep-alive)
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    if (field !== 'data') return;
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    this.data.push(value);
  }
}

export const STREAM_DONE = '[DONE]';

/** What one event of an OpenAI chat stream means to the playground. */
export type ChatStreamEvent =
  { kind: 'delta'; text: string } | { kind: 'done' } | { kind: 'error'; message: string } | { kind: 'other' };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function readChatEvent(data: string): ChatStreamEvent {
  if (data.trim() === STREAM_DONE) return { kind: 'done' };
  let payload: unknown;
  try {
    payload = JSON.parse(data);
  } catch {
    // One unreadable event does not end the answer; the rest still arrives.
    return { kind: 'other' };
  }
  if (!isRecord(payload)) return { kind: 'other' };
  if (payload.error !== undefined && payload.error !== null) {
    const error = payload.error;
    const message = isRecord(error) && typeof error.message === 'string' ? error.message : String(error);
    return { kind: 'error', message };
  }
  const choices = Array.isArray(payload.choices) ? (payload.choices as unknown[]) : [];
  const first = choices[0];
  const delta = isRecord(first) && isRecord(first.delta) ? first.delta : null;
  const text = delta && typeof delta.content === 'string' ? delta.content : '';
  return text === '' ? { kind: 'other' } : { kind: 'delta', text };
}
