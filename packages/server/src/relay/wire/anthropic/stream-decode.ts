// An Anthropic upstream's Messages stream, event by event → neutral deltas and usage. Usage comes in two
// halves: message_start carries the input counts, message_delta the cumulative output count (and, in
// newer API versions, input and cache counts too, which then replace message_start's).
import type { ChatDelta } from '../../ir/chat.js';
import type { SseEvent } from '../../sse.js';
import { ConstantEvents } from '../constant-events.js';
import { TemplateBook, TextEventTemplate } from '../text-event-template.js';
import type { TemplateFields } from '../text-event-template.js';
import type { ChatStreamDecoder, DecodedStreamEvent } from '../types.js';
import { finishReasonOf } from './answer.js';
import { readAnthropicError } from './errors.js';
import type { Json } from './shared.js';
import { isRecord } from './shared.js';
import type { AnthropicUsageCounts } from './usage.js';
import { usageCounts, usageFromCounts } from './usage.js';

const decoded = (
  deltas: ChatDelta[],
  text: string,
  extra: { usage?: DecodedStreamEvent['usage']; finished?: boolean; done?: boolean; error?: string } = {},
): DecodedStreamEvent => ({
  deltas,
  usage: extra.usage,
  usageOnly: false,
  finished: extra.finished ?? false,
  done: extra.done ?? false,
  text,
  error: extra.error,
});

const nothing = (): DecodedStreamEvent => decoded([], '');

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The text of a text delta event; undefined for any other event (what text templates learn from). */
function textDeltaFields(payload: unknown): TemplateFields | undefined {
  if (!isRecord(payload) || payload.type !== 'content_block_delta' || typeof payload.index !== 'number') {
    return undefined;
  }
  const delta = payload.delta;
  return isRecord(delta) && delta.type === 'text_delta' && typeof delta.text === 'string'
    ? { text: delta.text, padding: [] }
    : undefined;
}

/**
 * Events every Anthropic stream may send in the same bytes and that mean nothing but themselves (ping,
 * a block's stop, an empty text block's start) or the end (message_stop), shared by all its streams.
 */
const constantEvents = new ConstantEvents();
/** The text delta templates Anthropic streams learnt (a text delta means its text in any stream). */
const textTemplates = new TemplateBook();

class AnthropicStreamDecoder implements ChatStreamDecoder {
  /** Content block index → the tool call index of a tool_use block (counted from 0). */
  private readonly toolIndex = new Map<number, number>();
  private tools = 0;
  private counts: AnthropicUsageCounts = {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheCreation: 0,
    thinking: undefined,
  };

  /** Text deltas read without parsing once one has been (see text-event-template.ts). */
  readonly plainText = {
    template: new TextEventTemplate('text', textDeltaFields, textTemplates),
    decode: (text: string): DecodedStreamEvent => decoded([{ type: 'text', text }], text),
  };

  readonly constantEvents = constantEvents;

  decode(event: SseEvent): DecodedStreamEvent {
    const data = event.data;
    if (data === undefined) return nothing();
    let payload: unknown;
    try {
      payload = JSON.parse(data);
    } catch {
      return decoded([], '', { error: 'the upstream sent a stream event that is not valid JSON' });
    }
    if (!isRecord(payload))
      return decoded([], '', { error: 'the upstream sent a stream event that is not an object' });
    if (event.event === 'error' || payload.type === 'error') {
      const error = readAnthropicError(payload);
      return decoded([], '', {
        error: error ? `${error.message} (${error.type})` : 'the upstream reported an error',
      });
    }
    const { template } = this.plainText;
    if (!template.settled) template.learn(event, payload);
    switch (payload.type) {
      case 'message_start':
        return this.messageStart(payload);
      case 'content_block_start':
        return this.blockStart(event, payload);
      case 'content_block_delta':
        return this.blockDelta(payload);
      case 'message_delta':
        return this.messageDelta(payload);
      case 'message_stop':
        return this.constant(event, true);
      case 'ping':
      case 'content_block_stop':
        return this.constant(event, false);
      default:
        // Event types newer than this decoder.
        return nothing();
    }
  }

  /** An event that means the same in any stream: recorded by its bytes, so it need not be parsed again. */
  private constant(event: SseEvent, done: boolean): DecodedStreamEvent {
    constantEvents.record(event, done);
    return done ? decoded([], '', { done: true }) : nothing();
  }

  private messageStart(payload: Json): DecodedStreamEvent {
    const counts = usageCounts(isRecord(payload.message) ? payload.message.usage : undefined);
    if (counts === undefined) return nothing();
    this.counts = counts;
    return decoded([], '', { usage: usageFromCounts(counts) });
  }

  private blockStart(event: SseEvent, payload: Json): DecodedStreamEvent {
    const block = payload.content_block;
    if (!isRecord(block) || typeof payload.index !== 'number') return nothing();
    switch (block.type) {
      case 'text': {
        const text = str(block.text);
        return text === '' ? this.constant(event, false) : decoded([{ type: 'text', text }], text);
      }
      case 'thinking': {
        const text = str(block.thinking);
        return text === ''
          ? nothing()
          : decoded([{ type: 'reasoning', text, signature: undefined, redacted: undefined }], text);
      }
      case 'redacted_thinking':
        return decoded(
          [{ type: 'reasoning', text: '', signature: undefined, redacted: str(block.data) }],
          '',
        );
      case 'tool_use': {
        const index = this.tools++;
        this.toolIndex.set(payload.index, index);
        return decoded(
          [{ type: 'tool_call', index, id: str(block.id), name: str(block.name), arguments: '' }],
          '',
        );
      }
      default:
        // Server tool blocks (server_tool_use, web_search_tool_result, …): not part of the neutral answer.
        return nothing();
    }
  }

  private blockDelta(payload: Json): DecodedStreamEvent {
    const delta = payload.delta;
    if (!isRecord(delta)) return nothing();
    switch (delta.type) {
      case 'text_delta': {
        const text = str(delta.text);
        return decoded([{ type: 'text', text }], text);
      }
      case 'thinking_delta': {
        const text = str(delta.thinking);
        return decoded([{ type: 'reasoning', text, signature: undefined, redacted: undefined }], text);
      }
      case 'signature_delta':
        return decoded(
          [{ type: 'reasoning', text: '', signature: str(delta.signature), redacted: undefined }],
          '',
        );
      case 'input_json_delta': {
        const index = typeof payload.index === 'number' ? this.toolIndex.get(payload.index) : undefined;
        // A server tool's input streams the same way; only client tool calls are passed on.
        if (index === undefined) return nothing();
        const json = str(delta.partial_json);
        return decoded([{ type: 'tool_call', index, id: undefined, name: undefined, arguments: json }], json);
      }
      default:
        // citations_delta and newer delta types.
        return nothing();
    }
  }

  private messageDelta(payload: Json): DecodedStreamEvent {
    const given = usageCounts(payload.usage);
    if (given !== undefined) {
      const before = this.counts;
      const latest = (value: unknown, previous: unknown) =>
        value === undefined || value === null ? previous : value;
      this.counts = {
        input: latest(given.input, before.input),
        output: latest(given.output, before.output),
        cacheRead: latest(given.cacheRead, before.cacheRead),
        cacheCreation: latest(given.cacheCreation, before.cacheCreation),
        thinking: latest(given.thinking, before.thinking),
      };
    }
    const stopReason = isRecord(payload.delta) ? payload.delta.stop_reason : undefined;
    const finished = typeof stopReason === 'string' && stopReason !== '';
    const deltas: ChatDelta[] = finished ? [{ type: 'finish', reason: finishReasonOf(stopReason) }] : [];
    return decoded(deltas, '', {
      usage: given === undefined ? undefined : usageFromCounts(this.counts),
      finished,
    });
  }
}

export const createAnthropicStreamDecoder = (): ChatStreamDecoder => new AnthropicStreamDecoder();
