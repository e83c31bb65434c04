// Moving a one-api database (its default: a SQLite file) into Sluice on each database: its channel
// types renumbered to Sluice's and its `config` folded into the columns new-api uses, its tokens'
// model and subnet limits kept, its users signing in with their old passwords.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockUpstream } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { tokenQuota } from '@sluice/shared';
import { testDialects } from '../../test-support/databases.js';
import { createTestApp } from '../../test-support/test-app.js';
import type { TestApp } from '../../test-support/test-app.js';
import { balances, consumeLogs, listen } from '../../test-support/relay-kit.js';
import { ONE_API_TABLES } from './fixtures/gorm-schema.js';
import { oneApiRows } from './fixtures/one-api-rows.js';
import type { OneApiFacts } from './fixtures/one-api-rows.js';
import { importInto } from './fixtures/run-import.js';
import type { ImportRun } from './fixtures/run-import.js';
import { createSourceDb } from './fixtures/source-db.js';
import type { SourceDb } from './fixtures/source-db.js';

describe.each(testDialects())('moving a one-api SQLite database into Sluice on %s', (dialect) => {
  let mock: MockUpstream;
  let src: SourceDb;
  let facts: OneApiFacts;
  let t: TestApp;
  let run: ImportRun;
  let base: string;

  beforeAll(async () => {
    mock = await startMockUpstream();
    src = await createSourceDb('sqlite');
    facts = await oneApiRows(mock.url);
    await src.fill(ONE_API_TABLES, facts.rows);
    t = await createTestApp({ dialect });
    run = await importInto(t, src.location, { withLogs: true });
    base = await listen(t);
  });
  afterAll(async () => {
    await t?.close();
    await src?.dispose();
    await mock?.close();
  });

  const chat = (key: string, model: string) =>
    fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hello there world' }] }),
    });
  const report = (table: string) => run.report.tables.find((r) => r.table === table);

  it('is recognised as one-api, and its users sign in with their old passwords', async () => {
    expect(run.report.kind).toBe('one-api');
    const olduser = await t.login('olduser', facts.passwords.olduser);
    const self = (await t.call({ method: 'GET', url: '/api/user/self', as: olduser })).json().data;
    expect(self).toMatchObject({
      id: 2,
      quota: 3_000_000,
      used_quota: 250_000,
      request_count: 42,
      aff_code: 'k3Jd',
    });
    const root = await t.login('root', facts.passwords.root);
    const rootSelf = (await t.call({ method: 'GET', url: '/api/user/self', as: root })).json().data;
    expect(rootSelf).toMatchObject({ role: 100, quota: 500_000_000_000_000 });
    // one-api's root has no invitation code; Sluice needs one.
    expect(rootSelf.aff_code).toMatch(/^[A-Za-z0-9]{8}$/);
    expect(report('users')?.dropped).toEqual(['lark_id', 'oidc_id']);
  });

  it('renumbers channel types to Sluice’s and moves config into the columns Sluice reads', async () => {
    const channels = await t.db.db.selectFrom('channels').selectAll().orderBy('id').execute();
    const byId = new Map(channels.map((c) => [c.id, c]));
    expect(byId.get(1)).toMatchObject({ type: 1, auto_ban: 1, setting: '{}', other_info: '{}' });
    // Groq was its own type in one-api: an OpenAI-compatible channel at Groq's address here.
    expect(byId.get(2)).toMatchObject({ type: 1, base_url: 'https://api.groq.com/openai' });
    expect(byId.get(3)).toMatchObject({ type: 3, other: '2024-02-01' });
    expect(byId.get(4)).toMatchObject({ type: 33, key: 'AKIAEXAMPLE|aws-secret|us-east-1' });
    expect(byId.get(6)).toMatchObject({
      type: 43,
      setting: '{"system_prompt":"You are a helpful assistant."}',
    });
    // DeepL has no counterpart: left out and said so.
    expect(byId.has(5)).toBe(false);
    expect(report('channels')?.skipped).toEqual([
      { reason: 'one-api type 38 (DeepL) has no counterpart in Sluice', count: 1, ids: [5] },
    ]);
    expect(report('channels')?.dropped).toEqual([]);
    const abilities = await t.db.db.selectFrom('abilities').select(['channel_id', 'model']).execute();
    expect(abilities.map((a) => `${a.channel_id} ${a.model}`).sort()).toEqual([
      '1 gpt-3.5-turbo',
      '1 gpt-4o-mini',
      '2 llama-3.1-70b-versatile',
      '3 gpt-4',
      '4 claude-3-haiku-20240307',
      '6 deepseek-chat',
    ]);
  });

  it('relays a chat call with an imported key, billed at one-api’s prices', async () => {
    const before = await balances(t, { userId: 2, tokenId: 2, channelIds: [1] });
    const res = await chat(facts.keys.open, 'gpt-3.5-turbo');
    expect(res.status).toBe(200);
    const usage = ((await res.json()) as { usage: { prompt_tokens: number; completion_tokens: number } })
      .usage;
    expect(mock.lastRequest('/v1/chat/completions')?.headers.authorization).toBe(
      'Bearer sk-upstream-one-api',
    );
    const quota = tokenQuota(
      { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens },
      {
        billing: 'tokens',
        modelRatio: 0.75,
        completionRatio: 1.33,
        groupRatio: 1,
        cacheRatio: 1,
        cacheWriteRatio: 1.25,
      },
    );
    const after = await balances(t, { userId: 2, tokenId: 2, channelIds: [1] });
    expect(before.userQuota - after.userQuota).toBe(quota);
    expect(after.channelUsed - before.channelUsed).toBe(quota);
    const [log] = await consumeLogs(t, 2);
    expect(JSON.parse(log?.other ?? '{}')).toMatchObject({ model_ratio: 0.75, completion_ratio: 1.33 });
  });

  it('keeps a token’s allowed models and subnets', async () => {
    const token = await t.db.db
      .selectFrom('tokens')
      .selectAll()
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    expect(token).toMatchObject({
      model_limits_enabled: 1,
      model_limits: 'gpt-3.5-turbo',
      allow_ips: '192.168.1.0/24\n10.0.0.1',
      group: '',
      deleted_at: null,
    });
    // Called from 127.0.0.1, outside its subnets.
    expect((await chat(facts.keys.restricted, 'gpt-3.5-turbo')).status).toBe(403);
  });

  it('brings the logs, with one-api’s milliseconds as seconds', async () => {
    const logs = await t.db.db.selectFrom('logs').selectAll().where('id', '<=', 5).orderBy('id').execute();
    expect(logs.map((l) => [l.use_time, l.is_stream, l.channel_id, l.token_id, l.other])).toEqual([
      [2, 0, 1, 0, ''],
      [3, 1, 1, 0, ''],
      [4, 0, 1, 0, ''],
      [5, 1, 1, 0, ''],
      [6, 0, 1, 0, ''],
    ]);
    expect(report('logs')?.dropped).toEqual(['request_id', 'system_prompt_reset']);
    expect(report('quota_data')?.state).toBe('missing');
    expect(run.report.options?.unknown).toEqual(['LarkClientId', 'Theme']);
  });
});
