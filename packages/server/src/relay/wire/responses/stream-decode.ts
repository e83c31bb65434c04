// A Responses API upstream's typed stream events → the neutral answer's steps. Text, refusals and
// reasoning arrive as deltas; a function call as output_item.added then argument deltas keyed by its
// item id; response.completed / response.incomplete end the answer with its usage.
import type { ChatDelta } from '../../ir/chat.js';
import type { IrUsage } from '../../ir/usage.js';
import type { SseEvent } from '../../sse.js';
import type { ChatStreamDecoder, DecodedStreamEvent } from '../types.js';
import { failureMessage, finishReason } from './answer.js';
import { isRecord, responsesUsage, str } from './shared.js';
import type { Json } from './shared.js';

/** Every decoded event is this one literal, its fields always present and in one order. */
const decoded = (
  deltas: ChatDelta[],
  text: string,
  usage: IrUsage | undefined = undefined,
  ended = false,
  error: string | undefined = undefined,
): DecodedStreamEvent => ({ deltas, usage, usageOnly: false, finished: ended, done: ended, text, error });

const failed = (message: string): DecodedStreamEvent => decoded([], '', undefined, false, message);

const textDelta = (text: string): DecodedStreamEvent => decoded([{ type: 'text', text }], text);

// Deltas of one type share one shape too.
const reasoningDelta = (text: string, signature: string | undefined): ChatDelta => ({
  type: 'reasoning',
  text,
  signature,
  redacted: undefined,
});

const callDelta = (
  index: number,
  id: string | undefined,
  name: string | undefined,
  args: string,
): ChatDelta => ({
  type: 'tool_call',
  index,
  id,
  name,
  arguments: args,
});

export class ResponsesStreamDecoder implements ChatStreamDecoder {
  /** Tool-call index by item id and by `#<output index>` (for servers that omit item ids). */
  private readonly calls = new Map<string, number>();
  /** Tool calls whose arguments came as deltas (their done events then repeat nothing). */
  private readonly streamedArguments = new Set<number>();
  private callCount = 0;

  decode(event: SseEvent): DecodedStreamEvent {
    const data = event.data;
    if (data === undefined || data.length === 0) return decoded([], '');
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      return failed('the upstream sent an event that is not valid JSON');
    }
    if (!isRecord(parsed)) return failed('the upstream sent an event that is not a JSON object');
    const delta = str(parsed.delta) ?? '';
    switch (str(parsed.type) ?? event.event) {
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        return textDelta(delta);
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        return decoded([reasoningDelta(delta, undefined)], delta);
      case 'response.reasoning_summary_part.added':
        // Summary parts are paragraphs of one reasoning text, as the whole-answer decoder joins them.
        return typeof parsed.summary_index === 'number' && parsed.summary_index > 0
          ? decoded([reasoningDelta('\n\n', undefined)], '\n\n')
          : decoded([], '');
      case 'response.output_item.added':
        return isRecord(parsed.item) && parsed.item.type === 'function_call'
          ? this.startCall(parsed.item, parsed.output_index)
          : decoded([], '');
      case 'response.function_call_arguments.delta': {
        const index = this.callIndex(parsed.item_id, parsed.output_index);
        if (index === undefined)
          return failed('the upstream sent arguments for a function call it never started');
        this.streamedArguments.add(index);
        return decoded([callDelta(index, undefined, undefined, delta)], delta);
      }
      case 'response.output_item.done':
        return isRecord(parsed.item) ? this.itemDone(parsed.item, parsed.output_index) : decoded([], '');
      case 'response.completed':
        return this.finished(isRecord(parsed.response) ? parsed.response : {}, false);
      case 'response.incomplete':
        return this.finished(isRecord(parsed.response) ? parsed.response : {}, true);
      case 'response.failed':
        return failed(failureMessage(isRecord(parsed.response) ? parsed.response : {}));
      case 'error': {
        const nested = isRecord(parsed.error) ? str(parsed.error.message) : undefined;
        return failed(str(parsed.message) ?? nested ?? 'the upstream reported an error');
      }
      default:
        return decoded([], '');
    }
  }

  private callIndex(itemId: unknown, outputIndex: unknown): number | undefined {
    return (
      (typeof itemId === 'string' ? this.calls.get(itemId) : undefined) ??
      this.calls.get(`#${String(outputIndex)}`)
    );
  }

  private startCall(item: Json, outputIndex: unknown): DecodedStreamEvent {
    const index = this.callCount++;
    if (typeof item.id === 'string') this.calls.set(item.id, index);
    this.calls.set(`#${String(outputIndex)}`, index);
    const name = str(item.name) ?? '';
    const args = str(item.arguments) ?? '';
    if (args !== '') this.streamedArguments.add(index);
    const id = str(item.call_id);
    return decoded([callDelta(index, id, name, args)], name + args);
  }

  /**
   * A finished item. Function calls whose arguments never came as deltas (or that were never
   * announced) get them here; a reasoning item's encrypted_content becomes its signature.
   */
  private itemDone(item: Json, outputIndex: unknown): DecodedStreamEvent {
    if (item.type === 'function_call') {
      const index = this.callIndex(item.id, outputIndex);
      if (index === undefined) return this.startCall(item, outputIndex);
      const args = str(item.arguments) ?? '';
      if (this.streamedArguments.has(index) || args === '') return decoded([], '');
      this.streamedArguments.add(index);
      return decoded([callDelta(index, undefined, undefined, args)], args);
    }
    const signature = item.type === 'reasoning' ? str(item.encrypted_content) : undefined;
    return signature ? decoded([reasoningDelta('', signature)], '') : decoded([], '');
  }

  private finished(response: Json, incomplete: boolean): DecodedStreamEvent {
    const output = Array.isArray(response.output) ? response.output : [];
    const calls =
      this.callCount > 0 || output.some((item) => isRecord(item) && item.type === 'function_call');
    const reason = finishReason(response, incomplete, calls);
    return decoded([{ type: 'finish', reason }], '', responsesUsage(response.usage), true);
  }
}
