// Gemini generateContent as a client speaks it: contents of user / model turns, systemInstruction,
// inlineData, functionDeclarations, functionCall and functionResponse parts; a
// GenerateContentResponse, or unnamed data events of partial responses whose last one alone carries
// the finishReason and the usageMetadata.
import { expect } from 'vitest';
import type { ClientFormat } from './client.js';
import type { Json, SeenAnswer, SeenToolCall, SeenUsage } from './scenario.js';
import { asArray, asCount, asJson, asString, optionalCount } from './scenario.js';
import { eventJson, parseSse } from './sse.js';

/** thoughts are output but outside candidatesTokenCount; cached tokens are inside promptTokenCount. */
function usageOf(value: unknown): SeenUsage {
  const usage = asJson(value, 'usageMetadata');
  const prompt = asCount(usage.promptTokenCount, 'promptTokenCount');
  const candidates = optionalCount(usage.candidatesTokenCount, 'candidatesTokenCount');
  const thoughts = optionalCount(usage.thoughtsTokenCount, 'thoughtsTokenCount');
  expect(usage.totalTokenCount, 'totalTokenCount').toBe(prompt + candidates + thoughts);
  return {
    prompt,
    completion: candidates + thoughts,
    cached: optionalCount(usage.cachedContentTokenCount, 'cachedContentTokenCount'),
  };
}

interface Chunk {
  text: string;
  calls: SeenToolCall[];
  finishReason?: string;
  usage?: SeenUsage;
  model: string;
}

function readChunk(value: unknown): Chunk {
  const response = asJson(value, 'the response');
  expect(response.error, 'not an error').toBeUndefined();
  const candidates = asArray(response.candidates, 'candidates');
  expect(candidates).toHaveLength(1);
  const candidate = asJson(candidates[0], 'candidate');
  const content = asJson(candidate.content, 'content');
  expect(content.role).toBe('model');
  let text = '';
  const calls: SeenToolCall[] = [];
  for (const raw of asArray(content.parts, 'parts')) {
    const part = asJson(raw, 'part');
    if (part.functionCall !== undefined) {
      const call = asJson(part.functionCall, 'functionCall');
      calls.push({
        ...(call.id === undefined ? {} : { id: asString(call.id, 'functionCall id') }),
        name: asString(call.name, 'functionCall name'),
        args: asJson(call.args, 'functionCall args'),
      });
    } else if (part.thought !== true && part.text !== undefined) {
      text += asString(part.text, 'text');
    }
  }
  return {
    text,
    calls,
    ...(candidate.finishReason === undefined
      ? {}
      : { finishReason: asString(candidate.finishReason, 'finishReason') }),
    ...(response.usageMetadata === undefined ? {} : { usage: usageOf(response.usageMetadata) }),
    model: asString(response.modelVersion, 'modelVersion'),
  };
}

function finishOf(reason: string | undefined, calls: number): SeenAnswer['finish'] {
  expect(reason, 'finishReason').toBeDefined();
  if (reason === 'MAX_TOKENS') return 'length';
  if (reason === 'STOP') return calls > 0 ? 'tool' : 'stop';
  return 'other';
}

export const geminiClient: ClientFormat = {
  name: 'Gemini',
  wire: 'gemini',
  request(model, s, stream, key) {
    const contents: Json[] = [
      {
        role: 'user',
        parts: [
          { text: s.user },
          ...(s.image ? [{ inlineData: { mimeType: s.image.mediaType, data: s.image.data } }] : []),
        ],
      },
    ];
    if (s.toolTurn) {
      const { call, result } = s.toolTurn;
      // As @google/genai replays a turn: the call as received (with its id when it had one).
      const id = call.id === undefined ? {} : { id: call.id };
      contents.push(
        { role: 'model', parts: [{ functionCall: { ...id, name: call.name, args: call.args } }] },
        { role: 'user', parts: [{ functionResponse: { ...id, name: call.name, response: result } }] },
      );
    }
    return {
      path: `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
      headers: { 'x-goog-api-key': key },
      body: {
        contents,
        ...(s.system ? { systemInstruction: { parts: [{ text: s.system }] } } : {}),
        ...(s.tools
          ? {
              tools: [
                {
                  functionDeclarations: s.tools.map((t) => ({
                    name: t.name,
                    description: t.description,
                    parametersJsonSchema: t.parameters,
                  })),
                },
              ],
            }
          : {}),
        generationConfig: { maxOutputTokens: s.maxTokens },
      },
    };
  },

  parseAnswer(body) {
    const chunk = readChunk(body);
    expect(chunk.usage, 'usageMetadata').toBeDefined();
    return {
      text: chunk.text,
      toolCalls: chunk.calls,
      finish: finishOf(chunk.finishReason, chunk.calls.length),
      ...(chunk.usage ? { usage: chunk.usage } : {}),
      model: chunk.model,
    };
  },

  parseStream(text) {
    const chunks = parseSse(text).map((event) => {
      expect(event.event, 'Gemini events are unnamed').toBeUndefined();
      return readChunk(eventJson(event));
    });
    expect(chunks.length).toBeGreaterThan(0);
    const last = chunks.at(-1) as Chunk;
    chunks.slice(0, -1).forEach((chunk) => {
      expect(chunk.finishReason, 'only the last event has a finishReason').toBeUndefined();
    });
    expect(last.usage, 'the last event carries usageMetadata').toBeDefined();
    const calls = chunks.flatMap((chunk) => chunk.calls);
    return {
      text: chunks.map((chunk) => chunk.text).join(''),
      toolCalls: calls,
      finish: finishOf(last.finishReason, calls.length),
      ...(last.usage ? { usage: last.usage } : {}),
      model: last.model,
    };
  },
};
