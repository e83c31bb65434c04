// "Fetch models" for every channel type the relay serves, over real HTTP against the mock upstream:
// each vendor's own list (OpenAI-compatible /v1/models, Anthropic's and Gemini's paged lists, Azure's
// deployable models, Bedrock's foundation models signed with SigV4, Vertex's Model Garden with the
// service account's token), for stored channels and for the create form, and refusals that show
// neither the key nor the upstream's address.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_MODELS, MOCK_AWS_CREDENTIALS } from '@sluice/mock-upstream';
import type { MockUpstream, RecordedRequest } from '@sluice/mock-upstream';
import { MSG, ROLE, channelTypeModels } from '@sluice/shared';
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
}

const OPENAI_COMPATIBLE = [1, 4, 8, 19, 25, 31, 40, 42];
/** More than one page of Anthropic's (1000) or Gemini's (1000) largest page. */
const MANY = Array.from({ length: 1003 }, (_, i) => `model-${String(i).padStart(4, '0')}`);

describe.each(testDialects())('fetching a channel upstream model list on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let admin: Caller;
  let account: TestServiceAccount;

  const stored = async (id: number) => {
    const res = await t.call({ method: 'GET', url: `/api/channel/fetch_models/${id}`, as: admin });
    return { res, body: res.json<Body<string[]>>() };
  };
  const fromForm = async (payload: object) => {
    const res = await t.call({ method: 'POST', url: '/api/channel/fetch_models', as: admin, payload });
    return { res, body: res.json<Body<string[]>>() };
  };
  const sent = (path: string): RecordedRequest[] => mock.requests.filter((r) => r.path === path);
  /** A refusal an admin reads: never the key, nor the address the upstream was reached at. */
  const expectRedacted = (message: string, key: string) => {
    expect(message.startsWith(`${MSG.fetchModelsFailed}: `), message).toBe(true);
    for (const secret of [key, mock.url, '127.0.0.1']) expect(message).not.toContain(secret);
  };

  beforeAll(async () => {
    ({ t, mock } = await startAppAndMock(dialect));
    admin = await t.createUser({ role: ROLE.admin });
    account = registerServiceAccount(mock, { projectId: 'lists-project' });
  });
  afterAll(() => stopAppAndMock(t, mock));
  beforeEach(() => mock.reset());

  it('asks an OpenAI-compatible upstream at /v1/models with the key as a bearer token', async () => {
    for (const type of OPENAI_COMPATIBLE) {
      mock.reset();
      const key = `sk-type-${type}`;
      const id = await addChannel(t, { type, base_url: mock.url, key });
      expect((await stored(id)).body, `type ${type}`).toEqual({
        success: true,
        message: '',
        data: DEFAULT_MODELS,
      });
      expect(mock.requests.map((r) => [r.method, r.path, r.headers.authorization])).toEqual([
        ['GET', '/v1/models', `Bearer ${key}`],
      ]);
    }
  });

  it("follows Anthropic's pages (has_more, last_id → after_id) with x-api-key and anthropic-version", async () => {
    mock.setAnthropicModels(MANY);
    const id = await addChannel(t, { type: 14, base_url: mock.url, key: 'sk-ant-lists' });
    expect((await stored(id)).body).toEqual({ success: true, message: '', data: MANY });
    const pages = sent('/v1/models');
    expect(pages.map((r) => r.query)).toEqual([{ limit: '1000' }, { limit: '1000', after_id: MANY[999] }]);
    for (const page of pages) {
      expect(page.headers['x-api-key']).toBe('sk-ant-lists');
      expect(page.headers['anthropic-version']).toBe('2023-06-01');
    }
    // The create form asks the same way with the key it holds.
    const form = await fromForm({ type: 14, base_url: mock.url, key: 'sk-ant-form\nsk-ant-second' });
    expect(form.body.data).toEqual(MANY);
    expect(sent('/v1/models').at(-1)?.headers['x-api-key']).toBe('sk-ant-form');
  });

  it("follows Gemini's nextPageToken and keeps the models a channel can call, without models/", async () => {
    mock.setGeminiModels([...MANY, 'gemini-embedding-001']);
    const id = await addChannel(t, { type: 24, base_url: mock.url, key: 'AIza-lists' });
    const { body } = await stored(id);
    expect(body.data).toEqual([...MANY, 'gemini-embedding-001']);
    const pages = sent('/v1beta/models');
    expect(pages).toHaveLength(2);
    expect(pages[0]?.query).toEqual({ pageSize: '1000' });
    expect(pages[1]?.query.pageToken).toEqual(expect.any(String));
    expect(pages.every((r) => r.headers['x-goog-api-key'] === 'AIza-lists')).toBe(true);
  });

  it("lists an Azure resource's deployable models with its api-key, and says how deployments are named", async () => {
    const id = await addChannel(t, {
      type: 3,
      base_url: mock.url,
      key: 'azure-key-lists',
      other: '2024-02-01',
    });
    const { body } = await stored(id);
    // Azure also lists a model past its inference end date; it can serve no call.
    expect(body).toMatchObject({ success: true, data: DEFAULT_MODELS });
    expect(body.message).toMatch(/deployment/);
    expect(sent('/openai/models')).toMatchObject([
      { method: 'GET', query: { 'api-version': '2024-10-21' }, headers: { 'api-key': 'azure-key-lists' } },
    ]);
    const noEndpoint = await addChannel(t, { type: 3, base_url: '', key: 'azure-key-lists' });
    expectRefusal((await stored(noEndpoint)).res, MSG.channelNoBaseUrl);
  });

  it("lists Bedrock's Anthropic models, signed with SigV4 or sent with an API key, by Anthropic name", async () => {
    const expected = [
      'claude-3-haiku-20240307',
      'claude-3-5-sonnet-20241022',
      'claude-sonnet-4-20250514',
      // Not in the built-in map: answered as Bedrock's id.
      'anthropic.claude-instant-v1',
    ];
    const signed = await addChannel(t, { type: 33, base_url: mock.url, key: MOCK_AWS_KEY });
    expect((await stored(signed)).body).toEqual({ success: true, message: '', data: expected });
    const call = sent('/foundation-models')[0];
    expect(call?.query).toEqual({ byProvider: 'anthropic' });
    expect(call?.headers.authorization).toMatch(
      new RegExp(
        `^AWS4-HMAC-SHA256 Credential=${MOCK_AWS_CREDENTIALS.accessKeyId}/\\d{8}/us-east-1/bedrock/aws4_request`,
      ),
    );
    const apiKey = await addChannel(t, {
      type: 33,
      base_url: mock.url,
      key: 'ABSK-bedrock-api-key|us-west-2',
    });
    expect((await stored(apiKey)).body.data).toEqual(expected);
    expect(sent('/foundation-models')[1]?.headers.authorization).toBe('Bearer ABSK-bedrock-api-key');
  });

  it("lists Vertex's Gemini models with the service account's token, and adds the catalog's Claude names", async () => {
    const id = await addChannel(t, { type: 41, base_url: mock.url, key: account.key });
    const { body } = await stored(id);
    const claude = channelTypeModels(41).filter((m) => m.startsWith('claude'));
    expect(body.data).toEqual(['gemini-2.5-flash', 'gemini-2.5-pro', 'gemini-2.0-flash', ...claude]);
    expect(body.message).toMatch(/Claude/);
    expect(sent('/token')).toHaveLength(1);
    const list = sent('/v1beta1/publishers/google/models');
    expect(list).toMatchObject([{ method: 'GET', query: { pageSize: '100' } }]);
    expect(list[0]?.headers.authorization).toMatch(/^Bearer ya29\.mock-/);
    // The create form holds the key file as pasted: pretty-printed JSON over many lines.
    const form = await fromForm({ type: 41, base_url: mock.url, key: JSON.stringify(account.file, null, 2) });
    expect(form.body.data).toEqual(body.data);
  });

  it('follows pages up to a bound, and says when the list was cut there', async () => {
    // Vertex's pages hold 100 models: 2100 Gemini models need 22 pages.
    const gemini = Array.from({ length: 2100 }, (_, i) => `gemini-bound-${i}`);
    mock.setGeminiModels(gemini);
    const id = await addChannel(t, { type: 41, base_url: mock.url, key: account.key });
    const { body } = await stored(id);
    expect(body.success).toBe(true);
    expect(body.data.slice(0, 2000)).toEqual(gemini.slice(0, 2000));
    expect(body.data).not.toContain('gemini-bound-2000');
    expect(body.message).toMatch(/cut after 20 pages/);
    expect(sent('/v1beta1/publishers/google/models')).toHaveLength(20);
  });

  describe('refusals', () => {
    it('names the reason of a refused key without the key or the upstream address', async () => {
      const refused: [number, string][] = [
        [1, 'bad-openai-key-0001'],
        [14, 'bad-anthropic-key-0001'],
        [24, 'bad-gemini-key-0001'],
        [3, 'bad-azure-key-0001'],
        [33, 'bad-bedrock-api-key-0001|us-east-1'],
      ];
      for (const [type, key] of refused) {
        const id = await addChannel(t, { type, base_url: mock.url, key });
        const { res, body } = await stored(id);
        expectRefusal(res, /^failed to get model list: upstream answered HTTP (400|401|403): /);
        expectRedacted(body.message, key.split('|')[0] ?? key);
      }
    });

    it('redacts what an upstream echoes: the key, its own addresses', async () => {
      const key = 'sk-ant-echoed-secret-123456';
      const id = await addChannel(t, { type: 14, base_url: mock.url, key });
      mock.enqueue({
        status: 403,
        error: { message: `key ${key} may not list models at ${mock.url}/v1/models (10.0.0.5)` },
      });
      const { res, body } = await stored(id);
      expectRefusal(res, /may not list models/);
      expectRedacted(body.message, key);
      expect(body.message).not.toContain('10.0.0.5');
    });

    it('refuses a Bedrock key that cannot sign, and a Vertex key the token endpoint refuses', async () => {
      const wrongSecret = `${MOCK_AWS_CREDENTIALS.accessKeyId}|not-the-secret|us-east-1`;
      const signed = await addChannel(t, { type: 33, base_url: mock.url, key: wrongSecret });
      const bad = await stored(signed);
      expectRefusal(
        bad.res,
        /upstream answered HTTP 403: The request signature we calculated does not match/,
      );
      expectRedacted(bad.body.message, 'not-the-secret');
      const unusable = await addChannel(t, { type: 33, base_url: mock.url, key: 'only-one-part' });
      expectRefusal((await stored(unusable)).res, /AccessKeyId\|SecretAccessKey\|Region/);
      // An account the mock does not know: Google's token endpoint answers invalid_grant.
      const stranger = testServiceAccount(`${mock.url}/token`, { projectId: 'lists-project' });
      const vertex = await addChannel(t, { type: 41, base_url: mock.url, key: stranger.key });
      const refused = await stored(vertex);
      expectRefusal(refused.res, /token endpoint refused the channel's key \(400\): invalid_grant/);
      expectRedacted(refused.body.message, stranger.key);
      expect(sent('/v1beta1/publishers/google/models')).toEqual([]);
    });

    it('refuses a type without a list, an unreachable upstream and an answer that is not a list', async () => {
      expectRefusal(
        (await fromForm({ type: 15, base_url: mock.url, key: 'api|secret' })).res,
        MSG.onlyOpenAIFormat,
      );
      const closed = await fromForm({ type: 14, base_url: 'http://127.0.0.1:1', key: 'sk-ant-x' });
      expectRefusal(closed.res, /^failed to get model list: the connection to the upstream failed/);
      expectRedacted(closed.body.message, 'sk-ant-x');
      mock.enqueue({ malformed: true });
      const garbled = await fromForm({ type: 24, base_url: mock.url, key: 'AIza-garbled' });
      expectRefusal(
        garbled.res,
        `${MSG.fetchModelsFailed}: upstream answered with something that is not JSON`,
      );
    });
  });
});
