// Anthropic's POST /v1/messages (a Message, or its server-sent events with `stream: true`) and
// POST /v1/messages/count_tokens. The stream follows Anthropic's sequence: message_start, ping, per content
// block content_block_start / content_block_delta… / content_block_stop, message_delta, message_stop.
// The answer and the events are built as objects (anthropicMessage, anthropicStreamEvents) so that Bedrock
// and Vertex, which serve the same Messages answers in their own framing, reuse them.
import { sendResult, writeFrames, type Exchange, type StreamFraming } from '../exchange.js';
import { argumentPieces } from '../usage.js';
import {
  anthropicPromptTokens,
  planAnthropic,
  type AnthropicPlan,
  type AnthropicUsage,
} from '../usage-anthropic.js';
import { sendAnthropicError } from '../vendor-errors.js';
import { checkMessagesBody } from './anthropic-checks.js';

/** Every usage field Anthropic sends, in its order; `output` is 1 in message_start, as Anthropic reports it. */
const wireUsage = (usage: AnthropicUsage, output: number) => ({
  input_tokens: usage.input_tokens,
  cache_creation_input_tokens: usage.cache_creation_input_tokens,
  cache_read_input_tokens: usage.cache_read_input_tokens,
  cache_creation: {
    ephemeral_5m_input_tokens: usage.cache_creation_input_tokens,
    ephemeral_1h_input_tokens: 0,
  },
  output_tokens: output,
  service_tier: 'standard',
});

/** An opaque, stable signature for the thinking block (clients hand it back untouched). */
const signature = (ex: Exchange): string =>
  Buffer.from(`mock-thinking-signature-${ex.seq}`).toString('base64');

/** The reply split into stream pieces: the first word as is, later words with their leading space. */
const pieces = (words: string[]): string[] => words.map((word, i) => (i === 0 ? word : ` ${word}`));

type Json = Record<string, unknown>;

function contentBlocks(ex: Exchange, plan: AnthropicPlan): Json[] {
  const blocks: Json[] = [];
  if (plan.thinking.length > 0) {
    blocks.push({ type: 'thinking', thinking: plan.thinking.join(' '), signature: signature(ex) });
  }
  const answer = plan.answer;
  blocks.push(
    answer.kind === 'text'
      ? { type: 'text', text: answer.words.join(' ') }
      : { type: 'tool_use', id: `toolu_mock${ex.seq}`, name: answer.name, input: answer.input },
  );
  return blocks;
}

/** An event as a server-sent event: its `type` names it. */
const frame = (event: Json): string => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`;

const delta = (index: number, value: Json): Json => ({ type: 'content_block_delta', index, delta: value });

const STREAM_ERROR = frame({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });

/** The events of one content block: its start, its deltas and its stop. */
function blockEvents(ex: Exchange, plan: AnthropicPlan, index: number, thinking: boolean): Json[] {
  const answer = plan.answer;
  const start = (contentBlock: Json): Json => ({
    type: 'content_block_start',
    index,
    content_block: contentBlock,
  });
  const deltas = thinking
    ? [
        ...pieces(plan.thinking).map((text) => delta(index, { type: 'thinking_delta', thinking: text })),
        delta(index, { type: 'signature_delta', signature: signature(ex) }),
      ]
    : answer.kind === 'text'
      ? pieces(answer.words).map((text) => delta(index, { type: 'text_delta', text }))
      : argumentPieces(answer.arguments).map((json) =>
          delta(index, { type: 'input_json_delta', partial_json: json }),
        );
  const opening = thinking
    ? start({ type: 'thinking', thinking: '', signature: '' })
    : answer.kind === 'text'
      ? start({ type: 'text', text: '' })
      : start({ type: 'tool_use', id: `toolu_mock${ex.seq}`, name: answer.name, input: {} });
  return [opening, ...deltas, { type: 'content_block_stop', index }];
}

/** A Message answering `plan`; `head` gives its id, type, role and model. */
export function anthropicMessage(ex: Exchange, plan: AnthropicPlan, head: Json): Json {
  return {
    ...head,
    content: contentBlocks(ex, plan),
    stop_reason: plan.stopReason,
    stop_sequence: null,
    usage: wireUsage(plan.usage, plan.usage.output_tokens),
  };
}

/** The stream events answering `plan`, in Anthropic's order, each with its `type`. */
export function anthropicStreamEvents(ex: Exchange, plan: AnthropicPlan, head: Json): Json[] {
  const { usage } = plan;
  const events: Json[] = [
    {
      type: 'message_start',
      message: { ...head, content: [], stop_reason: null, stop_sequence: null, usage: wireUsage(usage, 1) },
    },
    { type: 'ping' },
  ];
  if (plan.thinking.length > 0) events.push(...blockEvents(ex, plan, 0, true));
  events.push(...blockEvents(ex, plan, plan.thinking.length > 0 ? 1 : 0, false));
  events.push(
    {
      type: 'message_delta',
      delta: { stop_reason: plan.stopReason, stop_sequence: null },
      // Cumulative counts, as Anthropic sends them at the end of a stream.
      usage: {
        input_tokens: usage.input_tokens,
        cache_creation_input_tokens: usage.cache_creation_input_tokens,
        cache_read_input_tokens: usage.cache_read_input_tokens,
        output_tokens: usage.output_tokens,
      },
    },
    { type: 'message_stop' },
  );
  return events;
}

export async function handleMessages(ex: Exchange): Promise<void> {
  const checked = checkMessagesBody(ex.body, ex.req.headers, 'create');
  if (!checked.ok) {
    sendAnthropicError(ex, 400, checked.message);
    return;
  }
  const body = checked.body;
  const plan = planAnthropic(body, ex.directive);
  const head = { id: `msg_mock${ex.seq}`, type: 'message', role: 'assistant', model: body.model };
  if (body.stream !== true) {
    sendResult(ex, 200, anthropicMessage(ex, plan, head));
    return;
  }
  const frames = anthropicStreamEvents(ex, plan, head).map(frame);
  const firstDelta = frames.findIndex((line) => line.startsWith('event: content_block_delta'));
  // Anthropic reports a failure that happens mid-stream as an `error` event and ends the stream there.
  if (ex.directive.stream_error) {
    const after =
      firstDelta >= 0 ? firstDelta : frames.findIndex((line) => line.includes('content_block_start'));
    frames.splice(after + 1, frames.length, STREAM_ERROR);
  }
  const framing: StreamFraming = {
    contentType: 'text/event-stream; charset=utf-8',
    end: '',
    broken: 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":\n\n',
    brokenAt: firstDelta >= 0 ? firstDelta : 1,
  };
  await writeFrames(ex, frames, framing);
}

export function handleCountTokens(ex: Exchange): void {
  const checked = checkMessagesBody(ex.body, ex.req.headers, 'count');
  if (!checked.ok) {
    sendAnthropicError(ex, 400, checked.message);
    return;
  }
  sendResult(ex, 200, { input_tokens: anthropicPromptTokens(checked.body) });
}
