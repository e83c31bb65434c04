import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { withMock } from './directive.js';
import type { MockUpstream } from './server.js';
import { useMockUpstream } from './test-support/test-kit.js';
import { expectedResponsesReply, expectedResponsesUsage } from './usage-responses.js';

// The official client parses what the mock sends (its stream helper rebuilds the Response from the
// events and throws on any event out of place), so what passes here is what clients of OpenAI accept.
let mock: MockUpstream;
let client: OpenAI;
useMockUpstream((started) => {
  mock = started;
  client = new OpenAI({ apiKey: 'sk-test', baseURL: `${mock.url}/v1`, maxRetries: 0 });
});

type Json = Record<string, unknown>;
const sent = (): Json => mock.lastRequest('/v1/responses')?.body as Json;

/** Counts the events of a stream body until it ends or breaks. */
async function readUntilCut(res: Response): Promise<{ events: number; failed: boolean }> {
  const decoder = new TextDecoder();
  let text = '';
  let failed = false;
  try {
    for await (const chunk of res.body ?? []) text += decoder.decode(chunk as Uint8Array, { stream: true });
  } catch {
    failed = true;
  }
  return { events: text.match(/^event: /gm)?.length ?? 0, failed };
}

describe('POST /v1/responses', () => {
  it('answers a string input with a Response echoing the request, usage by the word rule', async () => {
    const response = await client.responses.create({
      model: 'gpt-4.1',
      input: 'Tell me a joke',
      instructions: 'be brief',
      store: false,
      previous_response_id: 'resp_earlier',
    });
    expect(response.output_text).toBe('You said: Tell me a joke');
    expect(response).toMatchObject({
      object: 'response',
      status: 'completed',
      model: 'gpt-4.1',
      instructions: 'be brief',
      store: false,
      previous_response_id: 'resp_earlier',
      incomplete_details: null,
    });
    // instructions 1 + 2 words, the input 1 + 4 words; the reply "You said: Tell me a joke" is 6 words.
    expect(response.usage).toEqual({
      input_tokens: 8,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 6,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 14,
    });
    expect(sent()).toMatchObject({ store: false, previous_response_id: 'resp_earlier' });
  });

  it('counts every input item and echoes the last user message', async () => {
    const input: OpenAI.Responses.ResponseInput = [
      { role: 'user', content: [{ type: 'input_text', text: 'weather in Paris?' }] },
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'sunny and warm' },
    ];
    const response = await client.responses.create({ model: 'gpt-4.1', input });
    expect(response.output_text).toBe('You said: weather in Paris?');
    expect(response.usage?.input_tokens).toBe(4 + 1 + 4);
    expect(response.usage).toEqual(expectedResponsesUsage(sent()));
  });

  it('streams the typed events in order, numbered, and the helper rebuilds the same Response', async () => {
    const stream = client.responses.stream({ model: 'gpt-4.1', input: 'stream three words' });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    stream.on('event', (event) => events.push(event));
    const final = await stream.finalResponse();
    expect(events.map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      ...Array(5).fill('response.output_text.delta'),
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    expect(final.output_text).toBe('You said: stream three words');
    expect(final.usage).toEqual(expectedResponsesUsage(sent()));
    expect(mock.lastRequest()?.events).toBe(events.length);
  });

  it('streams raw events with create({ stream: true }), the deltas one word each', async () => {
    const stream = await client.responses.create({ model: 'gpt-4.1', input: 'one two', stream: true });
    const deltas: string[] = [];
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') deltas.push(event.delta);
      if (event.type === 'response.completed') completed = event.response;
    }
    expect(deltas).toEqual(['You', ' said:', ' one', ' two']);
    expect(completed?.usage?.output_tokens).toBe(4);
  });

  it('cuts the reply at max_output_tokens and reports the response incomplete', async () => {
    const body = { model: 'gpt-4.1', input: 'a long request to answer', max_output_tokens: 3 };
    const response = await client.responses.create(body);
    expect(response.status).toBe('incomplete');
    expect(response.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(response.output_text).toBe('You said: a');
    expect(response.usage?.output_tokens).toBe(3);

    const stream = await client.responses.create({ ...body, stream: true });
    const types: string[] = [];
    let last: OpenAI.Responses.ResponseStreamEvent | undefined;
    for await (const event of stream) {
      types.push(event.type);
      last = event;
    }
    expect(types).not.toContain('response.completed');
    expect(last?.type).toBe('response.incomplete');
  });

  it('puts a reasoning item with a summary before the message, its tokens in the usage', async () => {
    const body = {
      model: 'o4-mini',
      input: withMock('think first', { reasoning_tokens: 4, cached_tokens: 2 }),
      include: ['reasoning.encrypted_content' as const],
    };
    const response = await client.responses.create(body);
    expect(response.output.map((item) => item.type)).toEqual(['reasoning', 'message']);
    expect(response.output[0]).toMatchObject({
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: 'let me think this' }],
      encrypted_content: expect.any(String),
    });
    expect(response.usage).toMatchObject({
      input_tokens_details: { cached_tokens: 2 },
      output_tokens: 4 + 4,
      output_tokens_details: { reasoning_tokens: 4 },
    });

    const stream = client.responses.stream({ ...body, stream: true });
    const summary: string[] = [];
    stream.on('response.reasoning_summary_text.delta', (event) => summary.push(event.delta));
    const final = await stream.finalResponse();
    expect(summary.join('')).toBe('let me think this');
    expect(final.output_text).toBe(expectedResponsesReply(body));
  });

  it('answers a function call, streaming its arguments in 8-character pieces', async () => {
    const tools: OpenAI.Responses.Tool[] = [
      { type: 'function', name: 'get_weather', parameters: { type: 'object' }, strict: false },
    ];
    const input = withMock('weather?', { tool_call: { name: 'get_weather', arguments: '{"city":"Paris"}' } });
    const response = await client.responses.create({ model: 'gpt-4.1', input, tools });
    expect(response.output).toEqual([
      expect.objectContaining({
        type: 'function_call',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
        call_id: expect.stringMatching(/^call_/),
      }),
    ]);
    expect(response.usage?.output_tokens).toBe(1 + 2);

    const stream = client.responses.stream({ model: 'gpt-4.1', input, tools });
    const pieces: string[] = [];
    stream.on('response.function_call_arguments.delta', (event) => pieces.push(event.delta));
    const final = await stream.finalResponse();
    expect(pieces).toEqual(['{"city":', '"Paris"}']);
    expect(final.output[0]).toMatchObject({ type: 'function_call', arguments: '{"city":"Paris"}' });
  });

  it('refuses hosted tools and a missing model in OpenAI error shape', async () => {
    const hosted = await client.responses
      .create({ model: 'gpt-4.1', input: 'search', tools: [{ type: 'web_search' }] })
      .catch((error: unknown) => error);
    expect(hosted).toBeInstanceOf(OpenAI.BadRequestError);
    expect((hosted as InstanceType<typeof OpenAI.BadRequestError>).error).toMatchObject({
      type: 'invalid_request_error',
      param: 'tools[0].type',
      code: 'invalid_value',
    });
    const res = await fetch(`${mock.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' },
      body: JSON.stringify({ input: 'hi' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { param: 'model', code: 'missing_required_parameter' } });
  });

  it('obeys fault directives: status, a cut stream, a malformed event, a reply of its own', async () => {
    const limited = await client.responses
      .create({ model: 'gpt-4.1', input: withMock('x', { status: 429 }) })
      .catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);

    const cut = await fetch(`${mock.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-test' },
      body: JSON.stringify({ model: 'm', input: withMock('cut me', { cut_after: 3 }), stream: true }),
    });
    expect(await readUntilCut(cut)).toEqual({ events: 3, failed: true });
    expect(mock.lastRequest()?.outcome).toBe('cut');

    const broken = await fetch(`${mock.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-test' },
      body: JSON.stringify({ model: 'm', input: withMock('break me', { malformed: true }), stream: true }),
    });
    const frames = (await broken.text()).split('\n\n').filter((f) => f !== '');
    expect(frames[4]).toMatch(/^event: response\.output_text\.delta\ndata: \{.*"delta":$/);
    expect(frames.at(-1)).toMatch(/^event: response\.completed/);

    const replied = await client.responses.create({
      model: 'gpt-4.1',
      input: withMock('anything', { reply: 'fixed words here', no_usage: true }),
    });
    expect(replied.output_text).toBe('fixed words here');
    expect(replied.usage).toBeUndefined();
  });
});
