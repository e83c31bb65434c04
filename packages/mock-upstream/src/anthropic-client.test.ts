import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { withMock } from './directive.js';
import { startMockUpstream, type MockUpstream } from './server.js';
import { expectedAnthropicReply, expectedAnthropicUsage } from './usage-anthropic.js';

// The official client parses the wire strictly enough that, if it accepts the mock, Claude clients will.
let mock: MockUpstream;
let client: Anthropic;
beforeAll(async () => {
  mock = await startMockUpstream();
  client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: mock.url, maxRetries: 0 });
});
afterAll(() => mock.close());
beforeEach(() => mock.reset());

const request = (text = 'Tell me a joke') => ({
  model: 'claude-sonnet-4-5',
  max_tokens: 2048,
  system: 'Be brief.',
  messages: [{ role: 'user' as const, content: text }],
});

describe('the official anthropic client', () => {
  it('is let in with the headers it sends and parses a Message', async () => {
    const message = await client.messages.create(request());
    // The 1.x SDKs send the key as a bearer token, on API version 2026-10-21.
    expect(mock.lastRequest()?.headers).toMatchObject({
      authorization: 'Bearer sk-ant-test',
      'anthropic-version': '2026-10-21',
    });
    expect(message.content).toEqual([{ type: 'text', text: expectedAnthropicReply(request()) }]);
    expect(message.usage).toMatchObject(expectedAnthropicUsage(request()));
  });

  it('assembles a streamed message with thinking, text and cumulative usage', async () => {
    const body = {
      ...request(withMock('Tell me a joke', { reasoning_tokens: 4, cached_tokens: 2 })),
      stream: true,
    };
    const final = await client.messages
      .stream(request(withMock('Tell me a joke', { reasoning_tokens: 4, cached_tokens: 2 })))
      .finalMessage();
    expect(final.content).toEqual([
      { type: 'thinking', thinking: 'let me think this', signature: expect.any(String) },
      { type: 'text', text: expectedAnthropicReply(body) },
    ]);
    expect(final.stop_reason).toBe('end_turn');
    expect(final.usage).toMatchObject(expectedAnthropicUsage(body));
  });

  it('assembles a streamed tool call into its input object', async () => {
    const text = withMock('Weather?', {
      tool_call: { name: 'get_weather', arguments: '{"city":"Paris","days":3}' },
    });
    const final = await client.messages.stream(request(text)).finalMessage();
    expect(final.content).toEqual([
      expect.objectContaining({ type: 'tool_use', name: 'get_weather', input: { city: 'Paris', days: 3 } }),
    ]);
    expect(final.stop_reason).toBe('tool_use');
  });

  it('counts tokens', async () => {
    const { model, system, messages } = request();
    expect(await client.messages.countTokens({ model, system, messages })).toEqual({ input_tokens: 7 });
  });

  it('surfaces mock errors as the client error class for the status', async () => {
    mock.enqueue({ status: 429, retry_after: 1 });
    await expect(client.messages.create(request())).rejects.toBeInstanceOf(Anthropic.RateLimitError);
    mock.enqueue({ status: 529 });
    await expect(client.messages.create(request())).rejects.toMatchObject({
      status: 529,
      error: { type: 'error', error: { type: 'overloaded_error' } },
    });
    const bad = new Anthropic({ apiKey: 'bad-key', baseURL: mock.url, maxRetries: 0 });
    await expect(bad.messages.create(request())).rejects.toBeInstanceOf(Anthropic.AuthenticationError);
  });

  it('raises the error event of a stream that fails midway', async () => {
    const stream = client.messages.stream(request(withMock('Tell me a joke', { stream_error: true })));
    await expect(stream.finalMessage()).rejects.toMatchObject({
      error: { error: { type: 'overloaded_error' } },
    });
  });
});
