// One app and one mock upstream for the whole matrix on a database: a channel per vendor, every model
// priced alike, a token, and the calls made with plain fetch and read by the client format's parser.
import { expect } from 'vitest';
import type { MockUpstream, RecordedRequest } from '@sluice/mock-upstream';
import type { DialectName } from '../../db/create-db.js';
import type { TestApp } from '../test-app.js';
import { MOCK_AWS_KEY, lastConsumeLog } from '../relay-kit.js';
import { pricingOptions } from '../relay-bills.js';
import { startRelaySuite, stopAppAndMock } from '../relay-suite.js';
import { registerServiceAccount } from '../vertex-keys.js';
import type { ClientFormat } from './client.js';
import type { Scenario, SeenAnswer } from './scenario.js';
import { VENDORS, VERTEX_PROJECT } from './vendors.js';

/** Every matrix model's price; a cache read costs a quarter, a cache write a quarter more. */
export const MATRIX_PRICING = {
  billing: 'tokens' as const,
  modelRatio: 1.5,
  completionRatio: 4,
  groupRatio: 1,
  cacheRatio: 0.25,
  cacheWriteRatio: 1.25,
};

export interface Matrix {
  t: TestApp;
  mock: MockUpstream;
  /** Sends a scenario in the client's format and reads the answer strictly (status 200 required). */
  send(client: ClientFormat, model: string, scenario: Scenario, stream: boolean): Promise<SeenAnswer>;
  /** Sends and returns the raw answer, whatever its status. */
  sendRaw(client: ClientFormat, model: string, scenario: Scenario, stream: boolean): Promise<Response>;
  /** The last call the relay made to a model (token exchanges left out). */
  lastModelCall(): RecordedRequest;
  lastConsumeLog(): Promise<{
    quota: number;
    prompt_tokens: number;
    completion_tokens: number;
    model_name: string;
  }>;
  close(): Promise<void>;
}

export async function startMatrix(dialect: DialectName): Promise<Matrix> {
  const models = VENDORS.map((v) => v.model);
  const { t, mock, base, user, token } = await startRelaySuite(dialect, {
    options: { ...pricingOptions(models, MATRIX_PRICING), RetryTimes: 0 },
    quota: 500_000_000,
    channels: async (add, mock) => {
      const account = registerServiceAccount(mock, { projectId: VERTEX_PROJECT });
      const keys: Record<number, { key: string; other?: string }> = {
        1: { key: 'sk-matrix-openai' },
        3: { key: 'azure-matrix-key', other: '2024-10-21' },
        14: { key: 'sk-ant-matrix' },
        24: { key: 'AIza-matrix' },
        33: { key: MOCK_AWS_KEY },
        41: { key: account.key },
      };
      for (const type of new Set(VENDORS.map((v) => v.type))) {
        await add({
          type,
          models: VENDORS.filter((v) => v.type === type)
            .map((v) => v.model)
            .join(','),
          ...keys[type],
        });
      }
    },
  });

  const sendRaw: Matrix['sendRaw'] = (client, model, scenario, stream) => {
    const call = client.request(model, scenario, stream, token.key);
    return fetch(`${base}${call.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...call.headers },
      body: JSON.stringify(call.body),
    });
  };

  return {
    t,
    mock,
    sendRaw,
    async send(client, model, scenario, stream) {
      const res = await sendRaw(client, model, scenario, stream);
      const text = await res.text();
      expect(res.status, `${client.name} call answered: ${text.slice(0, 500)}`).toBe(200);
      const type = res.headers.get('content-type') ?? '';
      if (stream) {
        expect(type).toMatch(/^text\/event-stream/);
        return client.parseStream(text);
      }
      expect(type).toMatch(/^application\/json/);
      return client.parseAnswer(JSON.parse(text));
    },
    lastModelCall() {
      const calls = mock.requests.filter((r) => r.path !== '/token');
      const last = calls.at(-1);
      if (!last) throw new Error('the relay called no model');
      return last;
    },
    async lastConsumeLog() {
      const log = await lastConsumeLog(t, user.id);
      return {
        quota: Number(log.quota),
        prompt_tokens: Number(log.prompt_tokens),
        completion_tokens: Number(log.completion_tokens),
        model_name: log.model_name,
      };
    },
    close: () => stopAppAndMock(t, mock),
  };
}
