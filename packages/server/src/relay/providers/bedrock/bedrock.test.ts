import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadEventStreamCodec } from './event-stream.js';
import type { ChatRequest } from '../../ir/chat.js';
import type { IrRequest, UpstreamRequest } from '../../ir/request.js';
import { runProviderContract } from '../contract.case.js';
import { STREAM } from './fixtures/event-stream.js';
import { adapterFor } from '../registry.js';
import { bedrockAdapter, parseBedrockError } from './index.js';
import { BEDROCK_KEY_FORMATS, BedrockKeyError, parseBedrockKey, readBedrockKey } from './key.js';
import { bedrockModelId } from './models.js';
import { signBedrockRequest } from './sign.js';

// The adapter loads AWS's codec when a call is signed; these tests decode streams without one.
beforeAll(() => loadEventStreamCodec());

type Json = Record<string, unknown>;

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const AWS_KEYS = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  region: 'us-west-2',
};
const KEY = `${AWS_KEYS.accessKeyId}|${AWS_KEYS.secretAccessKey}|${AWS_KEYS.region}`;
const channel = { type: 33, key: KEY, baseUrl: '', organization: '', other: '' };
const bodyOf = (request: UpstreamRequest) => JSON.parse(request.body.toString()) as Json;

/** The model and kind of call a Bedrock URL names, and the message count of its body. */
function readBedrockRequest(request: UpstreamRequest) {
  const match = /\/model\/([^/]+)\/(invoke|invoke-with-response-stream)$/.exec(request.url);
  return {
    model: decodeURIComponent(match?.[1] ?? ''),
    stream: match?.[2] === 'invoke-with-response-stream',
    messages: (bodyOf(request).messages as unknown[]).length,
  };
}

runProviderContract('bedrock', {
  adapter: bedrockAdapter,
  // Only the origin of a base_url counts: Bedrock's path stays as Bedrock documents it.
  channel: { ...channel, baseUrl: 'https://bedrock-proxy.example.com/ignored/prefix' },
  chatUrl: 'https://bedrock-proxy.example.com/model/upstream-model/invoke-with-response-stream',
  readRequest: readBedrockRequest,
  response: {
    body: fixture('invoke.json'),
    usage: { promptTokens: 126, completionTokens: 34, cachedTokens: 100, cacheWriteTokens: 5 },
    text: 'Paris is the capital of France.get_weather{"city":"Paris"}',
  },
  stream: {
    body: STREAM,
    usage: { promptTokens: 20, completionTokens: 6, cachedTokens: 8, cacheWriteTokens: 0 },
    text: 'Hello wörld!',
  },
  error: {
    status: 403,
    body: fixture('error-403-signature.json'),
    message: /^The request signature we calculated does not match/,
    code: null,
  },
});

/** A Claude client's call, as the Claude Messages inbound format builds it. */
const claudeIr = (body: Json, extra: Partial<IrRequest> = {}): IrRequest =>
  Object.assign(
    {
      mode: 'chat' as const,
      model: 'claude-3-5-haiku-20241022',
      stream: false,
      clientWantsUsage: true,
      body,
      wire: 'anthropic' as const,
      raw: Buffer.from(JSON.stringify(body)),
    },
    extra,
  );

const CLAUDE_BODY = {
  model: 'claude-3-5-haiku-20241022',
  max_tokens: 300,
  messages: [{ role: 'user', content: 'hi' }],
};

describe('bedrock key', () => {
  it('reads AWS access keys and Bedrock API keys, each with its region', () => {
    expect(parseBedrockKey(KEY)).toEqual({
      kind: 'sigv4',
      accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      region: 'us-west-2',
    });
    expect(parseBedrockKey(' ABSKQmVkcm9ja0FQSUtleS1leGFtcGxl | eu-central-1 \n')).toEqual({
      kind: 'api-key',
      apiKey: 'ABSKQmVkcm9ja0FQSUtleS1leGFtcGxl',
      region: 'eu-central-1',
    });
    expect(parseBedrockKey('ASIAEXAMPLEEXAMPLE12|secret|us-gov-west-1').region).toBe('us-gov-west-1');
  });

  it.each([
    ['a bare secret', 'wJalrXUtnFEMI/K7MDENG'],
    ['no region', 'AKIAIOSFODNN7EXAMPLE|wJalrXUtnFEMI/K7MDENG|'],
    ['a region that is not one', 'AKIAIOSFODNN7EXAMPLE|wJalrXUtnFEMI/K7MDENG|Virginia'],
    ['an access key id that is not one', 'my key|wJalrXUtnFEMI/K7MDENG|us-east-1'],
    ['four parts', 'AKIAIOSFODNN7EXAMPLE|secret|us-east-1|extra'],
  ])('refuses %s, naming the formats and not the key', (_what, key) => {
    expect(readBedrockKey(key)).toBeUndefined();
    expect(() => parseBedrockKey(key)).toThrow(BedrockKeyError);
    try {
      parseBedrockKey(key);
    } catch (error) {
      expect((error as Error).message).toContain(BEDROCK_KEY_FORMATS);
      expect((error as Error).message).not.toContain('wJalrXUtnFEMI');
    }
  });
});

describe('bedrock model ids', () => {
  it.each([
    ['claude-3-haiku-20240307', 'anthropic.claude-3-haiku-20240307-v1:0'],
    ['claude-3-5-sonnet-20240620', 'anthropic.claude-3-5-sonnet-20240620-v1:0'],
    ['claude-3-5-sonnet-20241022', 'anthropic.claude-3-5-sonnet-20241022-v2:0'],
    ['claude-3-5-haiku-20241022', 'anthropic.claude-3-5-haiku-20241022-v1:0'],
    ['claude-3-7-sonnet-20250219', 'anthropic.claude-3-7-sonnet-20250219-v1:0'],
    ['claude-sonnet-4-20250514', 'anthropic.claude-sonnet-4-20250514-v1:0'],
    ['claude-opus-4-20250514', 'anthropic.claude-opus-4-20250514-v1:0'],
    ['claude-opus-4-1-20250805', 'anthropic.claude-opus-4-1-20250805-v1:0'],
    ['claude-sonnet-4-5-20250929', 'anthropic.claude-sonnet-4-5-20250929-v1:0'],
    ['claude-haiku-4-5-20251001', 'anthropic.claude-haiku-4-5-20251001-v1:0'],
  ])('maps %s to %s', (name, id) => {
    expect(bedrockModelId(name)).toBe(id);
  });

  it.each([
    'anthropic.claude-3-haiku-20240307-v1:0',
    'us.anthropic.claude-sonnet-4-20250514-v1:0',
    'eu.anthropic.claude-3-7-sonnet-20250219-v1:0',
    'apac.anthropic.claude-3-5-sonnet-20241022-v2:0',
    'global.anthropic.claude-sonnet-4-5-20250929-v1:0',
    'arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3',
  ])('sends %s as it is, as one encoded path segment', (id) => {
    expect(bedrockModelId(id)).toBe(id);
    const req = bedrockAdapter.buildRequest(claudeIr(CLAUDE_BODY), channel, id);
    expect(req.url).toBe(
      `https://bedrock-runtime.us-west-2.amazonaws.com/model/${encodeURIComponent(id)}/invoke`,
    );
    expect(new URL(req.url).pathname.split('/')).toHaveLength(4);
  });
});

describe('bedrock request', () => {
  it('is registered as channel type 33 for chat, speaking Anthropic Messages', () => {
    expect(adapterFor(33)).toBe(bedrockAdapter);
    expect(bedrockAdapter.dialects).toEqual(['anthropic']);
    expect(bedrockAdapter.supports('chat')).toBe(true);
    expect(bedrockAdapter.supports('embeddings')).toBe(false);
  });

  it("sends a Claude client's body without model and stream, with Bedrock's version and its betas", () => {
    const body = { ...CLAUDE_BODY, stream: true, system: 'be brief', metadata: { user_id: 'u1' } };
    const ir = claudeIr(body, {
      stream: true,
      vendorHeaders: {
        'anthropic-version': '2023-06-01',
        'anthropic-beta': 'token-efficient-tools-2025-02-19, interleaved-thinking-2025-05-14',
      },
    });
    const req = bedrockAdapter.buildRequest(ir, channel, 'claude-3-5-haiku-20241022');
    expect(req.url).toBe(
      'https://bedrock-runtime.us-west-2.amazonaws.com/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/invoke-with-response-stream',
    );
    expect(bodyOf(req)).toEqual({
      anthropic_version: 'bedrock-2023-05-31',
      anthropic_beta: ['token-efficient-tools-2025-02-19', 'interleaved-thinking-2025-05-14'],
      max_tokens: 300,
      messages: body.messages,
      system: 'be brief',
      metadata: { user_id: 'u1' },
    });
    expect(req.headers).toEqual({
      'content-type': 'application/json',
      accept: 'application/json',
      host: 'bedrock-runtime.us-west-2.amazonaws.com',
    });
    // The anthropic-version header has no place on Bedrock: the body carries the version.
    expect(req.headers['anthropic-version']).toBeUndefined();
  });

  it("lowers a Claude client's output limit to the hold's and keeps its thinking budget below it", () => {
    const body = { ...CLAUDE_BODY, max_tokens: 20000, thinking: { type: 'enabled', budget_tokens: 16000 } };
    const req = bedrockAdapter.buildRequest(
      claudeIr(body, { outputLimit: 8000 }),
      channel,
      'claude-sonnet-4-20250514',
    );
    expect(bodyOf(req)).toMatchObject({
      max_tokens: 8000,
      thinking: { type: 'enabled', budget_tokens: 7999 },
    });
    expect(bodyOf(req).model).toBeUndefined();
  });

  it('encodes a converted call with the Anthropic codec, and an OpenAI-shaped one without it (the channel test)', () => {
    const chat: ChatRequest = {
      model: 'claude-3-haiku-20240307',
      stream: false,
      system: [{ type: 'text', text: 'be kind' }],
      messages: [{ role: 'user', parts: [{ type: 'text', text: 'hello' }] }],
      tools: [],
      stop: [],
      maxOutputTokens: 64,
    };
    const ir: IrRequest = {
      mode: 'chat',
      model: 'claude-3-haiku-20240307',
      stream: false,
      clientWantsUsage: false,
      body: {},
    };
    expect(bodyOf(bedrockAdapter.buildRequest(ir, channel, 'claude-3-haiku-20240307', chat))).toEqual({
      anthropic_version: 'bedrock-2023-05-31',
      max_tokens: 64,
      system: [{ type: 'text', text: 'be kind' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
    });

    const probe: IrRequest = {
      mode: 'chat',
      model: 'claude-3-haiku-20240307',
      stream: false,
      clientWantsUsage: false,
      body: { model: 'claude-3-haiku-20240307', messages: [{ role: 'user', content: 'hi' }] },
    };
    const req = bedrockAdapter.buildRequest(probe, channel, 'claude-3-haiku-20240307');
    expect(req.url).toMatch(/\/model\/anthropic\.claude-3-haiku-20240307-v1%3A0\/invoke$/);
    expect(bodyOf(req)).toMatchObject({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 4096 });
    expect(bodyOf(req).messages).toHaveLength(1);
  });

  it('sends a Bedrock API key as a bearer token, to its region or to the base_url origin', () => {
    const apiKey = { ...channel, key: 'ABSKQmVkcm9ja0FQSUtleQ==|ap-northeast-1' };
    const req = bedrockAdapter.buildRequest(claudeIr(CLAUDE_BODY), apiKey, 'claude-3-haiku-20240307');
    expect(req.url).toBe(
      'https://bedrock-runtime.ap-northeast-1.amazonaws.com/model/anthropic.claude-3-haiku-20240307-v1%3A0/invoke',
    );
    expect(req.headers.authorization).toBe('Bearer ABSKQmVkcm9ja0FQSUtleQ==');
    expect(req.headers.host).toBeUndefined();
    const proxied = bedrockAdapter.buildRequest(
      claudeIr(CLAUDE_BODY),
      { ...apiKey, baseUrl: 'http://127.0.0.1:9999/' },
      'anthropic.claude-3-haiku-20240307-v1:0',
    );
    expect(proxied.url).toBe('http://127.0.0.1:9999/model/anthropic.claude-3-haiku-20240307-v1%3A0/invoke');
  });
});

describe('bedrock signing', () => {
  const built = () => bedrockAdapter.buildRequest(claudeIr(CLAUDE_BODY), channel, 'claude-3-haiku-20240307');

  it('signs with SigV4 for service bedrock in the key region, over the body it sends', async () => {
    const request = built();
    const signed = await signBedrockRequest(request, AWS_KEYS, new Date('2025-03-04T05:06:07Z'));
    expect(signed.url).toBe(request.url);
    expect(signed.headers['x-amz-date']).toBe('20250304T050607Z');
    const bodyHash = createHash('sha256').update(signed.body).digest('hex');
    expect(signed.headers['x-amz-content-sha256']).toBe(bodyHash);
    expect(signed.body.toString()).toBe(request.body.toString());
    expect(signed.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\/20250304\/us-west-2\/bedrock\/aws4_request, SignedHeaders=accept;content-type;host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
    const other = await signBedrockRequest(
      { ...request, body: request.body.toString().replace('hi', 'ho') },
      AWS_KEYS,
      new Date('2025-03-04T05:06:07Z'),
    );
    expect(other.headers.authorization).not.toBe(signed.headers.authorization);
  });

  it("signs through the adapter's last step, leaves API-key calls alone and refuses a key of neither format", async () => {
    const signed = await bedrockAdapter.signRequest?.(built(), channel);
    expect(signed?.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 /);
    const apiKey = { ...channel, key: 'ABSKkey|us-east-1' };
    const bearer = bedrockAdapter.buildRequest(claudeIr(CLAUDE_BODY), apiKey, 'claude-3-haiku-20240307');
    expect(await bedrockAdapter.signRequest?.(bearer, apiKey)).toBe(bearer);
    const broken = { ...channel, key: 'just-a-secret' };
    const unsigned = bedrockAdapter.buildRequest(claudeIr(CLAUDE_BODY), broken, 'claude-3-haiku-20240307');
    expect(unsigned.headers.authorization).toBeUndefined();
    await expect(bedrockAdapter.signRequest?.(unsigned, broken)).rejects.toThrow(
      /AccessKeyId\|SecretAccessKey\|Region/,
    );
  });
});

describe('bedrock errors', () => {
  it('reads Bedrock, AWS-typed and Anthropic-shaped bodies', () => {
    expect(parseBedrockError(400, Buffer.from('{"message":"messages: field required"}'))).toEqual({
      message: 'messages: field required',
      type: 'upstream_error',
      code: null,
    });
    expect(
      parseBedrockError(
        403,
        Buffer.from(
          '{"__type":"com.amazon.coral.service#UnrecognizedClientException","message":"The security token included in the request is invalid."}',
        ),
      ),
    ).toMatchObject({ code: 'UnrecognizedClientException' });
    expect(
      parseBedrockError(
        429,
        Buffer.from('{"code":"ThrottlingException:http://internal.amazon.com/coral/","message":"slow down"}'),
      ),
    ).toEqual({ message: 'slow down', type: 'upstream_error', code: 'ThrottlingException' });
    expect(
      parseBedrockError(
        529,
        Buffer.from('{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'),
      ),
    ).toEqual({ message: 'Overloaded', type: 'overloaded_error', code: 'overloaded_error' });
  });
});
