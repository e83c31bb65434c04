// Neutral deltas → the event sequence of an Anthropic Messages stream, for an Anthropic client:
// message_start, ping, then per content block content_block_start / _delta… / _stop, and at the end
// message_delta (stop reason and cumulative usage) and message_stop.
import type { ChatDelta, FinishReason, StreamIdentity } from '../../ir/chat.js';
import type { IrError } from '../../ir/errors.js';
import type { IrUsage } from '../../ir/usage.js';
import type { ChatStreamEncoder } from '../types.js';
import { stopReasonOf } from './answer.js';
import { anthropicStreamError } from './errors.js';
import { anthropicSse, messageId } from './shared.js';
import { encodeAnthropicUsage } from './usage.js';

type OpenBlock = 'text' | 'thinking' | 'redacted' | 'tool' | undefined;

const blockDelta = (index: number, delta: Record<string, string>): string =>
  anthropicSse('content_block_delta', { type: 'content_block_delta', index, delta });

// The events a converted stream sends most, written as the bytes `anthropicSse` makes of them (the
// tests hold the two equal), so that only their text goes through JSON.stringify: a text delta's
// frame, a text block's start and a block's stop, and the events that never change.
const textDeltaHead = (index: number): string =>
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":' +
  `${index},"delta":{"type":"text_delta","text":`;
const TEXT_DELTA_TAIL = '}}\n\n';
const textBlockStart = (index: number): string =>
  'event: content_block_start\ndata: {"type":"content_block_start","index":' +
  `${index},"content_block":{"type":"text","text":""}}\n\n`;
const blockStop = (index: number): string =>
  `event: content_block_stop\ndata: {"type":"content_block_stop","index":${index}}\n\n`;
const PING = 'event: ping\ndata: {"type":"ping"}\n\n';
const MESSAGE_STOP = 'event: message_stop\ndata: {"type":"message_stop"}\n\n';

class AnthropicStreamEncoder implements ChatStreamEncoder {
  private started = false;
  private open: OpenBlock = undefined;
  /** Index of the last content block started. */
  private index = -1;
  /** Tool call index of the open tool_use block. */
  private toolCall = -1;
  /** The open thinking block already has its signature (a later thinking delta is a new block). */
  private signed = false;
  private finish: FinishReason = 'stop';

  constructor(private readonly identity: StreamIdentity) {}

  push(deltas: readonly ChatDelta[]): string {
    let out = this.start();
    for (const delta of deltas) out += this.delta(delta);
    return out;
  }

  end(usage: IrUsage): string {
    return (
      this.start() +
      this.close() +
      anthropicSse('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: stopReasonOf(this.finish), stop_sequence: null },
        usage: encodeAnthropicUsage(usage),
      }) +
      MESSAGE_STOP
    );
  }

  error(error: IrError): string {
    return anthropicStreamError(error);
  }

  /** message_start and a ping, once, before anything else. */
  private start(): string {
    if (this.started) return '';
    this.started = true;
    return (
      anthropicSse('message_start', {
        type: 'message_start',
        message: {
          id: messageId(this.identity.id),
          type: 'message',
          role: 'assistant',
          model: this.identity.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          // The real counts come with message_delta, whose counts are cumulative.
          usage: {
            input_tokens: 0,
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: 0,
            output_tokens: 0,
          },
        },
      }) + PING
    );
  }

  private close(): string {
    if (this.open === undefined) return '';
    this.open = undefined;
    return blockStop(this.index);
  }

  /** Closes the open block and starts a new one (`block`: its content_block, or a text block). */
  private begin(kind: OpenBlock, block?: Record<string, unknown>): string {
    const out = this.close();
    this.index += 1;
    this.open = kind;
    this.signed = false;
    if (block === undefined) return out + textBlockStart(this.index);
    return (
      out +
      anthropicSse('content_block_start', {
        type: 'content_block_start',
        index: this.index,
        content_block: block,
      })
    );
  }

  private delta(delta: ChatDelta): string {
    switch (delta.type) {
      case 'text': {
        if (delta.text === '') return '';
        const start = this.open === 'text' ? '' : this.begin('text');
        return start + textDeltaHead(this.index) + JSON.stringify(delta.text) + TEXT_DELTA_TAIL;
      }
      case 'reasoning':
        return this.reasoning(delta);
      case 'tool_call': {
        const start =
          this.open === 'tool' && this.toolCall === delta.index
            ? ''
            : this.begin('tool', {
                type: 'tool_use',
                id: delta.id ?? `toolu_${this.identity.id}_${delta.index}`,
                name: delta.name ?? '',
                input: {},
              });
        this.toolCall = delta.index;
        return (
          start +
          (delta.arguments === ''
            ? ''
            : blockDelta(this.index, { type: 'input_json_delta', partial_json: delta.arguments }))
        );
      }
      case 'finish':
        this.finish = delta.reason;
        return '';
    }
  }

  private reasoning(delta: Extract<ChatDelta, { type: 'reasoning' }>): string {
    if (delta.redacted !== undefined) {
      // A redacted block comes whole in its start event.
      return this.begin('redacted', { type: 'redacted_thinking', data: delta.redacted }) + this.close();
    }
    let out = '';
    const thinkingBlock = () =>
      this.open === 'thinking' && !this.signed
        ? ''
        : this.begin('thinking', { type: 'thinking', thinking: '', signature: '' });
    if (delta.text !== '')
      out += thinkingBlock() + blockDelta(this.index, { type: 'thinking_delta', thinking: delta.text });
    if (delta.signature !== undefined && delta.signature !== '') {
      out +=
        thinkingBlock() + blockDelta(this.index, { type: 'signature_delta', signature: delta.signature });
      this.signed = true;
    }
    return out;
  }
}

export const createAnthropicStreamEncoder = (identity: StreamIdentity): ChatStreamEncoder =>
  new AnthropicStreamEncoder(identity);
