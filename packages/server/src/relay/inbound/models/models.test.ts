import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { startMockUpstream } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { CHANNEL_STATUS } from '@sluice/shared';
import { testDialects } from '../../../test-support/databases.js';
import { createTestApp } from '../../../test-support/test-app.js';
import type { Caller, TestApp } from '../../../test-support/test-app.js';
import { addChannel, addToken, listen, setOptions } from '../../../test-support/relay-kit.js';
import { syncAbilities } from '../../../db/abilities.js';

describe.each(testDialects())('GET /v1/models on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let base: string;
  let user: Caller;

  beforeAll(async () => {
    mock = await startMockUpstream();
    t = await createTestApp({ dialect });
    await setOptions(t, {
      GroupRatio: { default: 1, vip: 2 },
      UserUsableGroups: { default: 'Default', vip: 'VIP' },
    });
    user = await t.createUser({ quota: 1_000_000 });
    await addChannel(t, { base_url: mock.url, models: 'gpt-4o,text-embedding-3-small', group: 'default' });
    await addChannel(t, { base_url: mock.url, models: 'gpt-4o,Qwen/Qwen2.5-7B', group: 'default,vip' });
    await addChannel(t, { base_url: mock.url, models: 'vip-only', group: 'vip' });
    await addChannel(t, {
      base_url: mock.url,
      models: 'disabled-model',
      group: 'default',
      status: CHANNEL_STATUS.manuallyDisabled,
    });
    base = await listen(t);
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  const get = (path: string, key: string) =>
    fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } });
  const ids = async (key: string) => {
    const res = await get('/v1/models', key);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { object: string; data: { id: string; object: string }[] };
    expect(body.object).toBe('list');
    return body.data.map((m) => m.id);
  };

  it("lists the enabled models of the token's group, once each, in the OpenAI shape", async () => {
    const token = await addToken(t, user.id);
    expect(await ids(token.key)).toEqual(['Qwen/Qwen2.5-7B', 'gpt-4o', 'text-embedding-3-small']);
    const vip = await addToken(t, user.id, { group: 'vip' });
    expect(await ids(vip.key)).toEqual(['Qwen/Qwen2.5-7B', 'gpt-4o', 'vip-only']);

    const one = await get('/v1/models/Qwen/Qwen2.5-7B', token.key);
    expect(await one.json()).toEqual({
      id: 'Qwen/Qwen2.5-7B',
      object: 'model',
      created: 1626777600,
      owned_by: 'openai',
    });
    const missing = await get('/v1/models/vip-only', token.key);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: 'model_not_found' } });
  });

  it('narrows the list to the model limits of a limited token', async () => {
    const limited = await addToken(t, user.id, {
      model_limits_enabled: 1,
      model_limits: 'gpt-4o,vip-only',
    });
    expect(await ids(limited.key)).toEqual(['gpt-4o']);
    expect((await get('/v1/models/text-embedding-3-small', limited.key)).status).toBe(404);
  });

  it('follows channel changes', async () => {
    const token = await addToken(t, user.id);
    const id = await addChannel(t, { base_url: mock.url, models: 'brand-new', group: 'default' });
    expect(await ids(token.key)).toContain('brand-new');
    await t.db.db
      .updateTable('channels')
      .set({ status: CHANNEL_STATUS.manuallyDisabled })
      .where('id', '=', id)
      .execute();
    const row = await t.db.db
      .selectFrom('channels')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    await syncAbilities(t.db.db, row);
    t.app.ctx.bus.publish('channels');
    expect(await ids(token.key)).not.toContain('brand-new');
  });

  it('refuses a missing or unknown key with 401', async () => {
    expect((await fetch(`${base}/v1/models`)).status).toBe(401);
    const res = await get('/v1/models', `sk-${'z'.repeat(48)}`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { code: 'invalid_api_key' } });
  });

  it('works with the official openai client', async () => {
    const token = await addToken(t, user.id);
    const client = new OpenAI({ apiKey: token.key, baseURL: `${base}/v1`, maxRetries: 0 });
    const listed: string[] = [];
    for await (const model of client.models.list()) listed.push(model.id);
    expect(listed).toEqual(['Qwen/Qwen2.5-7B', 'gpt-4o', 'text-embedding-3-small']);
    expect((await client.models.retrieve('gpt-4o')).owned_by).toBe('openai');
  });
});
