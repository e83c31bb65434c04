// OpenAI Chat Completions as a client speaks it: messages with a system message, image_url parts,
// function tools, tool_calls and role "tool" results; chunks with one choice, a usage chunk with no
// choices (include_usage) and data: [DONE] last.
import { expect } from 'vitest';
import type { ClientFormat } from './client.js';
import type { Json, SeenAnswer, SeenToolCall, SeenUsage } from './scenario.js';
import { asArray, asCount, asJson, asString, dataUrl, optionalCount, parseObject } from './scenario.js';
import { eventJson, parseSse } from './sse.js';

const FINISH: Readonly<Record<string, SeenAnswer['finish']>> = {
  stop: 'stop',
  tool_calls: 'tool',
  length: 'length',
  content_filter: 'other',
};

function usageOf(value: unknown): SeenUsage {
  const usage = asJson(value, 'usage');
  const details =
    usage.prompt_tokens_details === undefined ? {} : asJson(usage.prompt_tokens_details, 'details');
  const prompt = asCount(usage.prompt_tokens, 'prompt_tokens');
  const completion = asCount(usage.completion_tokens, 'completion_tokens');
  expect(usage.total_tokens, 'total_tokens').toBe(prompt + completion);
  return { prompt, completion, cached: optionalCount(details.cached_tokens, 'cached_tokens') };
}

function finishOf(value: unknown): SeenAnswer['finish'] {
  const finish = FINISH[asString(value, 'finish_reason')];
  expect(finish, `finish_reason ${String(value)} is one of OpenAI's`).toBeDefined();
  return finish ?? 'other';
}

export const openAiChatClient: ClientFormat = {
  name: 'OpenAI Chat',
  wire: 'openai',
  request(model, s, stream, key) {
    const messages: Json[] = [];
    if (s.system) messages.push({ role: 'system', content: s.system });
    messages.push({
      role: 'user',
      content: s.image
        ? [
            { type: 'text', text: s.user },
            { type: 'image_url', image_url: { url: dataUrl(s.image) } },
          ]
        : s.user,
    });
    if (s.toolTurn) {
      const { call, result } = s.toolTurn;
      messages.push(
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: call.id,
              type: 'function',
              function: { name: call.name, arguments: JSON.stringify(call.args) },
            },
          ],
        },
        { role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) },
      );
    }
    return {
      path: '/v1/chat/completions',
      headers: { authorization: `Bearer ${key}` },
      body: {
        model,
        messages,
        max_tokens: s.maxTokens,
        ...(s.tools
          ? {
              tools: s.tools.map((t) => ({
                type: 'function',
                function: { name: t.name, description: t.description, parameters: t.parameters },
              })),
            }
          : {}),
        ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
      },
    };
  },

  parseAnswer(body) {
    const answer = asJson(body, 'the chat completion');
    expect(answer.object).toBe('chat.completion');
    asString(answer.id, 'id');
    const choices = asArray(answer.choices, 'choices');
    expect(choices).toHaveLength(1);
    const choice = asJson(choices[0], 'choice');
    expect(choice.index).toBe(0);
    const message = asJson(choice.message, 'message');
    expect(message.role).toBe('assistant');
    const toolCalls: SeenToolCall[] = (
      message.tool_calls === undefined ? [] : asArray(message.tool_calls, 'tool_calls')
    ).map((raw) => {
      const call = asJson(raw, 'tool call');
      expect(call.type).toBe('function');
      const fn = asJson(call.function, 'function');
      return {
        id: asString(call.id, 'tool call id'),
        name: asString(fn.name, 'function name'),
        args: parseObject(fn.arguments, 'function arguments'),
      };
    });
    if (message.content !== null) asString(message.content, 'content');
    return {
      text: typeof message.content === 'string' ? message.content : '',
      toolCalls,
      finish: finishOf(choice.finish_reason),
      usage: usageOf(answer.usage),
      model: asString(answer.model, 'model'),
    };
  },

  parseStream(text) {
    const events = parseSse(text);
    expect(events.at(-1)?.data, 'the stream ends with [DONE]').toBe('[DONE]');
    const chunks = events.slice(0, -1).map((event) => {
      expect(event.event, 'chat chunks are unnamed events').toBeUndefined();
      return asJson(eventJson(event), 'chunk');
    });
    expect(chunks.length).toBeGreaterThan(1);
    const id = asString(chunks[0]?.id, 'chunk id');
    let content = '';
    let finish: SeenAnswer['finish'] | undefined;
    let usage: SeenUsage | undefined;
    let model: string | undefined;
    const calls: { id: string; name: string; args: string }[] = [];
    chunks.forEach((chunk, i) => {
      expect(chunk.object).toBe('chat.completion.chunk');
      expect(chunk.id, 'every chunk has the same id').toBe(id);
      model = asString(chunk.model, 'model');
      const choices = asArray(chunk.choices, 'choices');
      if (choices.length === 0) {
        // The usage chunk: the last one, after the finish reason.
        expect(i, 'the usage chunk comes last').toBe(chunks.length - 1);
        expect(finish, 'the usage chunk follows the finish reason').toBeDefined();
        usage = usageOf(chunk.usage);
        return;
      }
      expect(choices).toHaveLength(1);
      if (chunk.usage !== undefined) expect(chunk.usage).toBeNull();
      expect(finish, 'no choice follows the finish reason').toBeUndefined();
      const choice = asJson(choices[0], 'choice');
      expect(choice.index).toBe(0);
      const delta = asJson(choice.delta, 'delta');
      if (i === 0) expect(delta.role, 'the first chunk names the role').toBe('assistant');
      if (typeof delta.content === 'string') content += delta.content;
      else if (delta.content !== undefined) expect(delta.content).toBeNull();
      for (const raw of delta.tool_calls === undefined ? [] : asArray(delta.tool_calls, 'tool_calls')) {
        const piece = asJson(raw, 'tool call piece');
        const index = asCount(piece.index, 'tool call index');
        const fn = asJson(piece.function, 'function');
        if (index === calls.length) {
          expect(piece.type).toBe('function');
          calls.push({
            id: asString(piece.id, 'tool call id'),
            name: asString(fn.name, 'function name'),
            args: fn.arguments === undefined ? '' : asString(fn.arguments, 'arguments'),
          });
        } else {
          const call = calls[index];
          expect(call, `tool call ${index} was announced first`).toBeDefined();
          if (call) call.args += asString(fn.arguments, 'arguments');
        }
      }
      if (choice.finish_reason !== null && choice.finish_reason !== undefined)
        finish = finishOf(choice.finish_reason);
    });
    expect(finish, 'a chunk gives the finish reason').toBeDefined();
    expect(usage, 'the usage chunk the client asked for').toBeDefined();
    return {
      text: content,
      toolCalls: calls.map((c) => ({
        id: c.id,
        name: c.name,
        args: parseObject(c.args, 'streamed arguments'),
      })),
      finish: finish ?? 'other',
      ...(usage ? { usage } : {}),
      ...(model ? { model } : {}),
    };
  },
};
