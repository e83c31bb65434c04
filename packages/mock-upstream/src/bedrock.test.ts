// The Bedrock routes as an AWS client meets them: SigV4 signed with AWS's signer (or a Bedrock API
// key), Anthropic bodies in and out, streams in AWS event-stream framing, refusals in Bedrock's shape.
import { Sha256 } from '@aws-crypto/sha256-js';
import { EventStreamCodec } from '@smithy/core/event-streams';
import type { Message } from '@smithy/core/event-streams';
import { fromUtf8, toUtf8 } from '@smithy/core/serde';
import { SignatureV4 } from '@smithy/signature-v4';
import { describe, expect, it } from 'vitest';
import { MOCK_AWS_CREDENTIALS } from './bedrock-auth.js';
import { withMock } from './directive.js';
import type { MockUpstream } from './server.js';
import { useMockUpstream } from './test-support/test-kit.js';
import { expectedAnthropicReply, expectedAnthropicUsage } from './usage-anthropic.js';

let mock: MockUpstream;
useMockUpstream((started) => (mock = started));

type Json = Record<string, unknown>;

const MODEL = 'anthropic.claude-3-haiku-20240307-v1:0';
const invokePath = (model: string, stream = false) =>
  `/model/${encodeURIComponent(model)}/${stream ? 'invoke-with-response-stream' : 'invoke'}`;

const body = (text: string, extra: Json = {}): Json => ({
  anthropic_version: 'bedrock-2023-05-31',
  max_tokens: 100,
  messages: [{ role: 'user', content: text }],
  ...extra,
});

interface Call {
  path: string;
  payload: unknown;
  secret?: string;
  accessKeyId?: string;
  /** Sent instead of the signed body. */
  tamperedBody?: string;
  headers?: Record<string, string>;
}

/** A call signed as the AWS SDK signs it (service bedrock, x-amz-content-sha256 included). */
async function signedCall(call: Call): Promise<Response> {
  const url = new URL(`${mock.url}${call.path}`);
  const text = JSON.stringify(call.payload);
  const signer = new SignatureV4({
    service: 'bedrock',
    region: 'us-east-1',
    credentials: {
      accessKeyId: call.accessKeyId ?? MOCK_AWS_CREDENTIALS.accessKeyId,
      secretAccessKey: call.secret ?? MOCK_AWS_CREDENTIALS.secretAccessKey,
    },
    sha256: Sha256,
  });
  const signed = await signer.sign({
    method: 'POST',
    protocol: url.protocol,
    hostname: url.hostname,
    port: Number(url.port),
    path: url.pathname,
    query: {},
    headers: { host: url.host, 'content-type': 'application/json', ...call.headers },
    body: text,
  });
  const headers = Object.fromEntries(Object.entries(signed.headers).filter(([name]) => name !== 'host'));
  return fetch(url, { method: 'POST', headers, body: call.tamperedBody ?? text });
}

const bearerCall = (path: string, payload: unknown, key: string) =>
  fetch(`${mock.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });

/** The event-stream messages of a body, decoded with AWS's codec (the prelude gives each length). */
function messages(bytes: Buffer): Message[] {
  const codec = new EventStreamCodec(toUtf8, fromUtf8);
  const out: Message[] = [];
  for (let at = 0; at < bytes.length;) {
    const length = bytes.readUInt32BE(at);
    out.push(codec.decode(bytes.subarray(at, at + length)));
    at += length;
  }
  return out;
}

const headerOf = (message: Message, name: string) => message.headers[name]?.value;

/** The Anthropic events inside the chunk messages. */
const chunkEvents = (list: Message[]): Json[] =>
  list
    .filter((m) => headerOf(m, ':event-type') === 'chunk')
    .map((m) => {
      const payload = JSON.parse(toUtf8(m.body)) as { bytes: string };
      return JSON.parse(Buffer.from(payload.bytes, 'base64').toString('utf8')) as Json;
    });

describe('Bedrock InvokeModel (SigV4)', () => {
  it('answers an Anthropic Message for a signed call and records the model id of the path', async () => {
    const payload = body(withMock('hello bedrock', { cached_tokens: 1, cache_write_tokens: 1 }));
    const res = await signedCall({ path: invokePath(MODEL), payload });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-amzn-requestid')).toBeTruthy();
    const message = (await res.json()) as Json;
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-3-haiku-20240307',
      content: [{ type: 'text', text: expectedAnthropicReply(payload) }],
      stop_reason: 'end_turn',
      usage: expectedAnthropicUsage(payload),
    });
    const recorded = mock.lastRequest();
    expect(decodeURIComponent(recorded?.path ?? '')).toBe(`/model/${MODEL}/invoke`);
    expect(recorded?.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAMOCKMOCKMOCK\//);
  });

  it('streams the Anthropic events as event-stream chunks, with Bedrock metrics on the last', async () => {
    const payload = body('stream three words');
    const res = await signedCall({ path: invokePath(`us.${MODEL}`, true), payload });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.amazon.eventstream');
    const list = messages(Buffer.from(await res.arrayBuffer()));
    expect(list.every((m) => headerOf(m, ':message-type') === 'event')).toBe(true);
    expect(list.every((m) => headerOf(m, ':content-type') === 'application/json')).toBe(true);
    const events = chunkEvents(list);
    const words = expectedAnthropicReply(payload).split(' ').length;
    expect(events.map((e) => e.type)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      ...Array<string>(words).fill('content_block_delta'),
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const text = events
      .filter((e) => e.type === 'content_block_delta')
      .map((e) => (e.delta as { text: string }).text)
      .join('');
    expect(text).toBe(expectedAnthropicReply(payload));
    expect(events.at(-1)?.['amazon-bedrock-invocationMetrics']).toMatchObject({
      inputTokenCount: expectedAnthropicUsage(payload).input_tokens,
      outputTokenCount: expectedAnthropicUsage(payload).output_tokens,
    });
  });

  it('refuses a wrong secret, an unknown access key, a changed body and a missing signature', async () => {
    const payload = body('x');
    const wrong = await signedCall({ path: invokePath(MODEL), payload, secret: 'not-the-secret' });
    expect(wrong.status).toBe(403);
    expect(wrong.headers.get('x-amzn-errortype')).toMatch(/^InvalidSignatureException:/);
    expect(((await wrong.json()) as Json).message).toMatch(
      /^The request signature we calculated does not match/,
    );

    const stranger = await signedCall({
      path: invokePath(MODEL),
      payload,
      accessKeyId: 'AKIAUNKNOWNUNKNOWN',
    });
    expect(stranger.status).toBe(403);
    expect(stranger.headers.get('x-amzn-errortype')).toMatch(/^UnrecognizedClientException:/);
    expect(await stranger.json()).toEqual({
      message: 'The security token included in the request is invalid.',
    });

    const tampered = await signedCall({
      path: invokePath(MODEL),
      payload,
      tamperedBody: JSON.stringify(body('y')),
    });
    expect(tampered.status).toBe(403);
    expect(tampered.headers.get('x-amzn-errortype')).toMatch(/^InvalidSignatureException:/);

    const unsigned = await fetch(`${mock.url}${invokePath(MODEL)}`, { method: 'POST', body: '{}' });
    expect(unsigned.status).toBe(403);
    expect(unsigned.headers.get('x-amzn-errortype')).toMatch(/^MissingAuthenticationTokenException:/);
  });

  it('accepts a Bedrock API key as a bearer token and refuses a revoked one', async () => {
    const ok = await bearerCall(invokePath(MODEL), body('with an api key'), 'ABSKbedrockapikey');
    expect(ok.status).toBe(200);
    expect(mock.lastRequest()?.directive).toEqual({});
    const revoked = await bearerCall(invokePath(MODEL), body('x'), 'bad-bedrock-key');
    expect(revoked.status).toBe(403);
    expect(revoked.headers.get('x-amzn-errortype')).toMatch(/^UnrecognizedClientException:/);
  });

  it.each([
    [
      'no anthropic_version',
      { anthropic_version: undefined },
      /required key \[anthropic_version\] not found/,
    ],
    ["Anthropic's own version", { anthropic_version: '2023-06-01' }, /anthropic_version/],
    ['a model (it belongs in the path)', { model: MODEL }, /^model: Extra inputs are not permitted$/],
    ['stream (the path says it)', { stream: true }, /^stream: Extra inputs are not permitted$/],
    ['no max_tokens', { max_tokens: undefined }, /^max_tokens: Field required$/],
    ['a beta field without its beta', { context_management: {} }, /^context_management: Extra inputs/],
  ])('refuses a body with %s as a ValidationException', async (_what, change, message) => {
    const res = await signedCall({ path: invokePath(MODEL), payload: body('x', change) });
    expect(res.status).toBe(400);
    expect(res.headers.get('x-amzn-errortype')).toMatch(/^ValidationException:/);
    expect(((await res.json()) as Json).message).toMatch(message);
  });

  it('takes beta-only fields when anthropic_beta lists a beta', async () => {
    const payload = body('x', { anthropic_beta: ['context-management-2025-06-27'], context_management: {} });
    expect((await signedCall({ path: invokePath(MODEL), payload })).status).toBe(200);
  });

  it('ends a stream with a modelStreamErrorException under stream_error', async () => {
    const payload = body(withMock('fail midway please', { stream_error: true }));
    const res = await signedCall({ path: invokePath(MODEL, true), payload });
    const list = messages(Buffer.from(await res.arrayBuffer()));
    const last = list.at(-1) as Message;
    expect(headerOf(last, ':message-type')).toBe('exception');
    expect(headerOf(last, ':exception-type')).toBe('modelStreamErrorException');
    expect(JSON.parse(toUtf8(last.body))).toMatchObject({ originalStatusCode: 529 });
    expect(chunkEvents(list).map((e) => e.type)).not.toContain('message_stop');
  });

  it('breaks a message checksum under malformed', async () => {
    const payload = body(withMock('broken frames here', { malformed: true }));
    const res = await signedCall({ path: invokePath(MODEL, true), payload });
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(() => messages(bytes)).toThrow(/checksum/);
  });

  it('answers status directives in Bedrock shape', async () => {
    mock.enqueue({ status: 429 });
    const res = await signedCall({ path: invokePath(MODEL), payload: body('x') });
    expect(res.status).toBe(429);
    expect(res.headers.get('x-amzn-errortype')).toMatch(/^ThrottlingException:/);
    expect(await res.json()).toEqual({ message: 'Too many requests, please wait before trying again.' });
  });
});
