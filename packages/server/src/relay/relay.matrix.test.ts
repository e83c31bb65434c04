// Every client format × every vendor, JSON and stream, over real HTTP against the mock upstream: a
// text answer with a system instruction, a tool call and its result carried across a second turn,
// an inline image, and usage with cache tokens as the client sees it and as the bill charges it.
// Plain fetch and strict parsers of each format's answers and event sequences (the SDK suites exist).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MOCK_PNG, withMock } from '@sluice/mock-upstream';
import type { MockDirective } from '@sluice/mock-upstream';
import { tokenQuota } from '@sluice/shared';
import { testDialects } from '../test-support/databases.js';
import type { ClientFormat } from '../test-support/relay-matrix/client.js';
import { anthropicClient } from '../test-support/relay-matrix/client-anthropic.js';
import { geminiClient } from '../test-support/relay-matrix/client-gemini.js';
import { openAiChatClient } from '../test-support/relay-matrix/client-openai-chat.js';
import { responsesClient } from '../test-support/relay-matrix/client-responses.js';
import { MATRIX_PRICING, startMatrix } from '../test-support/relay-matrix/matrix-app.js';
import type { Matrix } from '../test-support/relay-matrix/matrix-app.js';
import type { Json, SeenUsage, ToolSpec } from '../test-support/relay-matrix/scenario.js';
import { UPSTREAM_WIRES } from '../test-support/relay-matrix/upstream-wire.js';
import { VENDORS, upstreamWireOf } from '../test-support/relay-matrix/vendors.js';

const CLIENTS: readonly ClientFormat[] = [openAiChatClient, responsesClient, anthropicClient, geminiClient];
const MAX_TOKENS = 256;

const WEATHER: ToolSpec = {
  name: 'get_weather',
  description: 'The current weather of a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
    required: ['city'],
  },
};
const WEATHER_ARGS = { city: 'Paris', unit: 'celsius' };
const WEATHER_RESULT = { temperature: 21, sky: 'sunny' };
const IMAGE = { mediaType: 'image/png', data: MOCK_PNG.toString('base64') };

describe.each(testDialects())('every client format on every vendor on %s', (dialect) => {
  let m: Matrix;
  beforeAll(async () => {
    m = await startMatrix(dialect);
  });
  afterAll(async () => {
    await m?.close();
  });
  beforeEach(() => m.mock.reset());

  describe.each(CLIENTS)('$name client', (client) => {
    describe.each(VENDORS)('on $name', (vendor) => {
      const wire = upstreamWireOf(vendor, client.wire);
      const upstream = UPSTREAM_WIRES[wire];

      /** The model call the relay made, checked to be the vendor's JSON or streaming method. */
      const modelCall = (stream: boolean): Json => {
        const call = m.lastModelCall();
        expect(call.path).toMatch(vendor.path(wire, stream));
        expect(vendor.streamed(call)).toBe(stream);
        return call.body as Json;
      };

      describe.each([
        ['JSON', false],
        ['stream', true],
      ] as const)('%s', (_label, stream) => {
        it('answers text, with the system instruction in the upstream’s format', async () => {
          const answer = await m.send(
            client,
            vendor.model,
            { system: 'answer in one short line', user: 'hello matrix world', maxTokens: MAX_TOKENS },
            stream,
          );
          expect(answer.text).toBe('You said: hello matrix world');
          expect(answer.finish).toBe('stop');
          expect(answer.toolCalls).toEqual([]);
          expect(answer.model).toBe(vendor.model);
          expect(upstream.system(modelCall(stream))).toBe('answer in one short line');
        });

        it('carries a tool call to the client and its result back to the upstream', async () => {
          const question = 'what is the weather in Paris today?';
          const first = await m.send(
            client,
            vendor.model,
            {
              user: withMock(question, {
                tool_call: { name: WEATHER.name, arguments: JSON.stringify(WEATHER_ARGS) },
              }),
              tools: [WEATHER],
              maxTokens: MAX_TOKENS,
            },
            stream,
          );
          expect(upstream.tools(modelCall(stream))).toEqual({ [WEATHER.name]: WEATHER.parameters });
          expect(first.finish).toBe('tool');
          expect(first.toolCalls).toHaveLength(1);
          const [call] = first.toolCalls;
          if (!call) throw new Error('no tool call reached the client');
          expect(call).toMatchObject({ name: WEATHER.name, args: WEATHER_ARGS });
          // Every format but Gemini's names each call; Gemini's ids are optional.
          if (client.wire !== 'gemini') expect(call.id).toMatch(/\S/);

          const second = await m.send(
            client,
            vendor.model,
            {
              user: question,
              tools: [WEATHER],
              toolTurn: { call, result: WEATHER_RESULT },
              maxTokens: MAX_TOKENS,
            },
            stream,
          );
          expect(second.finish).toBe('stop');
          expect(second.text).toMatch(/^You said:/);
          const body = modelCall(stream);
          const sentCall = upstream.toolCall(body);
          const sentResult = upstream.toolResult(body);
          expect(sentCall).toMatchObject({ name: WEATHER.name, args: WEATHER_ARGS });
          expect(sentResult.content).toEqual(WEATHER_RESULT);
          if (wire === 'gemini') {
            // Gemini pairs a response with its call by name (and by id when the call had one).
            expect(sentResult.name).toBe(WEATHER.name);
          } else {
            expect(sentCall.id).toMatch(/\S/);
          }
          expect(sentResult.id).toBe(sentCall.id);
          // The id the client was given is the one the upstream gets back (Gemini's too, when it had one).
          expect(sentCall.id).toBe(call.id);
        });

        it('sends an inline image in the upstream’s format, bytes intact', async () => {
          const answer = await m.send(
            client,
            vendor.model,
            { user: 'what is in this picture?', image: IMAGE, maxTokens: MAX_TOKENS },
            stream,
          );
          expect(answer.text).toBe('You said: what is in this picture?');
          expect(upstream.image(modelCall(stream))).toEqual(IMAGE);
        });

        it('reports the upstream’s usage with cache tokens and bills exactly that', async () => {
          // Only Anthropic's wire reports cache writes.
          const directive: MockDirective =
            wire === 'anthropic' ? { cached_tokens: 2, cache_write_tokens: 1 } : { cached_tokens: 2 };
          const answer = await m.send(
            client,
            vendor.model,
            {
              system: 'count every word',
              user: withMock('please count these few words', directive),
              maxTokens: MAX_TOKENS,
            },
            stream,
          );
          const expected = upstream.usage(modelCall(stream));
          expect(expected.cachedTokens, 'the directive reached the mock').toBe(2);
          expect(expected.cacheWriteTokens).toBe(wire === 'anthropic' ? 1 : 0);
          const seen: SeenUsage = {
            prompt: expected.promptTokens,
            completion: expected.completionTokens,
            cached: expected.cachedTokens,
            // Only Anthropic's format tells the client about cache writes.
            ...(client.wire === 'anthropic' ? { cacheWrite: expected.cacheWriteTokens } : {}),
          };
          expect(answer.usage).toEqual(seen);
          const log = await m.lastConsumeLog();
          expect(log.model_name).toBe(vendor.model);
          expect(log.prompt_tokens).toBe(expected.promptTokens);
          expect(log.completion_tokens).toBe(expected.completionTokens);
          expect(log.quota).toBe(tokenQuota(expected, MATRIX_PRICING));
        });
      });
    });
  });
});
