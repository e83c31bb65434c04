// Server-sent events as a client reads them, parsed independently of the relay's own decoder: each
// event's name (if any) and its data lines joined, framing checked (every event ends with a blank line).
import { expect } from 'vitest';

export interface ClientSseEvent {
  event?: string;
  data: string;
}

export function parseSse(text: string): ClientSseEvent[] {
  const normalised = text.replace(/\r\n/g, '\n');
  expect(normalised.endsWith('\n\n'), 'the stream ends with a complete event').toBe(true);
  const events: ClientSseEvent[] = [];
  for (const block of normalised.split('\n\n')) {
    if (block === '') continue;
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else expect.fail(`unexpected SSE field "${field}" in ${JSON.stringify(block)}`);
    }
    // A comment-only block (a keep-alive) carries no event.
    if (data.length === 0 && event === undefined) continue;
    events.push({ ...(event === undefined ? {} : { event }), data: data.join('\n') });
  }
  return events;
}

/** An event's data as JSON. */
export function eventJson(event: ClientSseEvent): unknown {
  try {
    return JSON.parse(event.data);
  } catch {
    throw new Error(`a stream event is not JSON: ${event.data}`);
  }
}
