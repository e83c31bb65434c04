// OpenAI-format streams: one JSON chunk per SSE event, `[DONE]` at the end, usage in a last event
// with no choices when stream_options.include_usage is set. Each event is read once (to meter it and
// to catch a broken upstream) and forwarded as the bytes it came in.
import type { ChatDelta } from '../../ir/chat.js';
import type { IrStreamEvent } from '../../ir/stream.js';
import type { IrUsage } from '../../ir/usage.js';
import { SseDecoder } from '../../sse.js';
import type { PlainEvent, RawBytes, SseEvent } from '../../sse.js';
import { readEvents } from '../codec-stream.js';
import type { PlainReader } from '../codec-stream.js';
import type { StreamParser } from '../types.js';
import { choicesText, readUsage } from './response.js';
import { openAiChunkDeltas, openAiTextTemplate } from '../../wire/openai/index.js';
import type { TextEventTemplate } from '../../wire/text-event-template.js';
import { isRecord } from '../../wire/json.js';

const DONE = '[DONE]';

function hasFinishReason(choices: unknown): boolean {
  return (
    Array.isArray(choices) &&
    choices.some((c) => isRecord(c) && typeof c.finish_reason === 'string' && c.finish_reason !== '')
  );
}

/**
 * Every event is built by this one function, its fields always present and in one order: an object
 * spread followed by new fields would give each event a hidden class of its own, made and thrown
 * away per event in the old generation.
 */
function irEvent(
  raw: RawBytes,
  content: boolean,
  text: string,
  usage: IrUsage | undefined,
  usageOnly: boolean,
  finished: boolean,
  error: string | undefined,
  deltas: ChatDelta[] | undefined,
  done = false,
): IrStreamEvent {
  return {
    bytes: raw.bytes,
    start: raw.start,
    end: raw.end,
    content,
    done,
    text,
    usage,
    usageOnly,
    finished,
    error,
    deltas,
  };
}

const failed = (raw: RawBytes, error: string): IrStreamEvent =>
  irEvent(raw, false, '', undefined, false, false, error, undefined);

/**
 * One upstream event; with `convert`, its neutral deltas too (for a client of another dialect). With
 * `template`, a plain text chunk is learnt as the stream's template.
 */
export function toOpenAiEvent(event: SseEvent, convert = false, template?: TextEventTemplate): IrStreamEvent {
  const { data } = event;
  if (data === undefined || data.length === 0)
    return irEvent(event, false, '', undefined, false, false, undefined, undefined);
  if (data === DONE) return irEvent(event, false, '', undefined, false, false, undefined, undefined, true);
  let chunk: unknown;
  try {
    chunk = JSON.parse(data);
  } catch {
    return failed(event, 'the upstream sent an event that is not valid JSON');
  }
  if (!isRecord(chunk)) return failed(event, 'the upstream sent an event that is not a JSON object');
  if (template && !template.settled) template.learn(event, chunk);
  if (isRecord(chunk.error)) {
    const message = typeof chunk.error.message === 'string' ? chunk.error.message : 'upstream error';
    return irEvent(event, true, '', undefined, false, false, message, undefined);
  }
  const choices = chunk.choices;
  return irEvent(
    event,
    true,
    choicesText(choices),
    readUsage(chunk.usage),
    // Judged by the chunk, not by whether its counts were believable: an unbelievable usage chunk is
    // still the usage chunk, stripped for clients that did not ask for it.
    isRecord(chunk.usage) && Array.isArray(choices) && choices.length === 0,
    hasFinishReason(choices),
    undefined,
    convert ? openAiChunkDeltas(chunk) : undefined,
  );
}

/** A plain text chunk read by the template: text and nothing else. */
const plainEvent = (event: PlainEvent, convert: boolean): IrStreamEvent =>
  irEvent(
    event,
    true,
    event.text,
    undefined,
    false,
    false,
    undefined,
    convert ? (event.text === '' ? [] : [{ type: 'text', text: event.text }]) : undefined,
  );

export function createOpenAiStreamParser(convert = false): StreamParser {
  const sse = new SseDecoder();
  const template = openAiTextTemplate();
  const plain: PlainReader = { template, read: (event) => plainEvent(event, convert) };
  const read = (event: SseEvent) => toOpenAiEvent(event, convert, template);
  return {
    push: (chunk) => {
      sse.append(chunk);
      return readEvents(sse, plain, undefined, read);
    },
    end: () => sse.end().map(read),
  };
}
