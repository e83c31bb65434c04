import { readFileSync } from 'node:fs';
import { importSPKI, jwtVerify, decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { testServiceAccount } from '../../../test-support/vertex-keys.js';
import { CLOUD_PLATFORM_SCOPE, JWT_BEARER_GRANT, vertexCredentials } from './credentials.js';
import { vertexOrigin, vertexRegion, vertexUrl } from './region.js';
import { parseServiceAccount } from './service-account.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const TOKEN_URI = 'https://oauth2.example.test/token';
const account = testServiceAccount(TOKEN_URI, { projectId: 'acme-prod' });
const channel = (key: string) => ({ type: 41, key, baseUrl: '', organization: '', other: '' });

describe('the service-account key', () => {
  it('reads a key file as the Cloud console writes it', () => {
    const parsed = parseServiceAccount(account.key);
    expect(parsed).toMatchObject({
      project_id: 'acme-prod',
      client_email: account.clientEmail,
      private_key_id: account.privateKeyId,
      token_uri: TOKEN_URI,
    });
  });

  it('names what is wrong with a key that is not a service account key', () => {
    const file = account.file;
    const without = (field: string) => JSON.stringify({ ...file, [field]: undefined });
    const cases: [string, RegExp][] = [
      ['sk-plain-api-key', /not JSON/],
      [JSON.stringify([file]), /not a JSON object/],
      [
        JSON.stringify({ ...file, type: 'authorized_user' }),
        /not a service account key \(its type is "authorized_user"/,
      ],
      [without('type'), /it has no "type"/],
      [without('client_email'), /no "client_email"/],
      [without('project_id'), /no "project_id"/],
      [JSON.stringify({ ...file, private_key: 'abc' }), /not a PEM private key/],
      [JSON.stringify({ ...file, token_uri: 'file:///etc/passwd' }), /token_uri/],
    ];
    for (const [key, message] of cases)
      expect(() => parseServiceAccount(key), key.slice(0, 30)).toThrow(message);
  });
});

describe('the region of a call', () => {
  it('defaults to us-central1, and to europe-west1 for Claude models (spec part 1 §9)', () => {
    expect(vertexRegion('', 'gemini-2.5-pro')).toBe('us-central1');
    expect(vertexRegion('  ', 'claude-sonnet-4@20250514')).toBe('europe-west1');
    expect(vertexRegion('', 'Claude-3-Haiku')).toBe('europe-west1');
  });

  it('takes a plain region for every model', () => {
    expect(vertexRegion('asia-northeast1', 'gemini-2.5-pro')).toBe('asia-northeast1');
    expect(vertexRegion(' global\n', 'claude-sonnet-4')).toBe('global');
  });

  it('reads a JSON map of model → region, the mapped name first, then "default"', () => {
    const other = JSON.stringify({
      default: 'us-east5',
      'claude-opus-4': 'europe-west4',
      'my-alias': 'asia-east1',
    });
    expect(vertexRegion(other, 'claude-opus-4')).toBe('europe-west4');
    expect(vertexRegion(other, 'gemini-2.5-flash')).toBe('us-east5');
    expect(vertexRegion(other, 'claude-sonnet-4')).toBe('us-east5');
    expect(vertexRegion(other, 'gemini-2.5-flash', 'my-alias')).toBe('asia-east1');
    expect(vertexRegion('{"gemini-2.5-flash":"us-east1"}', 'claude-sonnet-4')).toBe('europe-west1');
  });

  it('never builds a host from a malformed value', () => {
    expect(vertexRegion('{not json', 'gemini-2.5-flash')).toBe('us-central1');
    expect(vertexRegion('evil.example.com/x', 'claude-x')).toBe('europe-west1');
    expect(vertexRegion('{"default":"a b"}', 'gemini-x')).toBe('us-central1');
  });
});

describe('the URL of a call', () => {
  const target = {
    baseUrl: '',
    project: 'acme-prod',
    region: 'us-central1',
    publisher: 'google' as const,
    model: 'gemini-2.5-flash',
    method: 'generateContent',
  };

  it("uses the region's host, global's and the multi-regions' own hosts", () => {
    expect(vertexUrl(target)).toBe(
      'https://us-central1-aiplatform.googleapis.com/v1/projects/acme-prod/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent',
    );
    expect(vertexOrigin('global')).toBe('https://aiplatform.googleapis.com');
    expect(vertexOrigin('eu')).toBe('https://aiplatform.eu.rep.googleapis.com');
  });

  it('asks streams for SSE and lets a base URL replace the origin only', () => {
    expect(vertexUrl({ ...target, method: 'streamGenerateContent', baseUrl: 'http://127.0.0.1:9000/' })).toBe(
      'http://127.0.0.1:9000/v1/projects/acme-prod/locations/us-central1/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    );
    expect(
      vertexUrl({
        ...target,
        publisher: 'anthropic',
        model: 'claude-sonnet-4@20250514',
        method: 'streamRawPredict',
        region: 'europe-west1',
      }),
    ).toBe(
      'https://europe-west1-aiplatform.googleapis.com/v1/projects/acme-prod/locations/europe-west1/publishers/anthropic/models/claude-sonnet-4@20250514:streamRawPredict',
    );
  });
});

describe('the access-token exchange', () => {
  it("posts an RS256 JWT signed with the key to the key's own token_uri", async () => {
    const now = 1_750_000_000;
    const request = await vertexCredentials.buildRequest(channel(account.key), now);
    expect(request).toMatchObject({ url: TOKEN_URI, method: 'POST' });
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const form = new URLSearchParams(request.body.toString());
    expect(form.get('grant_type')).toBe(JWT_BEARER_GRANT);
    const jwt = form.get('assertion') ?? '';
    expect(decodeProtectedHeader(jwt)).toEqual({ alg: 'RS256', typ: 'JWT', kid: account.privateKeyId });
    const { payload } = await jwtVerify(jwt, await importSPKI(account.publicKeyPem, 'RS256'), {
      currentDate: new Date(now * 1000),
    });
    expect(payload).toEqual({
      iss: account.clientEmail,
      scope: CLOUD_PLATFORM_SCOPE,
      aud: TOKEN_URI,
      iat: now,
      exp: now + 3600,
    });
  });

  it('refuses a key whose private key cannot sign', async () => {
    const broken = JSON.stringify({
      ...account.file,
      private_key: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n',
    });
    await expect(vertexCredentials.buildRequest(channel(broken), 0)).rejects.toThrow(/not a PKCS#8 RSA key/);
    await expect(vertexCredentials.buildRequest(channel('{"type":"authorized_user"}'), 0)).rejects.toThrow(
      /not a service account key/,
    );
  });

  it('reads the token and its lifetime, and OAuth or Google errors', () => {
    expect(vertexCredentials.parseResponse(fixture('token.json'))).toEqual({
      value: 'ya29.c.b0AXv0zTOoM1mHq3yT7nJ2fL8kRWm9x3Lk6Q',
      expiresInSeconds: 3599,
    });
    expect(() => vertexCredentials.parseResponse(Buffer.from('{"token_type":"Bearer"}'))).toThrow(
      /access_token/,
    );
    expect(() => vertexCredentials.parseResponse(Buffer.from('<html>'))).toThrow(/not JSON/);
    expect(vertexCredentials.parseError(400, fixture('token-error.json'))).toEqual({
      message: 'invalid_grant: Invalid JWT Signature.',
      type: 'invalid_grant',
      code: 'invalid_grant',
    });
    expect(vertexCredentials.parseError(503, fixture('error-429-quota.json')).code).toBe(
      'RESOURCE_EXHAUSTED',
    );
    expect(vertexCredentials.parseError(502, Buffer.from('Bad Gateway')).message).toBe(
      'upstream answered 502: Bad Gateway',
    );
  });
});
