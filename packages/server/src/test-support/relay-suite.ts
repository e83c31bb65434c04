// One app and one mock upstream for a suite; for a relay suite also its options, a user and a token with
// quota to spare, its channels (on the mock unless told otherwise), and a listening socket for the SDKs.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import type { GenerateContentResponse } from '@google/genai';
import OpenAI from 'openai';
import type { Insertable } from 'kysely';
import { startMockUpstream } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import type { DialectName } from '../db/create-db.js';
import type { ChannelsTable } from '../db/tables.js';
import { createTestApp } from './test-app.js';
import type { Caller, TestApp } from './test-app.js';
import { addChannel, addToken, listen, setOptions } from './relay-kit.js';
import type { TestToken } from './relay-kit.js';

export interface RelaySuite {
  t: TestApp;
  mock: MockUpstream;
  /** Where the app listens, e.g. http://127.0.0.1:40123. */
  base: string;
  user: Caller;
  token: TestToken;
}

/** Adds a channel, with the mock as its base URL unless the fields name another; returns its id. */
export type AddChannel = (fields: Partial<Insertable<ChannelsTable>>) => Promise<number>;

export interface RelaySuiteSetup {
  options: Parameters<typeof setOptions>[1];
  /** The user's quota and its token's; 50,000,000 unless given. */
  quota?: number;
  channels(add: AddChannel, mock: MockUpstream): Promise<void>;
}

export async function startRelaySuite(dialect: DialectName, setup: RelaySuiteSetup): Promise<RelaySuite> {
  const { t, mock } = await startAppAndMock(dialect);
  try {
    await setOptions(t, setup.options);
    const quota = setup.quota ?? 50_000_000;
    const user = await t.createUser({ quota });
    const token = await addToken(t, user.id, { remain_quota: quota });
    await setup.channels((fields) => addChannel(t, { base_url: mock.url, ...fields }), mock);
    return { t, mock, base: await listen(t), user, token };
  } catch (error) {
    // The suite's own afterAll sees neither when the set-up fails half-way.
    await stopAppAndMock(t, mock);
    throw error;
  }
}

/** A test app and a mock upstream, both started or, when one fails, neither. */
export async function startAppAndMock(dialect: DialectName): Promise<{ t: TestApp; mock: MockUpstream }> {
  const mock = await startMockUpstream();
  try {
    return { t: await createTestApp({ dialect }), mock };
  } catch (error) {
    await mock.close();
    throw error;
  }
}

/** Closes the app and the mock; either is missing when a set-up failed. */
export async function stopAppAndMock(t: TestApp | undefined, mock: MockUpstream | undefined): Promise<void> {
  await t?.close();
  await mock?.close();
}

// Retries off: a retried call would hide the fault or the bill a test is looking at.
export const anthropicSdk = (base: string, apiKey: string): Anthropic =>
  new Anthropic({ apiKey, baseURL: base, maxRetries: 0 });

export const openAiSdk = (base: string, apiKey: string): OpenAI =>
  new OpenAI({ apiKey, baseURL: `${base}/v1`, maxRetries: 0 });

export const geminiSdk = (base: string, apiKey: string): GoogleGenAI =>
  new GoogleGenAI({ apiKey, httpOptions: { baseUrl: base } });

/** What an OpenAI chat stream carried: its text, its last finish reason and usage, and how many chunks had usage. */
export async function readChatStream(stream: AsyncIterable<OpenAI.ChatCompletionChunk>) {
  let text = '';
  let finish: string | null | undefined;
  let usage: OpenAI.CompletionUsage | null | undefined;
  let usageChunks = 0;
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta.content ?? '';
    finish = chunk.choices[0]?.finish_reason ?? finish;
    usage = chunk.usage ?? usage;
    if (chunk.usage) usageChunks += 1;
  }
  return { text, finish, usage, usageChunks };
}

/** What a Gemini stream carried: its text, its last finish reason and usage, and its last chunk. */
export async function readGeminiStream(stream: AsyncIterable<GenerateContentResponse>) {
  let text = '';
  let finish: string | undefined;
  let usage: GenerateContentResponse['usageMetadata'];
  let last: GenerateContentResponse | undefined;
  for await (const chunk of stream) {
    text += chunk.text ?? '';
    finish = chunk.candidates?.[0]?.finishReason ?? finish;
    usage = chunk.usageMetadata ?? usage;
    last = chunk;
  }
  return { text, finish, usage, last };
}
