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

/** Models listed by GET /v1/models unless the mock is started with its own list (most recent first). */
export const DEFAULT_ANTHROPIC_MODELS = [
  'claude-sonnet-4-5-20250929',
  'claude-haiku-4-5-20251001',
  'claude-opus-4-1-20250805',
  'claude-sonnet-4-20250514',
  'claude-3-5-haiku-20241022',
  'claude-3-haiku-20240307',
];

const DEFAULT_PAGE = 20;
const MAX_PAGE = 1000;

/** "claude-sonnet-4-5-20250929" → "Claude Sonnet 4.5", "claude-3-5-haiku-20241022" → "Claude 3.5 Haiku". */
const displayName = (id: string): string =>
  id
    .replace(/-\d{8}$/, '')
    .replace(/(\d)-(\d)/g, '$1.$2')
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');

/** A ModelInfo; the id's date is its creation time. */
function modelInfo(id: string): Json {
  const date = /-(\d{4})(\d{2})(\d{2})$/.exec(id);
  return {
    type: 'model',
    id,
    display_name: displayName(id),
    created_at: date ? `${date[1]}-${date[2]}-${date[3]}T00:00:00Z` : '2025-01-01T00:00:00Z',
  };
}

/**
 * GET /v1/models: pages of `limit` (default 20, 1 to 1000) after `after_id` or before `before_id`,
 * with `has_more`, `first_id` and `last_id`, as Anthropic's Models API answers. A cursor that names
 * no model is refused (the mock's choice: Anthropic does not document that case).
 */
export function handleAnthropicModels(ex: Exchange): void {
  const { limit: rawLimit, after_id: after, before_id: before } = ex.record.query;
  const limit = rawLimit === undefined ? DEFAULT_PAGE : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) {
    sendAnthropicError(ex, 400, `limit: Input should be between 1 and ${MAX_PAGE}`);
    return;
  }
  const models = ex.settings.anthropicModels;
  const cursor = after ?? before;
  const at = cursor === undefined ? -1 : models.indexOf(cursor);
  if (cursor !== undefined && at < 0) {
    sendAnthropicError(ex, 400, `${after === undefined ? 'before_id' : 'after_id'}: no model ${cursor}`);
    return;
  }
  // after_id: the models following the cursor; before_id: those just before it.
  const [from, to] =
    after !== undefined
      ? [at + 1, at + 1 + limit]
      : before !== undefined
        ? [Math.max(0, at - limit), at]
        : [0, limit];
  const page = models.slice(from, to);
  sendResult(ex, 200, {
    data: page.map(modelInfo),
    has_more: before !== undefined ? from > 0 : to < models.length,
    first_id: page[0] ?? null,
    last_id: page[page.length - 1] ?? null,
  });
}
