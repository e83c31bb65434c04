// OpenAI-format streams: one JSON chunk per SSE event, `[DONE]` at the end, usage in a last event
// with no choices when stream_options.include_usage is set. Each event is parsed once (to meter it and
// to catch a broken upstream) and forwarded as the bytes it came in.
import type { IrStreamEvent } from '../../ir/stream.js';
import { SseDecoder } from '../../sse.js';
import type { SseEvent } from '../../sse.js';
import type { StreamParser } from '../types.js';
import { choicesText, readUsage } from './response.js';
import { openAiChunkDeltas } from '../../wire/openai/index.js';

const DONE = Buffer.from('[DONE]');

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function hasFinishReason(choices: unknown): boolean {
  return (
    Array.isArray(choices) &&
    choices.some((c) => isRecord(c) && typeof c.finish_reason === 'string' && c.finish_reason !== '')
  );
}

/**
 * Every event is built by this one literal, its fields always present and in one order: an object
 * spread followed by new fields would give each event a hidden class of its own, made and thrown
 * away per event in the old generation.
 */
const irEvent = (raw: Buffer, e: Partial<Omit<IrStreamEvent, 'raw'>> = {}): IrStreamEvent => ({
  raw,
  chunk: e.chunk,
  done: e.done ?? false,
  text: e.text ?? '',
  usage: e.usage,
  usageOnly: e.usageOnly ?? false,
  finished: e.finished ?? false,
  error: e.error,
  deltas: e.deltas,
});

/** One upstream event; with `convert`, its neutral deltas too (for a client of another dialect). */
export function toOpenAiEvent(event: SseEvent, convert = false): IrStreamEvent {
  const { raw, data } = event;
  if (data === undefined || data.length === 0) return irEvent(raw);
  if (data.equals(DONE)) return irEvent(raw, { done: true });
  let chunk: unknown;
  try {
    chunk = JSON.parse(data.toString('utf8'));
  } catch {
    return irEvent(raw, { error: 'the upstream sent an event that is not valid JSON' });
  }
  if (!isRecord(chunk))
    return irEvent(raw, { error: 'the upstream sent an event that is not a JSON object' });
  if (isRecord(chunk.error)) {
    const message = typeof chunk.error.message === 'string' ? chunk.error.message : 'upstream error';
    return irEvent(raw, { chunk, error: message });
  }
  const usage = readUsage(chunk.usage);
  const choices = chunk.choices;
  return irEvent(raw, {
    chunk,
    text: choicesText(choices),
    usage,
    // Judged by the chunk, not by whether its counts were believable: an unbelievable usage chunk is
    // still the usage chunk, stripped for clients that did not ask for it.
    usageOnly: isRecord(chunk.usage) && Array.isArray(choices) && choices.length === 0,
    finished: hasFinishReason(choices),
    deltas: convert ? openAiChunkDeltas(chunk) : undefined,
  });
}

export function createOpenAiStreamParser(convert = false): StreamParser {
  const decoder = new SseDecoder();
  const read = (event: SseEvent) => toOpenAiEvent(event, convert);
  return {
    push: (chunk) => decoder.push(chunk).map(read),
    end: () => decoder.end().map(read),
  };
}
