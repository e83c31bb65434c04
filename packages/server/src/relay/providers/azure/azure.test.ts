import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RelayError } from '../../ir/errors.js';
import type { IrRequest, RelayMode } from '../../ir/request.js';
import { anthropicCodec } from '../../wire/anthropic/index.js';
import { runProviderContract } from '../contract.case.js';
import { adapterFor } from '../registry.js';
import { azureAdapter } from './index.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const channel = {
  type: 3,
  key: 'azure-key-0001',
  baseUrl: 'https://myres.openai.azure.com/',
  organization: 'org-ignored',
  other: '2024-10-21',
};

runProviderContract('azure', {
  adapter: azureAdapter,
  channel,
  chatUrl:
    'https://myres.openai.azure.com/openai/deployments/upstream-model/chat/completions?api-version=2024-10-21',
  response: {
    body: fixture('chat.json'),
    usage: { promptTokens: 1190, completionTokens: 8, cachedTokens: 1024 },
    text: 'The capital of France is Paris.',
  },
  stream: {
    body: fixture('chat-stream.sse'),
    usage: { promptTokens: 12, completionTokens: 6, cachedTokens: 0 },
    text: 'Paris is the capital.',
  },
  error: {
    status: 401,
    body: fixture('error-401.json'),
    message: /^Access denied due to invalid subscription key/,
    code: '401',
  },
});

type Json = Record<string, unknown>;

const ir = (body: Json, extra: Partial<IrRequest> = {}): IrRequest =>
  Object.assign(
    {
      mode: 'chat' as const,
      model: String(body.model),
      stream: body.stream === true,
      clientWantsUsage: false,
      body,
      raw: Buffer.from(JSON.stringify(body)),
    },
    extra,
  );

const sentBody = (body: Buffer | string): Json => JSON.parse(body.toString()) as Json;

describe('azure adapter specifics', () => {
  it('is channel type 3 and serves every OpenAI endpoint Azure has, not moderations or rerank', () => {
    expect(adapterFor(3)).toBe(azureAdapter);
    expect(azureAdapter.dialects).toEqual(['openai', 'responses']);
    const modes: RelayMode[] = ['chat', 'completions', 'embeddings', 'images', 'speech', 'transcriptions'];
    for (const mode of [...modes, 'translations' as const]) expect(azureAdapter.supports(mode)).toBe(true);
    expect(azureAdapter.supports('moderations')).toBe(false);
    expect(azureAdapter.supports('rerank')).toBe(false);
  });

  it('sends each endpoint to its deployment path with the api-key header and no bearer token', () => {
    const paths: [RelayMode, string][] = [
      ['completions', 'completions'],
      ['embeddings', 'embeddings'],
      ['images', 'images/generations'],
      ['speech', 'audio/speech'],
      ['transcriptions', 'audio/transcriptions'],
      ['translations', 'audio/translations'],
    ];
    for (const [mode, path] of paths) {
      const req = azureAdapter.buildRequest(ir({ model: 'dep' }, { mode }), channel, 'dep');
      expect(req.url).toBe(
        `https://myres.openai.azure.com/openai/deployments/dep/${path}?api-version=2024-10-21`,
      );
      expect(req.headers['api-key']).toBe('azure-key-0001');
      expect(req.headers.authorization).toBeUndefined();
      expect(req.headers['openai-organization']).toBeUndefined();
    }
  });

  it("names the deployment after the mapped model as it is, dots kept, and forwards the client's bytes", () => {
    const plain = ir({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }] });
    const same = azureAdapter.buildRequest(plain, channel, 'gpt-4.1');
    expect(same.url).toContain('/openai/deployments/gpt-4.1/chat/completions?');
    expect(same.body).toBe(plain.raw);
    const mapped = azureAdapter.buildRequest(plain, channel, 'my team/gpt');
    expect(mapped.url).toContain('/openai/deployments/my%20team%2Fgpt/chat/completions?');
    expect(sentBody(mapped.body).model).toBe('my team/gpt');
  });

  it('uses the default API version when other is empty, and then sends neither stream_options nor max_completion_tokens', () => {
    const legacy = { ...channel, other: '  ' };
    const stream = ir({ model: 'gpt-4o', stream: true, messages: [] });
    const req = azureAdapter.buildRequest(stream, legacy, 'gpt-4o');
    expect(req.url).toBe(
      'https://myres.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2023-06-01-preview',
    );
    // 2023-06-01-preview answers 400 "Unrecognized request argument supplied: stream_options".
    expect(req.body).toBe(stream.raw);
    const limited = azureAdapter.buildRequest(
      ir({ model: 'gpt-4o', messages: [] }, { outputLimit: 64 }),
      legacy,
      'gpt-4o',
    );
    expect(sentBody(limited.body)).toMatchObject({ max_tokens: 64 });
    expect(sentBody(limited.body).max_completion_tokens).toBeUndefined();
  });

  it('asks newer versions for stream usage and writes its own limit as max_completion_tokens', () => {
    const req = azureAdapter.buildRequest(
      ir({ model: 'gpt-4o', stream: true, messages: [] }, { outputLimit: 100 }),
      { ...channel, other: '2025-04-01-preview' },
      'gpt-4o',
    );
    expect(req.url).toContain('?api-version=2025-04-01-preview');
    expect(sentBody(req.body)).toMatchObject({
      stream_options: { include_usage: true },
      max_completion_tokens: 100,
    });
  });

  it("sends a Responses client's bytes to Azure's v1 API, the deployment in the body's model", () => {
    const body = { model: 'gpt-4.1', input: 'hello', store: true, previous_response_id: 'resp_1' };
    const responses = ir(body, { wire: 'responses' });
    const req = azureAdapter.buildRequest(responses, channel, 'gpt-4.1');
    expect(req.url).toBe('https://myres.openai.azure.com/openai/v1/responses?api-version=preview');
    expect(req.body).toBe(responses.raw);
    expect(req.headers['api-key']).toBe('azure-key-0001');
    const mapped = azureAdapter.buildRequest(responses, channel, 'prod-gpt41');
    expect(sentBody(mapped.body)).toEqual({ ...body, model: 'prod-gpt41' });
  });

  it("converts another dialect's chat call to chat completions on the deployment", () => {
    const chat = anthropicCodec.decodeRequest({
      model: 'claude-ish',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'hello' }],
    });
    const req = azureAdapter.buildRequest(
      ir({ model: 'claude-ish' }, { wire: 'anthropic', stream: true }),
      channel,
      'gpt-4o',
      chat,
    );
    expect(req.url).toBe(
      'https://myres.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21',
    );
    expect(req.headers['api-key']).toBe('azure-key-0001');
    const body = sentBody(req.body);
    expect(body).toMatchObject({ model: 'gpt-4o', max_completion_tokens: 50 });
    expect(body.messages).toEqual([{ role: 'user', content: 'hello' }]);
  });

  it('refuses to build a call for a channel without its resource endpoint', () => {
    const call = () => azureAdapter.buildRequest(ir({ model: 'm' }), { ...channel, baseUrl: '' }, 'm');
    expect(call).toThrow(RelayError);
    expect(call).toThrow(/no base URL: set it to the resource endpoint/);
  });

  it("reads Azure's content-filter chunk (no choices) as an event with nothing to convert", () => {
    const chat = anthropicCodec.decodeRequest({ model: 'm', max_tokens: 5, messages: [] });
    const parser = azureAdapter.createStreamParser(ir({ model: 'm', stream: true }), chat);
    const events = [...parser.push(fixture('chat-stream.sse')), ...parser.end()];
    expect(events[0]).toMatchObject({ text: '', usageOnly: false, finished: false, error: undefined });
    expect(events[0]?.deltas ?? []).toEqual([]);
    const text = events.flatMap((e) => e.deltas ?? []).filter((d) => d.type === 'text');
    expect(text.map((d) => (d.type === 'text' ? d.text : '')).join('')).toBe('Paris is the capital.');
  });
});
