import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../ir/chat.js';
import type { IrRequest, UpstreamRequest } from '../../ir/request.js';
import { testServiceAccount } from '../../../test-support/vertex-keys.js';
import { runProviderContract } from '../contract.case.js';
import { adapterFor } from '../registry.js';
import { VERTEX_ANTHROPIC_VERSION, vertexClaudeAdapter } from './claude.js';
import { vertexGeminiAdapter } from './gemini.js';
import { vertexAdapter } from './index.js';

type Json = Record<string, unknown>;

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const account = testServiceAccount('https://oauth2.example.test/token', { projectId: 'acme-prod' });
const channel = {
  type: 41,
  key: account.key,
  baseUrl: 'https://vertex-proxy.example.com/',
  organization: '',
  other: '',
  credential: 'ya29.test-access-token',
};
const PROXY = 'https://vertex-proxy.example.com/v1/projects/acme-prod/locations';
const bodyOf = (request: UpstreamRequest) => JSON.parse(request.body.toString()) as Json;

/** The model and method a Vertex URL names, whether it streams, and the message count of the body. */
function readVertexRequest(request: UpstreamRequest) {
  const match = /\/models\/([^:]+):(\w+)(\?alt=sse)?$/.exec(request.url);
  const body = bodyOf(request);
  const method = match?.[2] ?? '';
  return {
    model: match?.[1] ?? '',
    stream: method === 'streamRawPredict' ? body.stream === true : match?.[3] !== undefined,
    messages: ((body.contents ?? body.messages) as unknown[]).length,
  };
}

runProviderContract('vertex (Gemini models)', {
  adapter: vertexGeminiAdapter,
  channel,
  chatUrl: `${PROXY}/us-central1/publishers/google/models/upstream-model:streamGenerateContent?alt=sse`,
  readRequest: readVertexRequest,
  response: {
    body: fixture('gemini-generate.json'),
    usage: { promptTokens: 14, completionTokens: 16, cachedTokens: 6, reasoningTokens: 8 },
    text: 'Vertex says hello from us-central1.',
  },
  stream: {
    body: fixture('gemini-stream.sse'),
    usage: { promptTokens: 7, completionTokens: 4, cachedTokens: 0 },
    text: 'Bonjour depuis Vertex.',
    endMarker: false,
  },
  error: {
    status: 429,
    body: fixture('error-429-quota.json'),
    message: /^Quota exceeded for aiplatform/,
    code: 'RESOURCE_EXHAUSTED',
  },
});

runProviderContract('vertex (Claude models)', {
  adapter: vertexClaudeAdapter,
  // A Claude model's region unless `other` says otherwise: the contract's model name is not Claude's.
  channel: { ...channel, other: 'europe-west1' },
  chatUrl: `${PROXY}/europe-west1/publishers/anthropic/models/upstream-model:streamRawPredict`,
  readRequest: readVertexRequest,
  response: {
    body: fixture('claude-message.json'),
    usage: { promptTokens: 35, completionTokens: 9, cachedTokens: 20, cacheWriteTokens: 3 },
    text: 'Claude answers through Vertex.',
  },
  stream: {
    body: fixture('claude-stream.sse'),
    usage: { promptTokens: 11, completionTokens: 5, cachedTokens: 0, cacheWriteTokens: 0 },
    text: 'Streamed from Vertex',
  },
  error: {
    status: 529,
    body: fixture('error-overloaded.json'),
    message: /^Overloaded$/,
    code: 'overloaded_error',
  },
});

const claudeIr = (body: Json, extra: Partial<IrRequest> = {}): IrRequest =>
  Object.assign(
    {
      mode: 'chat' as const,
      model: 'claude-sonnet-4',
      stream: body.stream === true,
      clientWantsUsage: true,
      body,
      wire: 'anthropic' as const,
      raw: Buffer.from(JSON.stringify(body)),
    },
    extra,
  );

const neutral = (extra: Partial<ChatRequest> = {}): ChatRequest =>
  Object.assign(
    {
      model: 'client-model',
      stream: false,
      system: [{ type: 'text' as const, text: 'be brief' }],
      messages: [{ role: 'user' as const, parts: [{ type: 'text' as const, text: 'hi' }] }],
      tools: [],
      stop: [],
    },
    extra,
  );

describe('vertex adapter', () => {
  it('is channel type 41, for chat, serving Claude models in Anthropic’s dialect and others in Gemini’s', () => {
    expect(adapterFor(41)).toBe(vertexAdapter);
    expect(vertexAdapter.supports('chat')).toBe(true);
    expect(vertexAdapter.supports('embeddings')).toBe(false);
    expect(vertexAdapter.forModel?.('claude-opus-4@20250514')).toBe(vertexClaudeAdapter);
    expect(vertexAdapter.forModel?.('gemini-2.5-pro')).toBe(vertexGeminiAdapter);
    expect(vertexClaudeAdapter.dialects).toEqual(['anthropic']);
    expect(vertexGeminiAdapter.dialects).toEqual(['gemini']);
    expect(vertexClaudeAdapter.credentials).toBe(vertexGeminiAdapter.credentials);
  });

  it('sends the access token as a bearer, never the key', () => {
    const body = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
    const ir: IrRequest = {
      mode: 'chat',
      model: 'gemini-2.5-flash',
      stream: false,
      clientWantsUsage: false,
      body,
      wire: 'gemini',
      raw: Buffer.from(JSON.stringify(body)),
    };
    const req = vertexGeminiAdapter.buildRequest(ir, { ...channel, baseUrl: '' }, 'gemini-2.5-flash');
    expect(req.url).toBe(
      'https://us-central1-aiplatform.googleapis.com/v1/projects/acme-prod/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent',
    );
    expect(req.headers.authorization).toBe('Bearer ya29.test-access-token');
    expect(req.headers['x-goog-api-key']).toBeUndefined();
    expect(JSON.stringify(req)).not.toContain('PRIVATE KEY');
    expect(bodyOf(req).contents).toEqual(body.contents);
    expect(() => vertexGeminiAdapter.buildRequest(ir, { ...channel, credential: undefined }, 'g')).toThrow(
      /access token is missing/,
    );
  });

  it('takes a thinking suffix off a Gemini model as type 24 does', () => {
    const ir: IrRequest = { mode: 'chat', model: 'g', stream: true, clientWantsUsage: false, body: {} };
    const req = vertexGeminiAdapter.buildRequest(ir, channel, 'gemini-2.5-pro-thinking-1024', neutral());
    expect(req.url).toBe(
      `${PROXY}/us-central1/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse`,
    );
    expect((bodyOf(req).generationConfig as Json).thinkingConfig).toEqual({
      thinkingBudget: 1024,
      includeThoughts: true,
    });
  });

  it("sends a Claude client's body without model, with Vertex's anthropic_version and its beta flags", () => {
    const body = {
      model: 'claude-sonnet-4',
      max_tokens: 300,
      system: 'be brief',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    };
    const ir = claudeIr(body, {
      vendorHeaders: { 'anthropic-beta': 'context-1m-2025-08-07', 'anthropic-version': '2023-06-01' },
    });
    const req = vertexClaudeAdapter.buildRequest(ir, { ...channel, baseUrl: '' }, 'claude-sonnet-4@20250514');
    expect(req.url).toBe(
      'https://europe-west1-aiplatform.googleapis.com/v1/projects/acme-prod/locations/europe-west1/publishers/anthropic/models/claude-sonnet-4@20250514:streamRawPredict',
    );
    expect(req.headers).toMatchObject({
      authorization: 'Bearer ya29.test-access-token',
      'anthropic-beta': 'context-1m-2025-08-07',
      accept: 'text/event-stream',
    });
    expect(req.headers['anthropic-version']).toBeUndefined();
    expect(req.headers['x-api-key']).toBeUndefined();
    const { model: _model, ...rest } = body;
    expect(bodyOf(req)).toEqual({ anthropic_version: VERTEX_ANTHROPIC_VERSION, ...rest });
    expect(Object.keys(bodyOf(req))[0]).toBe('anthropic_version');
  });

  it("lowers a Claude client's limit to the hold's, keeping the thinking budget below it", () => {
    const body = {
      model: 'claude-sonnet-4',
      max_tokens: 8000,
      thinking: { type: 'enabled', budget_tokens: 4000 },
      messages: [{ role: 'user', content: 'think' }],
    };
    const sent = bodyOf(
      vertexClaudeAdapter.buildRequest(claudeIr(body, { outputLimit: 2000 }), channel, 'claude-sonnet-4'),
    );
    expect(sent).toMatchObject({ max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 1999 } });
    expect(sent.model).toBeUndefined();
    expect(sent.anthropic_version).toBe(VERTEX_ANTHROPIC_VERSION);
  });

  it("names Claude models as Vertex does, so Anthropic's dated names need no mapping", () => {
    const ir: IrRequest = { mode: 'chat', model: 'c', stream: false, clientWantsUsage: false, body: {} };
    const url = (model: string) => vertexClaudeAdapter.buildRequest(ir, channel, model, neutral()).url;
    expect(url('claude-3-5-sonnet-20240620')).toBe(
      `${PROXY}/europe-west1/publishers/anthropic/models/claude-3-5-sonnet@20240620:rawPredict`,
    );
    expect(url('claude-sonnet-4@20250514')).toContain('/models/claude-sonnet-4@20250514:rawPredict');
    expect(url('claude-sonnet-4-5')).toContain('/models/claude-sonnet-4-5:rawPredict');
  });

  it('encodes a client of another dialect, and the probe’s OpenAI body, as a Messages body', () => {
    const ir: IrRequest = { mode: 'chat', model: 'c', stream: false, clientWantsUsage: false, body: {} };
    const converted = vertexClaudeAdapter.buildRequest(
      ir,
      channel,
      'claude-opus-4',
      neutral({ maxOutputTokens: 64 }),
    );
    expect(converted.url).toBe(`${PROXY}/europe-west1/publishers/anthropic/models/claude-opus-4:rawPredict`);
    expect(bodyOf(converted)).toMatchObject({
      anthropic_version: VERTEX_ANTHROPIC_VERSION,
      max_tokens: 64,
      system: [{ type: 'text', text: 'be brief' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    });
    expect(bodyOf(converted).model).toBeUndefined();
    const probe: IrRequest = {
      mode: 'chat',
      model: 'claude-opus-4',
      stream: false,
      clientWantsUsage: false,
      body: { model: 'claude-opus-4', messages: [{ role: 'user', content: 'hi' }] },
    };
    const sent = bodyOf(vertexClaudeAdapter.buildRequest(probe, channel, 'claude-opus-4'));
    expect(sent.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
    expect(typeof sent.max_tokens).toBe('number');
    expect(sent.model).toBeUndefined();
  });

  it('gives a converted client its answer in neutral form, with its own tool names back', () => {
    const parsed = vertexClaudeAdapter.parseResponse(claudeIr({}), fixture('claude-message.json'), neutral());
    expect(parsed.answer?.parts).toEqual([{ type: 'text', text: 'Claude answers through Vertex.' }]);
    const gemini = vertexGeminiAdapter.parseResponse(
      claudeIr({}),
      fixture('gemini-generate.json'),
      neutral(),
    );
    expect(gemini.answer?.finishReason).toBe('stop');
  });

  it("reads Google's errors and Anthropic's, whichever the model", () => {
    for (const adapter of [vertexGeminiAdapter, vertexClaudeAdapter]) {
      expect(adapter.parseError(429, fixture('error-429-quota.json')).type).toBe('RESOURCE_EXHAUSTED');
      expect(adapter.parseError(529, fixture('error-overloaded.json')).type).toBe('overloaded_error');
    }
  });
});
