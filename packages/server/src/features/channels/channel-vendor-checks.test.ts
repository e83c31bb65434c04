// The console's channel test and balance query for every channel type the relay serves, over real HTTP
// against the mock upstream: the test is one real chat call in the vendor's own shape (its URL, its
// authentication, its body), its time is stored on the channel, a refused key is reported without the
// key or the upstream's address; a vendor without a balance API gets a clear refusal, never a 500.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MOCK_AWS_CREDENTIALS } from '@sluice/mock-upstream';
import type { MockUpstream, RecordedRequest } from '@sluice/mock-upstream';
import { MSG, ROLE } from '@sluice/shared';
import type { ChannelView } from '@sluice/shared';
import { testDialects } from '../../test-support/databases.js';
import { expectRefusal } from '../../test-support/test-app.js';
import type { Caller, TestApp } from '../../test-support/test-app.js';
import { MOCK_AWS_KEY, addChannel } from '../../test-support/relay-kit.js';
import { startAppAndMock, stopAppAndMock } from '../../test-support/relay-suite.js';
import { registerServiceAccount, testServiceAccount } from '../../test-support/vertex-keys.js';
import type { TestServiceAccount } from '../../test-support/vertex-keys.js';

interface Body<T = unknown> {
  success: boolean;
  message: string;
  data: T;
  time?: number;
}

type Json = Record<string, unknown>;

const PROJECT = 'checks-project';
const OPENAI_COMPATIBLE = [1, 4, 8, 19, 25, 31, 40, 42];
/** The mock waits this long before answering: the stored response time must show it. */
const DELAY_MS = 40;

interface VendorCase {
  name: string;
  type: number;
  model: string;
  key: string;
  other?: string;
  /** The path the chat call must reach, and what the vendor's request must look like there. */
  path: string;
  expectCall(request: RecordedRequest, key: string): void;
}

const body = (request: RecordedRequest): Json => request.body as Json;

describe.each(testDialects())('channel tests and balances per vendor on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let admin: Caller;
  let account: TestServiceAccount;

  const get = async <T>(url: string) => {
    const res = await t.call({ method: 'GET', url, as: admin });
    return { res, body: res.json<Body<T>>() };
  };
  const view = async (id: number) => (await get<ChannelView>(`/api/channel/${id}`)).body.data;

  const vendors = (): VendorCase[] => [
    ...OPENAI_COMPATIBLE.map((type): VendorCase => ({
      name: `OpenAI-compatible type ${type}`,
      type,
      model: 'gpt-4o-mini',
      key: `sk-check-${type}`,
      path: '/v1/chat/completions',
      expectCall(request, key) {
        expect(request.headers.authorization).toBe(`Bearer ${key}`);
        expect(body(request)).toMatchObject({ model: 'gpt-4o-mini', messages: [{ role: 'user' }] });
      },
    })),
    {
      name: 'Azure OpenAI',
      type: 3,
      model: 'gpt-4o-mini',
      key: 'azure-check-key',
      path: '/openai/deployments/gpt-4o-mini/chat/completions',
      expectCall(request, key) {
        expect(request.headers['api-key']).toBe(key);
        expect(request.query['api-version']).toBe('2023-06-01-preview');
      },
    },
    {
      name: 'Anthropic',
      type: 14,
      model: 'claude-3-haiku-20240307',
      key: 'sk-ant-check-key',
      path: '/v1/messages',
      expectCall(request, key) {
        expect(request.headers['x-api-key']).toBe(key);
        expect(request.headers['anthropic-version']).toBe('2023-06-01');
        // Converted from the probe's OpenAI body: Anthropic requires max_tokens.
        expect(body(request)).toMatchObject({
          model: 'claude-3-haiku-20240307',
          max_tokens: expect.any(Number),
          messages: [{ role: 'user' }],
        });
      },
    },
    {
      name: 'Gemini',
      type: 24,
      model: 'gemini-2.5-flash',
      key: 'AIza-check-key',
      path: '/v1beta/models/gemini-2.5-flash:generateContent',
      expectCall(request, key) {
        expect(request.headers['x-goog-api-key']).toBe(key);
        expect(body(request)).toMatchObject({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
      },
    },
    {
      name: 'AWS Bedrock',
      type: 33,
      model: 'claude-3-haiku-20240307',
      key: MOCK_AWS_KEY,
      path: `/model/${encodeURIComponent('anthropic.claude-3-haiku-20240307-v1:0')}/invoke`,
      expectCall(request) {
        expect(request.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAMOCKMOCKMOCK\//);
        expect(body(request)).toMatchObject({
          anthropic_version: 'bedrock-2023-05-31',
          messages: [{ role: 'user' }],
        });
      },
    },
    {
      name: 'Vertex AI, a Gemini model',
      type: 41,
      model: 'gemini-2.5-flash',
      key: account.key,
      path: `/v1/projects/${PROJECT}/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent`,
      expectCall(request) {
        expect(request.headers.authorization).toMatch(/^Bearer ya29\.mock-/);
        expect(body(request)).toMatchObject({ contents: [{ role: 'user' }] });
      },
    },
    {
      name: 'Vertex AI, a Claude model',
      type: 41,
      model: 'claude-3-5-haiku@20241022',
      key: account.key,
      path: `/v1/projects/${PROJECT}/locations/europe-west1/publishers/anthropic/models/claude-3-5-haiku@20241022:rawPredict`,
      expectCall(request) {
        expect(request.headers.authorization).toMatch(/^Bearer ya29\.mock-/);
        expect(body(request)).toMatchObject({
          anthropic_version: 'vertex-2023-10-16',
          messages: [{ role: 'user' }],
        });
      },
    },
  ];

  beforeAll(async () => {
    ({ t, mock } = await startAppAndMock(dialect));
    admin = await t.createUser({ role: ROLE.admin });
    account = registerServiceAccount(mock, { projectId: PROJECT });
  });
  afterAll(() => stopAppAndMock(t, mock));
  beforeEach(() => mock.reset());

  it("tests each vendor with one chat call in the vendor's shape and stores its response time", async () => {
    for (const vendor of vendors()) {
      mock.reset();
      mock.setBehaviour({ delay_ms: DELAY_MS });
      const id = await addChannel(t, {
        type: vendor.type,
        base_url: mock.url,
        key: vendor.key,
        models: vendor.model,
        other: vendor.other ?? '',
      });
      const res = await get(`/api/channel/test/${id}`);
      expect(res.body, vendor.name).toMatchObject({ success: true, message: '' });
      expect(res.body.time, vendor.name).toBeGreaterThanOrEqual(DELAY_MS / 1000);
      const call = mock.requests.find((r) => r.path === vendor.path);
      expect(call, `${vendor.name}: ${mock.requests.map((r) => r.path).join(', ')}`).toBeDefined();
      if (call) vendor.expectCall(call, vendor.key);
      const stored = await view(id);
      expect(stored.response_time, vendor.name).toBeGreaterThanOrEqual(DELAY_MS);
      expect(stored.test_time, vendor.name).toBeGreaterThan(0);
    }
  });

  it('reports a refused key without the key or the upstream address, and still stores the time', async () => {
    const refused: [number, string][] = [
      [1, 'bad-openai-check-key'],
      [3, 'bad-azure-check-key'],
      [14, 'bad-anthropic-check-key'],
      [24, 'bad-gemini-check-key'],
      [33, 'bad-bedrock-check-key|us-east-1'],
      [33, `${MOCK_AWS_CREDENTIALS.accessKeyId}|wrong-secret-value|us-east-1`],
    ];
    for (const [type, key] of refused) {
      const id = await addChannel(t, { type, base_url: mock.url, key, auto_ban: 0 });
      const res = await get(`/api/channel/test/${id}`);
      expectRefusal(res.res);
      for (const secret of [key.split('|')[0] ?? key, 'wrong-secret-value', mock.url, '127.0.0.1']) {
        expect(res.body.message, `type ${type}`).not.toContain(secret);
      }
      expect(res.body.message.length, `type ${type}`).toBeGreaterThan(0);
      expect((await view(id)).test_time, `type ${type}`).toBeGreaterThan(0);
    }
    // Vertex: an account Google does not know is refused at the token endpoint.
    const stranger = testServiceAccount(`${mock.url}/token`, { projectId: PROJECT });
    const vertex = await addChannel(t, {
      type: 41,
      base_url: mock.url,
      key: stranger.key,
      models: 'gemini-2.5-flash',
    });
    const res = await get(`/api/channel/test/${vertex}`);
    expectRefusal(res.res, /token endpoint refused the channel's key \(400\): invalid_grant/);
    expect(res.body.message).not.toContain(mock.url);
  });

  it('refuses the balance of a vendor that reports none, clearly and without calling it', async () => {
    for (const type of [3, 4, 14, 19, 24, 31, 33, 41, 42]) {
      const key = type === 41 ? account.key : type === 33 ? MOCK_AWS_KEY : `key-${type}`;
      const id = await addChannel(t, { type, base_url: mock.url, key });
      expectRefusal((await get(`/api/channel/update_balance/${id}`)).res, MSG.balanceNotSupported);
      expect((await view(id)).balance_updated_time, `type ${type}`).toBe(0);
    }
    expect(mock.requests).toEqual([]);
  });

  it("reads the balance of the OpenAI-style vendors that report one, from the mock's billing", async () => {
    for (const type of [1, 8]) {
      const id = await addChannel(t, { type, base_url: mock.url, key: `sk-balance-${type}` });
      const res = await get<number>(`/api/channel/update_balance/${id}`);
      expect(res.body, `type ${type}`).toMatchObject({ success: true, data: 87.66 });
      expect((await view(id)).balance).toBe(87.66);
    }
  });
});
