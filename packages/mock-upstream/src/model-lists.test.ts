// The model lists of Anthropic, Azure OpenAI, AWS Bedrock and Vertex AI as their clients meet them:
// each vendor's paging and shape, behind the same authentication (and refusals) as its other routes.
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MOCK_AWS_CREDENTIALS } from './bedrock-auth.js';
import type { MockUpstream } from './server.js';
import { exchangeAssertion, signedAssertion, useMockUpstream } from './test-support/test-kit.js';

type Json = Record<string, unknown>;

const EMAIL = 'lister@sluice-test.iam.gserviceaccount.com';
const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });

let mock: MockUpstream;
useMockUpstream((started) => {
  mock = started;
  mock.setVertexServiceAccount({
    clientEmail: EMAIL,
    publicKeyPem: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    projectId: 'sluice-test',
  });
});

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${mock.url}${path}`, { headers });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Json };
}

const ANTHROPIC = { 'x-api-key': 'sk-ant-list', 'anthropic-version': '2023-06-01' };

describe("Anthropic's GET /v1/models", () => {
  it('pages with limit, after_id and before_id, most recent first', async () => {
    mock.setAnthropicModels(['m-5', 'm-4', 'm-3', 'm-2', 'm-1']);
    const first = await get('/v1/models?limit=2', ANTHROPIC);
    expect(first.body).toMatchObject({ has_more: true, first_id: 'm-5', last_id: 'm-4' });
    expect(first.body.data).toEqual([
      expect.objectContaining({ type: 'model', id: 'm-5', display_name: 'M 5' }),
      expect.objectContaining({ id: 'm-4', created_at: expect.any(String) }),
    ]);
    const last = await get('/v1/models?limit=2&after_id=m-2', ANTHROPIC);
    expect(last.body).toMatchObject({ has_more: false, first_id: 'm-1', last_id: 'm-1' });
    const before = await get('/v1/models?limit=2&before_id=m-2', ANTHROPIC);
    expect(before.body).toMatchObject({ has_more: true, first_id: 'm-4', last_id: 'm-3' });
    expect((await get('/v1/models', ANTHROPIC)).body.data).toHaveLength(5);
  });

  it("answers Anthropic's model names and refusals, and leaves OpenAI callers the OpenAI list", async () => {
    const list = await get('/v1/models', ANTHROPIC);
    expect((list.body.data as Json[])[0]).toEqual({
      type: 'model',
      id: 'claude-sonnet-4-5-20250929',
      display_name: 'Claude Sonnet 4.5',
      created_at: '2025-09-29T00:00:00Z',
    });
    expect(list.headers.get('request-id')).toMatch(/^req_mock_/);
    const refused = await get('/v1/models', { 'x-api-key': 'bad-key', 'anthropic-version': '2023-06-01' });
    expect(refused).toMatchObject({
      status: 401,
      body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } },
    });
    expect((await get('/v1/models', { 'anthropic-version': '2023-06-01' })).status).toBe(401);
    expect((await get('/v1/models?limit=1001', ANTHROPIC)).body).toMatchObject({
      error: { type: 'invalid_request_error' },
    });
    expect((await get('/v1/models', { authorization: 'Bearer sk-openai' })).body.object).toBe('list');
  });
});

describe("Azure OpenAI's GET /openai/models", () => {
  it("lists the resource's models with their capabilities under a version Azure knows", async () => {
    const res = await get('/openai/models?api-version=2024-10-21', { 'api-key': 'azure-key' });
    expect(res.status).toBe(200);
    const models = res.body.data as Json[];
    expect(models.find((m) => m.id === 'gpt-4o-mini')).toMatchObject({
      object: 'model',
      status: 'succeeded',
      capabilities: { inference: true, chat_completion: true, embeddings: false },
      lifecycle_status: 'generally-available',
    });
    expect(models.find((m) => m.id === 'text-embedding-3-small')).toMatchObject({
      capabilities: { chat_completion: false, embeddings: true },
    });
    // Retired: Azure keeps listing it with an inference end date in the past.
    const retired = models.find((m) => m.id === 'text-davinci-003') as { deprecation: { inference: number } };
    expect(retired.deprecation.inference * 1000).toBeLessThan(Date.now());
  });

  it('refuses as Azure does: the key, then the version', async () => {
    expect((await get('/openai/models?api-version=2024-10-21', { 'api-key': 'bad' })).status).toBe(401);
    expect((await get('/openai/models', { 'api-key': 'azure-key' })).status).toBe(404);
    expect((await get('/openai/models?api-version=2099-01-01', { 'api-key': 'azure-key' })).body).toEqual({
      error: { code: 'BadRequest', message: 'API version not supported' },
    });
  });
});

describe("Bedrock's GET /foundation-models", () => {
  async function signedGet(query: Record<string, string>, secret = MOCK_AWS_CREDENTIALS.secretAccessKey) {
    const url = new URL(`${mock.url}/foundation-models?${new URLSearchParams(query).toString()}`);
    const signed = await new SignatureV4({
      service: 'bedrock',
      region: 'us-west-2',
      credentials: { accessKeyId: MOCK_AWS_CREDENTIALS.accessKeyId, secretAccessKey: secret },
      sha256: Sha256,
    }).sign({
      method: 'GET',
      protocol: url.protocol,
      hostname: url.hostname,
      port: Number(url.port),
      path: url.pathname,
      query,
      headers: { host: url.host },
    });
    const headers = Object.fromEntries(
      Object.entries(signed.headers).filter(([name]) => name !== 'host'),
    ) as Record<string, string>;
    return get(`/foundation-models${url.search}`, headers);
  }

  it('lists FoundationModelSummaries filtered by provider and inference type, SigV4-signed', async () => {
    const anthropic = await signedGet({ byProvider: 'anthropic' });
    expect(anthropic.status).toBe(200);
    const summaries = anthropic.body.modelSummaries as Json[];
    expect(summaries.every((m) => m.providerName === 'Anthropic')).toBe(true);
    expect(summaries[0]).toMatchObject({
      modelId: 'anthropic.claude-3-haiku-20240307-v1:0',
      modelArn: 'arn:aws:bedrock:us-east-1::foundation-model/anthropic.claude-3-haiku-20240307-v1:0',
      outputModalities: ['TEXT'],
      inferenceTypesSupported: ['ON_DEMAND'],
      modelLifecycle: { status: 'ACTIVE' },
    });
    const provisioned = await signedGet({ byProvider: 'Anthropic', byInferenceType: 'PROVISIONED' });
    expect((provisioned.body.modelSummaries as Json[]).map((m) => m.modelId)).toEqual([
      'anthropic.claude-3-haiku-20240307-v1:0:200k',
    ]);
    expect((await signedGet({ byInferenceType: 'SOMETIMES' })).status).toBe(400);
  });

  it('refuses a wrong signature, a revoked API key and no credentials, in Bedrock shape', async () => {
    const wrong = await signedGet({ byProvider: 'anthropic' }, 'not-the-secret');
    expect(wrong.status).toBe(403);
    expect(wrong.headers.get('x-amzn-errortype')).toMatch(/^InvalidSignatureException/);
    expect((await get('/foundation-models', { authorization: 'Bearer bad-key' })).status).toBe(403);
    expect((await get('/foundation-models')).body).toEqual({ message: 'Missing Authentication Token' });
    expect((await get('/foundation-models', { authorization: 'Bearer ABSK-key' })).status).toBe(200);
  });
});

describe("Vertex's GET /v1beta1/publishers/google/models", () => {
  async function accessToken(): Promise<string> {
    const jwt = signedAssertion(mock, { email: EMAIL, key: pair.privateKey });
    return (await exchangeAssertion(mock, jwt)).body.access_token as string;
  }

  it("pages Model Garden's Google models for an access token the token endpoint issued", async () => {
    const bearer = { authorization: `Bearer ${await accessToken()}` };
    const first = await get('/v1beta1/publishers/google/models?pageSize=3', bearer);
    expect(first.status).toBe(200);
    expect(first.body.publisherModels).toEqual([
      expect.objectContaining({ name: 'publishers/google/models/gemini-2.5-flash', versionId: '001' }),
      expect.objectContaining({ name: 'publishers/google/models/gemini-2.5-pro' }),
      expect.objectContaining({ name: 'publishers/google/models/gemini-2.0-flash' }),
    ]);
    const rest = await get(
      `/v1beta1/publishers/google/models?pageSize=100&pageToken=${String(first.body.nextPageToken)}`,
      bearer,
    );
    expect(rest.body.nextPageToken).toBeUndefined();
    expect((rest.body.publisherModels as Json[]).map((m) => m.name)).toContain(
      'publishers/google/models/imagen-4.0-generate-001',
    );
  });

  it('refuses a missing or unknown token in Google shape', async () => {
    const none = await get('/v1beta1/publishers/google/models');
    expect(none).toMatchObject({ status: 401, body: { error: { status: 'UNAUTHENTICATED' } } });
    expect(
      (await get('/v1beta1/publishers/google/models', { authorization: 'Bearer ya29.forged' })).status,
    ).toBe(401);
  });
});
