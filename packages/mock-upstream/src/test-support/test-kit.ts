// For the mock's own suites: one mock per test file, calls made with plain fetch whose body is read as
// far as it arrived, the Anthropic and Gemini requests and stream parsers their suites share, and
// service-account assertions for the Vertex token endpoint.
import { sign, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { withMock, type MockDirective } from '../directive.js';
import { startMockUpstream, type MockUpstream } from '../server.js';
import { CLOUD_PLATFORM_SCOPE, JWT_BEARER_GRANT } from '../vertex-auth.js';

type Json = Record<string, unknown>;

export interface TextReply {
  status: number;
  headers: Headers;
  text: string;
}

export interface MockCalls {
  /** Calls the mock with the suite's headers unless others are given; a body is sent as JSON. */
  call(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<TextReply>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<TextReply>;
}

/**
 * Starts one mock for the file's tests and hands it to `started` (with anything to set on it first),
 * resets it before each test and closes it after the last. Calls carry `headers` unless told otherwise.
 */
export function useMockUpstream(
  started: (mock: MockUpstream) => void,
  headers: Record<string, string> = {},
): MockCalls {
  let mock: MockUpstream | undefined;
  beforeAll(async () => {
    mock = await startMockUpstream();
    started(mock);
  });
  afterAll(() => mock?.close());
  beforeEach(() => mock?.reset());
  const call: MockCalls['call'] = async (method, path, body, sent = headers) => {
    if (!mock) throw new Error('the mock starts in beforeAll: call it from a test');
    const res = await fetch(`${mock.url}${path}`, {
      method,
      headers: body === undefined ? sent : { 'content-type': 'application/json', ...sent },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, text: await readText(res) };
  };
  return { call, post: (path, body, sent) => call('POST', path, body, sent) };
}

/** The body as far as it arrived: a cut connection makes fetch fail after what was already sent. */
async function readText(res: Response): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  try {
    for await (const chunk of res.body ?? []) text += decoder.decode(chunk, { stream: true });
  } catch {
    // The mock cut the connection: keep what came before.
  }
  return text;
}

export const json = (text: string) => JSON.parse(text) as Json;

const QUESTION = 'What is the capital of France?';
const question = (directive?: MockDirective) => (directive ? withMock(QUESTION, directive) : QUESTION);

export const ANTHROPIC_HEADERS = { 'x-api-key': 'sk-ant-test', 'anthropic-version': '2023-06-01' };

/** A Messages request: a system prompt and one question, with the directive in it when given. */
export const messagesBody = (directive?: MockDirective, extra: Json = {}) => ({
  model: 'claude-sonnet-4-5',
  max_tokens: 1024,
  system: 'Be brief.',
  messages: [{ role: 'user', content: question(directive) }],
  ...extra,
});

export interface AnthropicEvent {
  event: string;
  data: Json;
}

/** Splits Anthropic's stream strictly: each block is `event: <name>` then `data: <json>` of that type. */
export function anthropicEvents(text: string): AnthropicEvent[] {
  expect(text.endsWith('\n\n')).toBe(true);
  return text
    .slice(0, -2)
    .split('\n\n')
    .map((block) => {
      const match = /^event: ([a-z_]+)\ndata: (.+)$/.exec(block);
      expect(match, block).not.toBeNull();
      const data = JSON.parse(match?.[2] ?? '') as Json;
      expect(data.type).toBe(match?.[1]);
      return { event: match?.[1] ?? '', data };
    });
}

export const GEMINI_HEADERS = { 'x-goog-api-key': 'AIza-test' };

/** The path of the model the Gemini suites call; its methods follow a colon. */
export const GEMINI_MODEL = '/v1beta/models/gemini-2.5-flash';

/** A generateContent request: a system instruction and one question, with the directive in it when given. */
export const generateRequest = (directive?: MockDirective, extra: Json = {}) => ({
  systemInstruction: { parts: [{ text: 'Be brief.' }] },
  contents: [{ role: 'user', parts: [{ text: question(directive) }] }],
  ...extra,
});

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A service-account assertion for the mock's token endpoint, signed as Google's client libraries sign it. */
export function signedAssertion(
  mock: MockUpstream,
  account: { email: string; key: KeyObject; kid?: string },
  overrides: Json = {},
): string {
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    iss: account.email,
    scope: CLOUD_PLATFORM_SCOPE,
    aud: `${mock.url}/token`,
    iat: now,
    exp: now + 3600,
    ...overrides,
  };
  const input = `${b64({ alg: 'RS256', typ: 'JWT', kid: account.kid })}.${b64(claims)}`;
  return `${input}.${sign('RSA-SHA256', Buffer.from(input), account.key).toString('base64url')}`;
}

/** Exchanges an assertion at the mock's token endpoint, as a form post. */
export async function exchangeAssertion(mock: MockUpstream, jwt: string, grantType = JWT_BEARER_GRANT) {
  const res = await fetch(`${mock.url}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: grantType, assertion: jwt }).toString(),
  });
  return { status: res.status, body: (await res.json()) as Json };
}
