import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { startMockUpstream, withMock } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { createTestApp } from '../test-support/test-app.js';
import type { TestApp } from '../test-support/test-app.js';
import { addChannel, addToken, listen, setOptions } from '../test-support/relay-kit.js';

const MODEL = 'sdk-model';

describe('the official openai client against the relay', () => {
  let t: TestApp;
  let mock: MockUpstream;
  let client: OpenAI;
  let base: string;

  beforeAll(async () => {
    mock = await startMockUpstream();
    t = await createTestApp();
    await setOptions(t, { ModelRatio: { [MODEL]: 1 } });
    const user = await t.createUser({ quota: 10_000_000 });
    const token = await addToken(t, user.id);
    await addChannel(t, { base_url: mock.url, models: MODEL });
    base = await listen(t);
    client = new OpenAI({ apiKey: token.key, baseURL: `${base}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  it('creates a chat completion', async () => {
    const completion = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'hello from the sdk' }],
    });
    expect(completion.choices[0]?.message.content).toBe('You said: hello from the sdk');
    expect(completion.usage?.total_tokens).toBeGreaterThan(0);
  });

  it('streams a chat completion, with and without the usage chunk', async () => {
    const stream = await client.chat.completions.create({
      model: MODEL,
      stream: true,
      messages: [{ role: 'user', content: 'stream this please' }],
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('You said: stream this please');

    const withUsage = await client.chat.completions.create({
      model: MODEL,
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'and count it' }],
    });
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of withUsage) usage = chunk.usage ?? usage;
    expect(usage?.completion_tokens).toBe(5);
  });

  it('raises the SDK errors: a bad key and a stream that breaks off', async () => {
    const stranger = new OpenAI({ apiKey: `sk-${'n'.repeat(48)}`, baseURL: `${base}/v1`, maxRetries: 0 });
    await expect(
      stranger.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toBeInstanceOf(OpenAI.AuthenticationError);

    const broken = await client.chat.completions.create({
      model: MODEL,
      stream: true,
      messages: [{ role: 'user', content: withMock('break', { reply_tokens: 20, cut_after: 3 }) }],
    });
    await expect(
      (async () => {
        for await (const _chunk of broken) {
          // read until the error event
        }
      })(),
    ).rejects.toThrow(/connection to the upstream failed/);
  });
});
