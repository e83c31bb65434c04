// Anthropic Messages as a client speaks it: system, image blocks with a base64 source, tools with an
// input_schema, tool_use and tool_result blocks; a Message, or the named events message_start,
// content_block_start / delta / stop per block, message_delta, message_stop (pings anywhere).
import { expect } from 'vitest';
import type { ClientFormat } from './client.js';
import type { Json, SeenAnswer, SeenToolCall, SeenUsage } from './scenario.js';
import { asArray, asCount, asJson, asString, optionalCount, parseObject } from './scenario.js';
import { eventJson, parseSse } from './sse.js';

export const ANTHROPIC_VERSION = '2023-06-01';

const STOP: Readonly<Record<string, SeenAnswer['finish']>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool',
  max_tokens: 'length',
  refusal: 'other',
  pause_turn: 'other',
};

function stopOf(value: unknown): SeenAnswer['finish'] {
  const stop = STOP[asString(value, 'stop_reason')];
  expect(stop, `stop_reason ${String(value)} is one of Anthropic's`).toBeDefined();
  return stop ?? 'other';
}

/** Anthropic counts cache reads and writes apart from input_tokens; the IR's prompt holds all three. */
function usageOf(value: unknown): SeenUsage {
  const usage = asJson(value, 'usage');
  const read = optionalCount(usage.cache_read_input_tokens, 'cache_read_input_tokens');
  const write = optionalCount(usage.cache_creation_input_tokens, 'cache_creation_input_tokens');
  return {
    prompt: asCount(usage.input_tokens, 'input_tokens') + read + write,
    completion: asCount(usage.output_tokens, 'output_tokens'),
    cached: read,
    cacheWrite: write,
  };
}

function readBlock(raw: unknown): { text: string; call?: SeenToolCall } {
  const block = asJson(raw, 'content block');
  switch (block.type) {
    case 'text':
      return { text: asString(block.text, 'text') };
    case 'tool_use':
      return {
        text: '',
        call: {
          id: asString(block.id, 'tool_use id'),
          name: asString(block.name, 'tool_use name'),
          args: asJson(block.input, 'tool_use input'),
        },
      };
    default:
      expect(['thinking', 'redacted_thinking'], 'a block is text, tool_use or thinking').toContain(
        block.type,
      );
      return { text: '' };
  }
}

interface OpenBlock {
  type: string;
  text: string;
  json: string;
  start: Json;
  stopped: boolean;
}

const DELTA_OF: Readonly<Record<string, readonly string[]>> = {
  text: ['text_delta'],
  tool_use: ['input_json_delta'],
  thinking: ['thinking_delta', 'signature_delta'],
};

export const anthropicClient: ClientFormat = {
  name: 'Anthropic Messages',
  wire: 'anthropic',
  request(model, s, stream, key) {
    const messages: Json[] = [
      {
        role: 'user',
        content: s.image
          ? [
              { type: 'text', text: s.user },
              {
                type: 'image',
                source: { type: 'base64', media_type: s.image.mediaType, data: s.image.data },
              },
            ]
          : s.user,
      },
    ];
    if (s.toolTurn) {
      const { call, result } = s.toolTurn;
      messages.push(
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: call.id, name: call.name, input: call.args }],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: call.id, content: JSON.stringify(result) }],
        },
      );
    }
    return {
      path: '/v1/messages',
      headers: { 'x-api-key': key, 'anthropic-version': ANTHROPIC_VERSION },
      body: {
        model,
        max_tokens: s.maxTokens,
        ...(s.system ? { system: s.system } : {}),
        messages,
        ...(s.tools
          ? {
              tools: s.tools.map((t) => ({
                name: t.name,
                description: t.description,
                input_schema: t.parameters,
              })),
            }
          : {}),
        ...(stream ? { stream: true } : {}),
      },
    };
  },

  parseAnswer(body) {
    const message = asJson(body, 'the message');
    expect(message.type).toBe('message');
    expect(message.role).toBe('assistant');
    asString(message.id, 'id');
    let text = '';
    const toolCalls: SeenToolCall[] = [];
    for (const raw of asArray(message.content, 'content')) {
      const block = readBlock(raw);
      text += block.text;
      if (block.call) toolCalls.push(block.call);
    }
    return {
      text,
      toolCalls,
      finish: stopOf(message.stop_reason),
      usage: usageOf(message.usage),
      model: asString(message.model, 'model'),
    };
  },

  parseStream(text) {
    const events = parseSse(text)
      .map((event) => {
        const data = asJson(eventJson(event), 'event');
        expect(event.event, 'each event is named after its type').toBe(data.type);
        return data;
      })
      .filter((event) => event.type !== 'ping');
    expect(events[0]?.type).toBe('message_start');
    expect(events.at(-1)?.type, 'the stream ends with message_stop').toBe('message_stop');
    expect(events.at(-2)?.type, 'message_delta comes just before message_stop').toBe('message_delta');
    const start = asJson(events[0]?.message, 'message_start message');
    expect(start.role).toBe('assistant');
    expect(start.content, 'message_start carries no content yet').toEqual([]);
    const startUsage = asJson(start.usage, 'message_start usage');
    const blocks: OpenBlock[] = [];
    for (const event of events.slice(1, -2)) {
      const index = asCount(event.index, `${String(event.type)} index`);
      if (event.type === 'content_block_start') {
        expect(index, 'blocks start in order').toBe(blocks.length);
        expect(
          blocks.every((b) => b.stopped),
          'a block starts after the previous one stopped',
        ).toBe(true);
        const block = asJson(event.content_block, 'content_block');
        blocks.push({
          type: asString(block.type, 'block type'),
          text: '',
          json: '',
          start: block,
          stopped: false,
        });
        continue;
      }
      const block = blocks[index];
      expect(block && !block.stopped, `${String(event.type)} refers to an open block`).toBe(true);
      if (!block) continue;
      if (event.type === 'content_block_stop') {
        block.stopped = true;
        continue;
      }
      expect(event.type).toBe('content_block_delta');
      const delta = asJson(event.delta, 'delta');
      expect(DELTA_OF[block.type], `a ${block.type} block takes ${String(delta.type)}`).toContain(delta.type);
      if (delta.type === 'text_delta') block.text += asString(delta.text, 'text');
      if (delta.type === 'input_json_delta') block.json += asString(delta.partial_json, 'partial_json');
    }
    expect(
      blocks.every((b) => b.stopped),
      'every block stopped before message_delta',
    ).toBe(true);
    const messageDelta = asJson(events.at(-2), 'message_delta');
    const stop = stopOf(asJson(messageDelta.delta, 'message_delta delta').stop_reason);
    // message_delta's usage is cumulative: its counts replace message_start's.
    const usage = usageOf({ ...startUsage, ...asJson(messageDelta.usage, 'message_delta usage') });
    const toolCalls = blocks
      .filter((b) => b.type === 'tool_use')
      .map((b) => ({
        id: asString(b.start.id, 'tool_use id'),
        name: asString(b.start.name, 'tool_use name'),
        args: b.json === '' ? asJson(b.start.input, 'tool_use input') : parseObject(b.json, 'streamed input'),
      }));
    return {
      text: blocks.map((b) => b.text).join(''),
      toolCalls,
      finish: stop,
      usage,
      model: asString(start.model, 'model'),
    };
  },
};
