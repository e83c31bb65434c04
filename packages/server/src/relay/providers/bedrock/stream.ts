// InvokeModelWithResponseStream → relay stream events. Each `chunk` event carries
// {"bytes": base64(<Anthropic stream event JSON>)}; that event goes through the Anthropic codec's
// decoder as the server-sent event Anthropic would have sent, and those SSE bytes are what a Claude
// client receives. Exceptions in the stream (throttlingException, modelStreamErrorException, …) end it.
import type { IrStreamEvent } from '../../ir/stream.js';
import { sseEvent } from '../../sse.js';
import type { ChatRequest } from '../../ir/chat.js';
import { anthropicStreamParser } from '../anthropic/index.js';
import type { StreamParser } from '../types.js';
import { streamEventOf } from '../codec-stream.js';
import type { EventStreamItem } from './event-stream.js';
import { EventStreamDecoder } from './event-stream.js';

const NO_BYTES = { bytes: Buffer.alloc(0), start: 0, end: 0 };
/** Anthropic writes `type` first; the fallback parses the event when it does not. */
const LEADING_TYPE = /^\s*\{\s*"type"\s*:\s*"([A-Za-z_]+)"/;

const failed = (error: string): IrStreamEvent =>
  streamEventOf(NO_BYTES, {
    deltas: [],
    usage: undefined,
    usageOnly: false,
    finished: false,
    done: false,
    text: '',
    error,
  });

function eventType(json: string): string {
  const match = LEADING_TYPE.exec(json);
  if (match) return match[1] as string;
  try {
    const parsed = JSON.parse(json) as { type?: unknown };
    return typeof parsed.type === 'string' ? parsed.type : 'message';
  } catch {
    return 'message';
  }
}

/** A message payload as text, without copying it. */
const utf8 = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');

/** The Anthropic event inside a chunk's payload, as the server-sent event Anthropic streams. */
function sseBytesOf(payload: Uint8Array): Buffer | string {
  let bytes: unknown;
  try {
    bytes = (JSON.parse(utf8(payload)) as { bytes?: unknown }).bytes;
  } catch {
    return 'the upstream sent a stream chunk that is not valid JSON';
  }
  if (typeof bytes !== 'string') return 'the upstream sent a stream chunk without bytes';
  const json = Buffer.from(bytes, 'base64').toString('utf8');
  const type = eventType(json);
  return sseEvent(json, type).bytes;
}

/** What an exception's payload says: {"message": …} (model stream errors add the model's own status). */
function exceptionText(type: string, payload: Uint8Array): string {
  let message = '';
  try {
    const parsed = JSON.parse(utf8(payload)) as { message?: unknown };
    if (typeof parsed.message === 'string') message = parsed.message;
  } catch {
    message = '';
  }
  return `${message || 'the upstream reported an error'} (${type || 'exception'})`;
}

export function bedrockStreamParser(chat?: ChatRequest): StreamParser {
  const frames = new EventStreamDecoder();
  // Each chunk's event, as the server-sent event Anthropic streams, is read as Anthropic's are (tool
  // names given back to a converted client included).
  const anthropic = anthropicStreamParser(chat);

  const read = (item: EventStreamItem): IrStreamEvent[] => {
    switch (item.kind) {
      case 'malformed':
        return [failed(item.message)];
      case 'error':
        return [failed(`${item.message || 'the upstream reported an error'} (${item.code || 'error'})`)];
      case 'exception':
        return [failed(exceptionText(item.exceptionType, item.payload))];
      case 'event':
        break;
    }
    // Event types other than chunk are not part of the answer.
    if (item.eventType !== 'chunk') return [];
    const sse = sseBytesOf(item.payload);
    if (typeof sse === 'string') return [failed(sse)];
    return anthropic.push(sse);
  };

  const readAll = (items: EventStreamItem[]): IrStreamEvent[] => items.flatMap(read);
  return {
    push: (chunk) => readAll(frames.push(chunk)),
    end: () => [...readAll(frames.end()), ...anthropic.end()],
  };
}
