// The neutral answer's steps → the Responses API's typed stream events, as OpenAI sends them:
// response.created and response.in_progress, then per output item its added event, its content events
// and its done event, and response.completed (or response.incomplete) with the whole response. Each
// event is `event: <type>` plus its JSON with a rising sequence_number; there is no [DONE] marker.
// Tool calls' items and closing events are stream-calls.ts's.
import type { ChatDelta, FinishReason, StreamIdentity } from '../../ir/chat.js';
import type { IrError } from '../../ir/errors.js';
import type { IrUsage } from '../../ir/usage.js';
import type { ChatStreamEncoder } from '../types.js';
import { incompleteReason } from './answer.js';
import { itemId, messageItem, outputText, reasoningItem, responseObject } from './shared.js';
import type { Json } from './shared.js';
import { callItem, closeCall, frame } from './stream-calls.js';
import type { ItemStatus, OpenItem } from './stream-calls.js';
import { clientTool } from './tool-names.js';

export class ResponsesStreamEncoder implements ChatStreamEncoder {
  private sequence = 0;
  private started = false;
  private ended = false;
  /** Finished items by output index, for the closing response. */
  private readonly output: Json[] = [];
  private nextOutputIndex = 0;
  /** The open message or reasoning item. */
  private current: OpenItem | undefined;
  /** Open function calls by their index among the answer's tool calls, in output order. */
  private readonly calls = new Map<number, OpenItem>();
  private finish: FinishReason | undefined;

  constructor(private readonly identity: StreamIdentity) {}

  push(deltas: readonly ChatDelta[]): string {
    if (this.ended) return '';
    let out = this.start();
    for (const delta of deltas) {
      if (delta.type === 'text') {
        if (delta.text === '') continue;
        if (this.current?.kind !== 'message') out += this.closeAll('completed') + this.openMessage();
        out += this.text(this.current!, delta.text);
      } else if (delta.type === 'reasoning') {
        // Redacted thinking alone has nothing a Responses client can use.
        if (delta.text === '' && delta.signature === undefined) continue;
        if (this.current?.kind !== 'reasoning' || this.current.sealed) {
          out += this.closeAll('completed') + this.openReasoning();
        }
        out += this.reasoning(this.current!, delta.text, delta.signature);
      } else if (delta.type === 'tool_call') {
        let call = this.calls.get(delta.index);
        if (call === undefined) {
          out += this.closeCurrent('completed');
          call = this.openCall(delta.index, delta.id, delta.name);
          out += this.added(call, callItem(call, 'in_progress'));
        } else if (call.name === '' && delta.name) {
          const tool = clientTool(delta.name);
          call.name = tool.name;
          call.namespace = tool.namespace;
        }
        out += this.argumentsDelta(call, delta.arguments);
      } else {
        this.finish = delta.reason;
      }
    }
    return out;
  }

  end(usage: IrUsage): string {
    if (this.ended) return '';
    const reason = incompleteReason(this.finish);
    let out = this.start() + this.closeAll(reason === undefined ? 'completed' : 'incomplete');
    this.ended = true;
    const status = reason === undefined ? 'completed' : 'incomplete';
    out += frame({
      type: `response.${status}`,
      sequence_number: this.sequence++,
      response: responseObject(this.identity, status, reason, this.output, usage),
    });
    return out;
  }

  error(error: IrError): string {
    if (this.ended) return '';
    this.ended = true;
    return frame({
      type: 'error',
      sequence_number: this.sequence++,
      code: error.code,
      message: error.message,
      param: null,
    });
  }

  private start(): string {
    if (this.started) return '';
    this.started = true;
    const created = frame({
      type: 'response.created',
      sequence_number: this.sequence++,
      response: responseObject(this.identity, 'in_progress', undefined, [], undefined),
    });
    return (
      created +
      frame({
        type: 'response.in_progress',
        sequence_number: this.sequence++,
        response: responseObject(this.identity, 'in_progress', undefined, [], undefined),
      })
    );
  }

  private openItem(kind: OpenItem['kind'], prefix: 'msg' | 'rs' | 'fc' | 'ctc'): OpenItem {
    const outputIndex = this.nextOutputIndex++;
    return {
      kind,
      outputIndex,
      id: itemId(this.identity.id, prefix, outputIndex),
      text: '',
      partOpen: false,
      signature: undefined,
      sealed: false,
      callId: '',
      name: '',
      namespace: undefined,
    };
  }

  private added(item: OpenItem, body: Json): string {
    return frame({
      type: 'response.output_item.added',
      sequence_number: this.sequence++,
      output_index: item.outputIndex,
      item: body,
    });
  }

  private done(item: OpenItem, body: Json): string {
    this.output[item.outputIndex] = body;
    return frame({
      type: 'response.output_item.done',
      sequence_number: this.sequence++,
      output_index: item.outputIndex,
      item: body,
    });
  }

  private openMessage(): string {
    const item = (this.current = this.openItem('message', 'msg'));
    item.partOpen = true;
    return (
      this.added(item, messageItem(item.id, 'in_progress', undefined)) +
      frame({
        type: 'response.content_part.added',
        sequence_number: this.sequence++,
        item_id: item.id,
        output_index: item.outputIndex,
        content_index: 0,
        part: outputText(''),
      })
    );
  }

  private text(item: OpenItem, text: string): string {
    item.text += text;
    return frame({
      type: 'response.output_text.delta',
      sequence_number: this.sequence++,
      item_id: item.id,
      output_index: item.outputIndex,
      content_index: 0,
      delta: text,
      logprobs: [],
    });
  }

  private openReasoning(): string {
    const item = (this.current = this.openItem('reasoning', 'rs'));
    return this.added(item, reasoningItem(item.id, '', undefined));
  }

  private reasoning(item: OpenItem, text: string, signature: string | undefined): string {
    let out = '';
    if (text !== '') {
      if (!item.partOpen) {
        item.partOpen = true;
        out += frame({
          type: 'response.reasoning_summary_part.added',
          sequence_number: this.sequence++,
          item_id: item.id,
          output_index: item.outputIndex,
          summary_index: 0,
          part: { type: 'summary_text', text: '' },
        });
      }
      item.text += text;
      out += frame({
        type: 'response.reasoning_summary_text.delta',
        sequence_number: this.sequence++,
        item_id: item.id,
        output_index: item.outputIndex,
        summary_index: 0,
        delta: text,
      });
    }
    if (signature !== undefined) {
      item.signature = signature;
      item.sealed = true;
    }
    return out;
  }

  /**
   * A function or custom tool call, as the tool's neutral name says; its call id is the upstream's, or
   * one of Sluice's when the upstream gave none.
   */
  private openCall(index: number, id: string | undefined, name: string | undefined): OpenItem {
    const tool = clientTool(name ?? '');
    const item =
      tool.kind === 'custom'
        ? this.openItem('custom_tool_call', 'ctc')
        : this.openItem('function_call', 'fc');
    item.callId = id || itemId(this.identity.id, 'call', item.outputIndex);
    item.name = tool.name;
    item.namespace = tool.namespace;
    this.calls.set(index, item);
    return item;
  }

  private argumentsDelta(item: OpenItem, args: string): string {
    if (args === '') return '';
    item.text += args;
    if (item.kind === 'custom_tool_call') return '';
    return frame({
      type: 'response.function_call_arguments.delta',
      sequence_number: this.sequence++,
      item_id: item.id,
      output_index: item.outputIndex,
      delta: args,
    });
  }

  private closeCurrent(status: ItemStatus): string {
    const item = this.current;
    if (item === undefined) return '';
    this.current = undefined;
    return item.kind === 'message' ? this.closeMessage(item, status) : this.closeReasoning(item);
  }

  private closeMessage(item: OpenItem, status: ItemStatus): string {
    const text = frame({
      type: 'response.output_text.done',
      sequence_number: this.sequence++,
      item_id: item.id,
      output_index: item.outputIndex,
      content_index: 0,
      text: item.text,
      logprobs: [],
    });
    const part = frame({
      type: 'response.content_part.done',
      sequence_number: this.sequence++,
      item_id: item.id,
      output_index: item.outputIndex,
      content_index: 0,
      part: outputText(item.text),
    });
    return text + part + this.done(item, messageItem(item.id, status, item.text));
  }

  private closeReasoning(item: OpenItem): string {
    let out = '';
    if (item.partOpen) {
      out += frame({
        type: 'response.reasoning_summary_text.done',
        sequence_number: this.sequence++,
        item_id: item.id,
        output_index: item.outputIndex,
        summary_index: 0,
        text: item.text,
      });
      out += frame({
        type: 'response.reasoning_summary_part.done',
        sequence_number: this.sequence++,
        item_id: item.id,
        output_index: item.outputIndex,
        summary_index: 0,
        part: { type: 'summary_text', text: item.text },
      });
    }
    return out + this.done(item, reasoningItem(item.id, item.text, item.signature));
  }

  private closeAll(status: ItemStatus): string {
    let out = this.closeCurrent(status);
    for (const item of this.calls.values()) {
      out += closeCall(item, () => this.sequence++);
      out += this.done(item, callItem(item, status));
    }
    this.calls.clear();
    return out;
  }
}
