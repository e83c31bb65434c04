// OpenAI Chat Completions streams ⇄ neutral deltas: what a chunk means, and chunks for OpenAI clients.
import type { ChatDelta, StreamIdentity } from '../../ir/chat.js';
import type { IrError } from '../../ir/errors.js';
import type { IrUsage } from '../../ir/usage.js';
import { SSE_DONE, sseData } from '../../sse.js';
import type { SseEvent } from '../../sse.js';
import type { ChatStreamDecoder, ChatStreamEncoder, DecodedStreamEvent } from '../types.js';
import { decodeFinishReason, encodeOpenAiUsage, openAiUsage } from './answer.js';
import { isRecord } from '../json.js';
import type { Json } from '../json.js';
import { TemplateBook, TextEventTemplate } from '../text-event-template.js';
import type { StreamField, TemplateFields } from '../text-event-template.js';

const DONE = '[DONE]';

/** The steps one chunk carries (its first choice: the relay asks for one). */
export function openAiChunkDeltas(chunk: Json): ChatDelta[] {
  const deltas: ChatDelta[] = [];
  const choice: unknown = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
  if (!isRecord(choice)) return deltas;
  const delta = isRecord(choice.delta) ? choice.delta : {};
  const reasoning = delta.reasoning_content ?? delta.reasoning;
  if (typeof reasoning === 'string' && reasoning !== '') deltas.push({ type: 'reasoning', text: reasoning });
  if (typeof delta.content === 'string' && delta.content !== '')
    deltas.push({ type: 'text', text: delta.content });
  if (Array.isArray(delta.tool_calls)) {
    for (const call of delta.tool_calls) {
      if (!isRecord(call)) continue;
      const fn = isRecord(call.function) ? call.function : {};
      deltas.push({
        type: 'tool_call',
        index: typeof call.index === 'number' ? call.index : 0,
        ...(typeof call.id === 'string' ? { id: call.id } : {}),
        ...(typeof fn.name === 'string' ? { name: fn.name } : {}),
        arguments: typeof fn.arguments === 'string' ? fn.arguments : '',
      });
    }
  }
  if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') {
    deltas.push({ type: 'finish', reason: decodeFinishReason(choice.finish_reason) });
  }
  return deltas;
}

const isBlank = (value: unknown): boolean => value === undefined || value === null || value === '';

/**
 * The content of a chunk that carries nothing but one choice's content (no usage, finish reason,
 * reasoning or tool call), with its `obfuscation` pad; undefined for any other chunk. The chunks a
 * stream's text template is learnt from (see text-event-template.ts).
 */
export function plainChunkFields(chunk: unknown): TemplateFields | undefined {
  if (!isRecord(chunk) || !isBlank(chunk.error) || !isBlank(chunk.usage)) return undefined;
  const choices = chunk.choices;
  if (!Array.isArray(choices) || choices.length !== 1) return undefined;
  const choice: unknown = choices[0];
  if (!isRecord(choice) || !isBlank(choice.finish_reason) || choice.text !== undefined) return undefined;
  if (choice.message !== undefined || !isRecord(choice.delta)) return undefined;
  const delta = choice.delta;
  if (!isBlank(delta.reasoning_content) || !isBlank(delta.reasoning) || !isBlank(delta.tool_calls)) {
    return undefined;
  }
  if (typeof delta.content !== 'string') return undefined;
  const pad = chunk.obfuscation;
  return {
    text: delta.content,
    padding: typeof pad === 'string' ? [{ key: 'obfuscation', value: pad }] : [],
  };
}

/**
 * A chunk's fields that are the same in every chunk of one stream and differ between streams: its id
 * and creation time (those it has).
 */
function streamFields(chunk: unknown): StreamField[] | undefined {
  if (!isRecord(chunk)) return undefined;
  const fields: StreamField[] = [];
  if (chunk.id !== undefined) fields.push({ key: 'id', value: chunk.id });
  if (chunk.created !== undefined) fields.push({ key: 'created', value: chunk.created });
  return fields;
}

/** The content chunk templates OpenAI-dialect streams learnt, for later streams to take. */
const textTemplates = new TemplateBook(streamFields);

/**
 * A stream's plain text chunks, read without parsing once one has been, or once an earlier stream's
 * template (with this stream's id and time) matches.
 */
export const openAiTextTemplate = (): TextEventTemplate =>
  new TextEventTemplate('content', plainChunkFields, textTemplates);

const deltaText = (deltas: ChatDelta[]): string => {
  let text = '';
  for (const d of deltas) {
    if (d.type === 'text' || d.type === 'reasoning') text += d.text;
    else if (d.type === 'tool_call') text += (d.name ?? '') + d.arguments;
  }
  return text;
};

const decoded = (e: Partial<DecodedStreamEvent>): DecodedStreamEvent => ({
  deltas: e.deltas ?? [],
  usage: e.usage,
  usageOnly: e.usageOnly ?? false,
  finished: e.finished ?? false,
  done: e.done ?? false,
  text: e.text ?? '',
  error: e.error,
});

export function createOpenAiChatDecoder(): ChatStreamDecoder {
  const template = openAiTextTemplate();
  return {
    plainText: {
      template,
      decode: (text) => decoded({ deltas: text === '' ? [] : [{ type: 'text', text }], text }),
    },
    decode(event: SseEvent): DecodedStreamEvent {
      const data = event.data;
      if (data === undefined || data.length === 0) return decoded({});
      if (data === DONE) return decoded({ done: true });
      let chunk: unknown;
      try {
        chunk = JSON.parse(data);
      } catch {
        return decoded({ error: 'the upstream sent an event that is not valid JSON' });
      }
      if (!isRecord(chunk)) return decoded({ error: 'the upstream sent an event that is not a JSON object' });
      if (!template.settled) template.learn(event, chunk);
      if (isRecord(chunk.error)) {
        const message = typeof chunk.error.message === 'string' ? chunk.error.message : 'upstream error';
        return decoded({ error: message });
      }
      const deltas = openAiChunkDeltas(chunk);
      return decoded({
        deltas,
        usage: openAiUsage(chunk.usage),
        usageOnly: isRecord(chunk.usage) && Array.isArray(chunk.choices) && chunk.choices.length === 0,
        finished: deltas.some((d) => d.type === 'finish'),
        text: deltaText(deltas),
      });
    },
  };
}

/** Chunks for an OpenAI chat client: a role chunk first, one chunk per step, usage and [DONE] last. */
export function createOpenAiChatEncoder(
  identity: StreamIdentity,
  options: { includeUsage: boolean },
): ChatStreamEncoder {
  const id = `chatcmpl-${identity.id}`;
  let started = false;
  let finished = false;
  /** Tool calls announced so far, by their upstream index → the index the client sees. */
  const toolIndex = new Map<number, number>();
  const chunk = (delta: Json, finishReason: string | null = null): string =>
    sseData(
      JSON.stringify({
        id,
        object: 'chat.completion.chunk',
        created: identity.created,
        model: identity.model,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      }),
    );
  return {
    push(deltas) {
      let out = '';
      if (!started) {
        started = true;
        out += chunk({ role: 'assistant', content: '' });
      }
      for (const d of deltas) {
        if (d.type === 'text') out += chunk({ content: d.text });
        else if (d.type === 'reasoning') {
          if (d.text !== '') out += chunk({ reasoning_content: d.text });
        } else if (d.type === 'tool_call') {
          let index = toolIndex.get(d.index);
          const first = index === undefined;
          if (index === undefined) {
            index = toolIndex.size;
            toolIndex.set(d.index, index);
          }
          const call: Json = first
            ? {
                index,
                id: d.id ?? `call_${identity.id}_${index}`,
                type: 'function',
                function: { name: d.name ?? '', arguments: d.arguments },
              }
            : { index, function: { arguments: d.arguments } };
          out += chunk({ tool_calls: [call] });
        } else {
          finished = true;
          out += chunk({}, d.reason);
        }
      }
      return out;
    },
    end(usage: IrUsage) {
      let out = started ? '' : this.push([]);
      // An upstream that ended without a finish reason still ends the answer normally for the client.
      if (!finished) out += this.push([{ type: 'finish', reason: 'stop' }]);
      if (options.includeUsage) {
        out += sseData(
          JSON.stringify({
            id,
            object: 'chat.completion.chunk',
            created: identity.created,
            model: identity.model,
            choices: [],
            usage: encodeOpenAiUsage(usage),
          }),
        );
      }
      return out + SSE_DONE;
    },
    error(error: IrError) {
      return sseData(
        JSON.stringify({ error: { message: error.message, type: error.type, code: error.code } }),
      );
    },
  };
}
