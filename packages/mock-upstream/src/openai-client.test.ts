import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mockEmbedding } from './routes/embeddings.js';
import { startMockUpstream, type MockUpstream } from './server.js';
import { expectedChatReply, expectedChatUsage } from './usage.js';

// The official client is the strictest everyday consumer of the wire format: if it parses, clients will.
let mock: MockUpstream;
let client: OpenAI;
beforeAll(async () => {
  mock = await startMockUpstream();
  client = new OpenAI({ apiKey: 'sk-test', baseURL: `${mock.url}/v1`, maxRetries: 0 });
});
afterAll(() => mock.close());

const messages = [{ role: 'user' as const, content: 'Tell me a joke' }];

describe('the official openai client', () => {
  it('parses a chat completion', async () => {
    const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages });
    expect(completion.choices[0]?.message.content).toBe('You said: Tell me a joke');
    expect(completion.usage).toEqual(expectedChatUsage({ messages }));
  });

  it('parses a streamed chat completion with usage', async () => {
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: unknown;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe(expectedChatReply({ messages }));
    expect(usage).toEqual(expectedChatUsage({ messages }));
  });

  it('parses embeddings (the client asks for base64 and decodes it)', async () => {
    const result = await client.embeddings.create({ model: 'text-embedding-3-small', input: 'hello world' });
    expect(mock.lastRequest()?.body).toMatchObject({ encoding_format: 'base64' });
    expect(result.data[0]?.embedding).toEqual(mockEmbedding('hello world'));
    expect(result.usage).toEqual({ prompt_tokens: 2, total_tokens: 2 });
  });

  it('parses embeddings requested as floats', async () => {
    const result = await client.embeddings.create({
      model: 'text-embedding-3-small',
      input: ['a', 'b c'],
      encoding_format: 'float',
    });
    expect(result.data.map((d) => d.embedding)).toEqual([mockEmbedding('a'), mockEmbedding('b c')]);
  });

  it('lists models', async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toContain('gpt-4o-mini');
  });

  it('surfaces a mock error as the client error class for that status', async () => {
    mock.enqueue({ status: 429, retry_after: 1 });
    await expect(client.chat.completions.create({ model: 'gpt-4o-mini', messages })).rejects.toBeInstanceOf(
      OpenAI.RateLimitError,
    );
    const bad = new OpenAI({ apiKey: 'bad-key', baseURL: `${mock.url}/v1`, maxRetries: 0 });
    await expect(bad.models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });
});
