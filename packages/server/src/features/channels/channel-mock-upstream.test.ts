// The channel actions against the project's shared fake upstream (the one e2e runs and the
// benchmark use), so the console's buttons are known to work with it.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockUpstream } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { ROLE } from '@sluice/shared';
import type { ChannelView } from '@sluice/shared';
import { testDialects } from '../../test-support/databases.js';
import { createTestApp } from '../../test-support/test-app.js';
import type { Caller, TestApp } from '../../test-support/test-app.js';

interface Body<T = unknown> {
  success: boolean;
  message: string;
  data: T;
}

describe.each(testDialects())('channel actions against the mock upstream on %s', (dialect) => {
  let t: TestApp;
  let admin: Caller;
  let mock: MockUpstream;
  let id: number;

  const call = async <T = unknown>(url: string) => {
    const res = await t.call({ method: 'GET', url, as: admin });
    return { status: res.statusCode, body: res.json<Body<T>>() };
  };

  beforeAll(async () => {
    mock = await startMockUpstream({
      models: ['gpt-4o-mini', 'text-embedding-3-small'],
      billing: { hardLimitUsd: 50, usedUsd: 7.5 },
    });
    t = await createTestApp({ dialect });
    admin = await t.createUser({ role: ROLE.admin });
    const res = await t.call({
      method: 'POST',
      url: '/api/channel/',
      as: admin,
      payload: { name: 'mock', type: 8, key: 'sk-mock', base_url: mock.url, models: 'gpt-4o-mini' },
    });
    id = res.json<Body<{ ids: number[] }>>().data.ids[0] as number;
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  it('reads the balance', async () => {
    const res = await call<number>(`/api/channel/update_balance/${id}`);
    expect(res.body.data).toBe(42.5);
    expect((await call<ChannelView>(`/api/channel/${id}`)).body.data.balance).toBe(42.5);
  });

  it('fetches the model list', async () => {
    expect((await call<string[]>(`/api/channel/fetch_models/${id}`)).body.data).toEqual([
      'gpt-4o-mini',
      'text-embedding-3-small',
    ]);
  });

  it('tests the channel', async () => {
    const res = await call<{ time: number }>(`/api/channel/test/${id}`);
    expect(res.status).toBe(200);
    expect(mock.lastRequest('/v1/chat/completions')).toBeDefined();
  });
});
