import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { MockUpstream } from './server.js';
import { exchangeAssertion, signedAssertion, useMockUpstream } from './test-support/test-kit.js';
import { expectedAnthropicUsage } from './usage-anthropic.js';
import { expectedGeminiUsage } from './usage-gemini.js';
import { JWT_BEARER_GRANT } from './vertex-auth.js';

const EMAIL = 'relay@sluice-test.iam.gserviceaccount.com';
const PROJECT = 'sluice-test';
const KID = 'key-id-1';
const own = generateKeyPairSync('rsa', { modulusLength: 2048 });
const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });

let mock: MockUpstream;
useMockUpstream((started) => {
  mock = started;
  mock.setVertexServiceAccount({
    clientEmail: EMAIL,
    publicKeyPem: own.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    projectId: PROJECT,
    privateKeyId: KID,
  });
  mock.setVertexServiceAccount({
    clientEmail: 'short@sluice-test.iam.gserviceaccount.com',
    publicKeyPem: own.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    projectId: PROJECT,
    tokenLifetimeSeconds: 0,
  });
});

/** The main account's assertion, or one with other claims, key or kid. */
const assertion = (overrides: Record<string, unknown> = {}, key = own.privateKey, kid = KID): string =>
  signedAssertion(mock, { email: EMAIL, key, kid }, overrides);

const exchange = (jwt: string, grantType?: string) => exchangeAssertion(mock, jwt, grantType);

async function token(claims: Record<string, unknown> = {}): Promise<string> {
  const answer = await exchange(assertion(claims));
  expect(answer.status).toBe(200);
  return answer.body.access_token as string;
}

const GEMINI = `/v1/projects/${PROJECT}/locations/us-central1/publishers/google/models/gemini-2.5-flash`;
const CLAUDE = `/v1/projects/${PROJECT}/locations/europe-west1/publishers/anthropic/models/claude-sonnet-4`;

async function post(path: string, body: unknown, bearer?: string) {
  const res = await fetch(`${mock.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

const geminiBody = { contents: [{ role: 'user', parts: [{ text: 'hello vertex' }] }] };
const claudeBody = {
  anthropic_version: 'vertex-2023-10-16',
  max_tokens: 50,
  messages: [{ role: 'user', content: 'hello claude on vertex' }],
};

describe('the Vertex token endpoint', () => {
  it('issues an access token for a JWT signed with the account key', async () => {
    const answer = await exchange(assertion());
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ expires_in: 3599, token_type: 'Bearer' });
    expect(answer.body.access_token).toMatch(/^ya29\./);
    expect(mock.lastRequest('/token')?.body).toMatchObject({ grant_type: JWT_BEARER_GRANT });
  });

  it('refuses what Google refuses, in the OAuth error shape', async () => {
    const cases: [string, number, string, RegExp][] = [
      ['another key', 400, assertion({}, stranger.privateKey), /Invalid JWT Signature/],
      ['another kid', 400, assertion({}, own.privateKey, 'other-kid'), /Invalid JWT Signature/],
      ['unknown account', 400, assertion({ iss: 'nobody@x.iam' }), /account not found/],
      ['wrong audience', 400, assertion({ aud: 'https://oauth2.googleapis.com/token' }), /audience/],
      ['a stale assertion', 400, assertion({ iat: 1_000_000, exp: 1_003_600 }), /short-lived/],
      ['a too long assertion', 400, assertion({ exp: Math.floor(Date.now() / 1000) + 7200 }), /short-lived/],
      ['no cloud-platform scope', 400, assertion({ scope: 'email' }), /scope/],
      ['not a JWT', 400, 'not-a-jwt', /Invalid JWT/],
    ];
    for (const [what, status, jwt, description] of cases) {
      const answer = await exchange(jwt);
      expect(answer.status, what).toBe(status);
      expect(answer.body.error, what).toMatch(/^invalid_(grant|scope)$/);
      expect(answer.body.error_description, what).toMatch(description);
    }
    expect((await exchange(assertion(), 'client_credentials')).body.error).toBe('unsupported_grant_type');
  });
});

describe('Vertex model calls', () => {
  it('answers Gemini models in the Gemini wire for a token the mock issued', async () => {
    const res = await post(`${GEMINI}:generateContent`, geminiBody, await token());
    expect(res.status).toBe(200);
    const answer = JSON.parse(res.text) as { usageMetadata: unknown; modelVersion: string };
    expect(answer.usageMetadata).toEqual(expectedGeminiUsage(geminiBody));
    expect(answer.modelVersion).toBe('gemini-2.5-flash');
    const stream = await post(`${GEMINI}:streamGenerateContent?alt=sse`, geminiBody, await token());
    expect(stream.text.startsWith('data: {')).toBe(true);
  });

  it('refuses a missing, unknown or expired token with 401 UNAUTHENTICATED', async () => {
    const expired = (await exchange(assertion({ iss: 'short@sluice-test.iam.gserviceaccount.com' }))).body
      .access_token as string;
    for (const [bearer, reason] of [
      [undefined, 'CREDENTIALS_MISSING'],
      ['ya29.made-up', 'ACCESS_TOKEN_TYPE_UNSUPPORTED'],
      [expired, 'ACCESS_TOKEN_EXPIRED'],
    ] as const) {
      const res = await post(`${GEMINI}:generateContent`, geminiBody, bearer);
      expect(res.status).toBe(401);
      const error = (JSON.parse(res.text) as { error: { status: string; details: { reason: string }[] } })
        .error;
      expect(error.status).toBe('UNAUTHENTICATED');
      expect(error.details[0]?.reason).toBe(reason);
    }
  });

  it('refuses another project and an unknown location', async () => {
    const bearer = await token();
    const other = await post(
      GEMINI.replace(PROJECT, 'someone-else') + ':generateContent',
      geminiBody,
      bearer,
    );
    expect(other.status).toBe(403);
    expect(other.text).toContain('PERMISSION_DENIED');
    const nowhere = await post(
      GEMINI.replace('us-central1', 'moon') + ':generateContent',
      geminiBody,
      bearer,
    );
    expect(nowhere.status).toBe(400);
  });

  it('answers Claude models in the Anthropic wire, model from the URL', async () => {
    const bearer = await token();
    const res = await post(`${CLAUDE}:rawPredict`, claudeBody, bearer);
    expect(res.status).toBe(200);
    const message = JSON.parse(res.text) as { model: string; usage: Record<string, unknown> };
    expect(message.model).toBe('claude-sonnet-4');
    expect(message.usage).toMatchObject(expectedAnthropicUsage({ ...claudeBody, model: 'claude-sonnet-4' }));
    expect(mock.lastRequest()?.body).toEqual(claudeBody);
    const stream = await post(`${CLAUDE}:streamRawPredict`, { ...claudeBody, stream: true }, bearer);
    expect(stream.status).toBe(200);
    expect(stream.text.startsWith('event: message_start')).toBe(true);
    expect(stream.text).toContain('event: message_stop');
  });

  it("refuses Claude bodies Vertex refuses, in Anthropic's error shape", async () => {
    const bearer = await token();
    const { anthropic_version: _version, ...unversioned } = claudeBody;
    const cases: [string, unknown, RegExp][] = [
      [':rawPredict', { ...claudeBody, model: 'claude-sonnet-4' }, /model: Extra inputs/],
      [':rawPredict', unversioned, /anthropic_version: Field required/],
      [':rawPredict', { ...claudeBody, anthropic_version: '2023-06-01' }, /vertex-2023-10-16/],
      [':rawPredict', { ...claudeBody, stream: true }, /stream/],
      [':streamRawPredict', claudeBody, /stream/],
      [':rawPredict', { ...claudeBody, max_tokens: undefined }, /max_tokens: Field required/],
    ];
    for (const [method, body, message] of cases) {
      const res = await post(`${CLAUDE}${method}`, body, bearer);
      expect(res.status).toBe(400);
      const error = JSON.parse(res.text) as { type: string; error: { type: string; message: string } };
      expect(error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
      expect(error.error.message).toMatch(message);
    }
  });

  it('keeps issued tokens across reset and scopes behaviours by the account email', async () => {
    const bearer = await token();
    mock.reset();
    mock.setBehaviour({ status: 429 }, { key: EMAIL });
    const limited = await post(`${GEMINI}:generateContent`, geminiBody, bearer);
    expect(limited.status).toBe(429);
    expect(limited.text).toContain('RESOURCE_EXHAUSTED');
  });
});
