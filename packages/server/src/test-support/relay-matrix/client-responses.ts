// OpenAI Responses as a client speaks it: instructions, input items (input_text, input_image,
// function_call, function_call_output), function tools; a Response, or typed events from
// response.created to response.completed (or .incomplete), each named, numbered, and tied to an open
// output item.
import { expect } from 'vitest';
import type { ClientFormat } from './client.js';
import type { Json, SeenAnswer, SeenToolCall, SeenUsage } from './scenario.js';
import { asArray, asCount, asJson, asString, dataUrl, optionalCount, parseObject } from './scenario.js';
import { eventJson, parseSse } from './sse.js';

function usageOf(value: unknown): SeenUsage {
  const usage = asJson(value, 'usage');
  const input = asCount(usage.input_tokens, 'input_tokens');
  const output = asCount(usage.output_tokens, 'output_tokens');
  expect(usage.total_tokens, 'total_tokens').toBe(input + output);
  const details = asJson(usage.input_tokens_details, 'input_tokens_details');
  asJson(usage.output_tokens_details, 'output_tokens_details');
  return { prompt: input, completion: output, cached: optionalCount(details.cached_tokens, 'cached_tokens') };
}

/** The text and calls of a finished Response's output items. */
function readOutput(response: Json): Pick<SeenAnswer, 'text' | 'toolCalls'> {
  let text = '';
  const toolCalls: SeenToolCall[] = [];
  for (const raw of asArray(response.output, 'output')) {
    const item = asJson(raw, 'output item');
    if (item.type === 'message') {
      expect(item.role).toBe('assistant');
      asString(item.id, 'message id');
      for (const rawPart of asArray(item.content, 'message content')) {
        const part = asJson(rawPart, 'content part');
        expect(part.type, 'an assistant message holds output_text parts').toBe('output_text');
        asArray(part.annotations, 'annotations');
        text += asString(part.text, 'output_text');
      }
    } else if (item.type === 'function_call') {
      asString(item.id, 'function_call id');
      toolCalls.push({
        id: asString(item.call_id, 'call_id'),
        name: asString(item.name, 'name'),
        args: parseObject(item.arguments, 'arguments'),
        replay: item,
      });
    } else {
      expect(item.type, 'output items are messages, function calls or reasoning').toBe('reasoning');
    }
  }
  return { text, toolCalls };
}

function readResponse(value: unknown): SeenAnswer {
  const response = asJson(value, 'the response');
  expect(response.object).toBe('response');
  asString(response.id, 'id');
  const status = asString(response.status, 'status');
  expect(['completed', 'incomplete']).toContain(status);
  const output = readOutput(response);
  return {
    ...output,
    finish: status === 'incomplete' ? 'length' : output.toolCalls.length > 0 ? 'tool' : 'stop',
    usage: usageOf(response.usage),
    model: asString(response.model, 'model'),
  };
}

interface OpenItem {
  id: string;
  type: string;
  text: string;
  args: string;
  /** Content parts finished so far, and whether one is open (its events go between added and done). */
  parts: number;
  partOpen: boolean;
  done: boolean;
}

/** Checks one stream event against the items (and content parts) opened so far. */
function follow(items: Map<number, OpenItem>, event: Json): void {
  const type = asString(event.type, 'event type');
  const index = (): number => asCount(event.output_index, `${type} output_index`);
  const open = (): OpenItem => {
    const item = items.get(index());
    expect(item, `${type} refers to an added item`).toBeDefined();
    expect(item?.done, `${type} comes before its item is done`).toBe(false);
    if (event.item_id !== undefined) expect(event.item_id, `${type} names its item`).toBe(item?.id);
    return item as OpenItem;
  };
  const inPart = (): OpenItem => {
    const item = open();
    expect(item.partOpen, `${type} comes inside a content part`).toBe(true);
    expect(event.content_index, `${type} names its content part`).toBe(item.parts);
    return item;
  };
  switch (type) {
    case 'response.output_item.added': {
      expect(items.has(index()), 'each output index is added once').toBe(false);
      const item = asJson(event.item, 'item');
      items.set(index(), {
        id: asString(item.id, 'item id'),
        type: asString(item.type, 'item type'),
        text: '',
        args: '',
        parts: 0,
        partOpen: false,
        done: false,
      });
      return;
    }
    case 'response.content_part.added': {
      const item = open();
      expect(item.partOpen, 'one content part at a time').toBe(false);
      expect(event.content_index).toBe(item.parts);
      item.partOpen = true;
      return;
    }
    case 'response.output_text.delta':
      inPart().text += asString(event.delta, 'delta');
      asArray(event.logprobs, 'logprobs');
      return;
    case 'response.output_text.done':
      expect(event.text, 'output_text.done has the whole text').toBe(inPart().text);
      return;
    case 'response.content_part.done': {
      const item = inPart();
      item.partOpen = false;
      item.parts += 1;
      return;
    }
    case 'response.function_call_arguments.delta':
      open().args += asString(event.delta, 'delta');
      return;
    case 'response.function_call_arguments.done':
      expect(event.arguments, 'arguments.done has the whole arguments').toBe(open().args);
      return;
    case 'response.output_item.done': {
      const item = open();
      expect(item.partOpen, "the item's content parts are done first").toBe(false);
      const done = asJson(event.item, 'item');
      if (item.type === 'function_call') expect(done.arguments).toBe(item.args);
      item.done = true;
      return;
    }
    default:
      if (type.startsWith('response.reasoning')) open();
  }
}

export const responsesClient: ClientFormat = {
  name: 'OpenAI Responses',
  wire: 'responses',
  request(model, s, stream, key) {
    const input: Json[] = [
      {
        role: 'user',
        content: [
          { type: 'input_text', text: s.user },
          ...(s.image ? [{ type: 'input_image', image_url: dataUrl(s.image), detail: 'auto' }] : []),
        ],
      },
    ];
    if (s.toolTurn) {
      const { call, result } = s.toolTurn;
      // As SDK users do (input.push(...response.output)): the function_call item as it came, id included.
      input.push(
        call.replay ?? {
          type: 'function_call',
          call_id: call.id,
          name: call.name,
          arguments: JSON.stringify(call.args),
        },
        { type: 'function_call_output', call_id: call.id, output: JSON.stringify(result) },
      );
    }
    return {
      path: '/v1/responses',
      headers: { authorization: `Bearer ${key}` },
      body: {
        model,
        ...(s.system ? { instructions: s.system } : {}),
        input,
        max_output_tokens: s.maxTokens,
        ...(s.tools
          ? {
              tools: s.tools.map((t) => ({
                type: 'function',
                name: t.name,
                description: t.description,
                parameters: t.parameters,
                strict: false,
              })),
            }
          : {}),
        ...(stream ? { stream: true } : {}),
      },
    };
  },

  parseAnswer: readResponse,

  parseStream(text) {
    const events = parseSse(text).map((event) => {
      const data = asJson(eventJson(event), 'event');
      expect(event.event, 'each event is named after its type').toBe(data.type);
      return data;
    });
    expect(events[0]?.type).toBe('response.created');
    // A response cut by max_output_tokens ends with response.incomplete instead.
    expect(
      ['response.completed', 'response.incomplete'],
      'the stream ends with the finished response',
    ).toContain(events.at(-1)?.type);
    const first = asCount(events[0]?.sequence_number, 'sequence_number');
    const items = new Map<number, OpenItem>();
    events.forEach((event, i) => {
      expect(event.sequence_number, 'events are numbered in order').toBe(first + i);
      if (i > 0 && i < events.length - 1) follow(items, event);
    });
    expect(
      [...items.values()].every((item) => item.done),
      'every item is done before the end',
    ).toBe(true);
    const answer = readResponse(events.at(-1)?.response);
    // The streamed pieces add up to the finished response.
    expect([...items.values()].map((item) => item.text).join('')).toBe(answer.text);
    const streamedCalls = [...items.values()].filter((item) => item.type === 'function_call');
    expect(streamedCalls.map((item) => parseObject(item.args, 'streamed arguments'))).toEqual(
      answer.toolCalls.map((call) => call.args),
    );
    return answer;
  },
};
