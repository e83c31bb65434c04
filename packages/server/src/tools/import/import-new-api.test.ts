// Moving a new-api database into Sluice, the source built with new-api's own tables on the same kind of
// database as the target: people sign in with their old passwords, their keys relay through the
// imported channels at the imported prices, logs come with --with-logs, and running it again changes
// nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockUpstream } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { LOG_TYPE, tokenQuota } from '@sluice/shared';
import { testDialects } from '../../test-support/databases.js';
import { createTestApp, expectRefusal } from '../../test-support/test-app.js';
import type { TestApp } from '../../test-support/test-app.js';
import { balances, consumeLogs, listen } from '../../test-support/relay-kit.js';
import { NEW_API_TABLES } from './fixtures/gorm-schema.js';
import { T, newApiRows } from './fixtures/new-api-rows.js';
import type { NewApiFacts } from './fixtures/new-api-rows.js';
import { importInto } from './fixtures/run-import.js';
import type { ImportRun } from './fixtures/run-import.js';
import { createSourceDb } from './fixtures/source-db.js';
import type { SourceDb } from './fixtures/source-db.js';
import type { TableReport } from './import.js';

const tableOf = (run: ImportRun, name: string): TableReport => {
  const found = run.report.tables.find((t) => t.table === name);
  if (!found) throw new Error(`no report for ${name}`);
  return found;
};

describe.each(testDialects())('moving a new-api database into Sluice on %s', (dialect) => {
  let mock: MockUpstream;
  let src: SourceDb;
  let facts: NewApiFacts;
  let t: TestApp;
  let first: ImportRun;
  let base: string;

  beforeAll(async () => {
    mock = await startMockUpstream();
    src = await createSourceDb(dialect);
    facts = await newApiRows(mock.url);
    await src.fill(NEW_API_TABLES, facts.rows);
    // Started once already: its first start made the root account, which the import replaces.
    t = await createTestApp({ dialect });
    first = await importInto(t, src.location);
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
  const login = (username: string, password: string) =>
    t.call({ method: 'POST', url: '/api/user/login', payload: { username, password } });
  const count = async (table: 'users' | 'tokens' | 'channels' | 'abilities' | 'logs' | 'quota_data') =>
    (await t.db.db.selectFrom(table).selectAll().execute()).length;

  it('lets people sign in with their new-api passwords and keeps their balances and invitations', async () => {
    const alice = await t.login('alice', facts.passwords.alice);
    expect(alice.id).toBe(2);
    const self = await t.call({ method: 'GET', url: '/api/user/self', as: alice });
    expect(self.json().data).toMatchObject({
      username: 'alice',
      display_name: 'Alice',
      quota: 25_000_000,
      used_quota: 1_234_567,
      request_count: 321,
      group: 'default',
      aff_code: 'Ab3x',
      aff_count: 2,
      aff_quota: 100_000,
      aff_history_quota: 250_000,
      email: 'alice@example.com',
      github_id: '583231',
    });
    const bob = await t.login('bob', facts.passwords.bob);
    expect((await t.call({ method: 'GET', url: '/api/user/self', as: bob })).json().data).toMatchObject({
      group: 'vip',
      inviter_id: 2,
      wechat_id: 'oWx_bob',
      telegram_id: '77112233',
      linux_do_id: '4242',
    });
    const root = await t.login('root', facts.passwords.root);
    expect(root.role).toBe(100);
    // The first-start root (123456) gave way to the imported one.
    expectRefusal(await login('root', '123456'));
    expectRefusal(await login('alice', 'not-her-password'));
    expectRefusal(await login('carol', facts.passwords.carol)); // banned in new-api
    expectRefusal(await login('dave', 'dave-pass')); // deleted in new-api
    // Go's bcrypt hashes, kept as they were.
    const stored = await t.db.db
      .selectFrom('users')
      .select('password')
      .where('id', '=', 2)
      .executeTakeFirstOrThrow();
    expect(stored.password).toBe(facts.rows.users?.[1]?.password);
    expect(stored.password).toMatch(/^\$2a\$10\$/);
    const dave = await t.db.db
      .selectFrom('users')
      .selectAll()
      .where('username', '=', 'dave')
      .executeTakeFirstOrThrow();
    expect(dave.deleted_at).toBe(Date.parse('2025-01-02T03:04:05Z') / 1000);
  });

  it('relays a chat call with an imported key through an imported channel, billed at the imported prices', async () => {
    const before = await balances(t, { userId: 2, tokenId: 2, channelIds: [1] });
    expect(before).toMatchObject({
      userQuota: 25_000_000,
      tokenRemain: 5_000_000,
      tokenUsed: 777,
      channelUsed: 987_654,
    });
    const res = await chat(facts.keys.alice, 'gpt-4o-mini');
    expect(res.status).toBe(200);
    const usage = ((await res.json()) as { usage: { prompt_tokens: number; completion_tokens: number } })
      .usage;
    // The upstream saw the channel's own key, not the client's.
    expect(mock.lastRequest('/v1/chat/completions')?.headers.authorization).toBe(
      'Bearer sk-upstream-openai-main',
    );

    const quota = tokenQuota(
      { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens },
      {
        billing: 'tokens',
        modelRatio: 0.075,
        completionRatio: 4,
        groupRatio: 1,
        cacheRatio: 1,
        cacheWriteRatio: 1.25,
      },
    );
    expect(quota).toBeGreaterThan(0);
    const after = await balances(t, { userId: 2, tokenId: 2, channelIds: [1] });
    expect(before.userQuota - after.userQuota).toBe(quota);
    expect(after.tokenUsed - before.tokenUsed).toBe(quota);
    expect(after.channelUsed - before.channelUsed).toBe(quota);
    const [log] = await consumeLogs(t, 2);
    expect(log).toMatchObject({
      type: LOG_TYPE.consume,
      token_id: 2,
      channel_id: 1,
      quota,
      model_name: 'gpt-4o-mini',
    });
    expect(JSON.parse(log?.other ?? '{}')).toMatchObject({
      model_ratio: 0.075,
      completion_ratio: 4,
      group_ratio: 1,
    });

    // The channel's model mapping came along.
    expect((await chat(facts.keys.alice, 'gpt-4o')).status).toBe(200);
    expect(mock.lastRequest('/v1/chat/completions')?.body).toMatchObject({ model: 'gpt-4o-2024-08-06' });

    // Bob's group is billed at its imported ratio; his token's address list lets 127.0.0.1 in.
    expect((await chat(facts.keys.bob, 'gpt-4o-mini')).status).toBe(200);
    const [bobLog] = await consumeLogs(t, 3);
    expect(JSON.parse(bobLog?.other ?? '{}')).toMatchObject({ group_ratio: 0.8 });
  });

  it('keeps what each token may do: model limits, expiry, deletion', async () => {
    expect((await chat(facts.keys.alice, 'claude-3-5-sonnet-20241022')).status).toBe(403);
    expect((await chat(facts.keys.aliceExpired, 'gpt-4o-mini')).status).toBe(401);
    expect((await chat(facts.keys.bobDeleted, 'gpt-4o-mini')).status).toBe(401);
  });

  it('imports the prices and settings Sluice knows, and names the ones it left out', async () => {
    const root = await t.login('root', facts.passwords.root);
    const res = await t.call({ method: 'GET', url: '/api/option/', as: root });
    const options = new Map(
      (res.json().data as { key: string; value: string }[]).map((o) => [o.key, o.value]),
    );
    for (const key of ['ModelRatio', 'CompletionRatio', 'GroupRatio', 'ModelPrice'] as const) {
      expect(JSON.parse(options.get(key) ?? '')).toEqual(facts.ratios[key]);
    }
    expect(options.get('SystemName')).toBe('Acme AI');
    expect(options.get('RegisterEnabled')).toBe('false');
    expect(options.get('DocsLink')).toBe('https://docs.example.com');
    // Secrets are imported, though the console never shows them.
    const secret = await t.db.db
      .selectFrom('options')
      .select('value')
      .where('key', '=', 'GitHubClientSecret')
      .executeTakeFirst();
    expect(secret?.value).toBe('github-client-secret');
    expect(options.get('SMTPPort')).toBe('587');

    const report = first.report.options;
    expect(report?.unknown).toEqual(['Theme', 'console_setting.api_info']);
    expect(report?.invalid.map((i) => i.key)).toEqual(['SMTPPort']);
    // The public pricing page shows the imported ratio.
    const pricing = await t.call({ method: 'GET', url: '/api/pricing' });
    const mini = (pricing.json().data as { model_name: string; model_ratio: number }[]).find(
      (p) => p.model_name === 'gpt-4o-mini',
    );
    expect(mini?.model_ratio).toBe(0.075);
  });

  it('rebuilds the channel index from the channels and normalises their columns', async () => {
    const abilities = await t.db.db.selectFrom('abilities').selectAll().execute();
    const listed = abilities.map((a) => `${a.channel_id} ${a.group} ${a.model} ${a.enabled}`).sort();
    expect(listed).toEqual([
      '1 default gpt-4o 1',
      '1 default gpt-4o-mini 1',
      '1 vip gpt-4o 1',
      '1 vip gpt-4o-mini 1',
      '2 vip claude-3-5-sonnet-20241022 0',
      '4 default gpt-4o 1',
      '6 default mj_imagine 1',
      '6 default mj_variation 1',
    ]);
    expect(first.report.abilities).toBe(8);
    const channels = await t.db.db.selectFrom('channels').selectAll().orderBy('id').execute();
    expect(channels.map((c) => c.id)).toEqual([1, 2, 4, 6]);
    expect(channels[0]).toMatchObject({
      type: 1,
      priority: 10,
      weight: 10,
      tag: 'openai',
      balance: 12.5,
      response_time: 830,
      setting: '{"force_format":false,"proxy":""}',
      model_mapping: '{"gpt-4o":"gpt-4o-2024-08-06"}',
    });
    // NULL auto_ban is new-api's "off"; a mapping that is not JSON is left out (and reported).
    expect(channels[2]).toMatchObject({
      other: '2024-02-15-preview',
      auto_ban: 0,
      model_mapping: '',
      weight: 0,
      tag: '',
    });
    expect(tableOf(first, 'channels').notes.map((n) => n.text)).toContain(
      'whose model_mapping was not JSON (left empty)',
    );
  });

  it('keeps codes, payments, drawings and tasks, in Sluice’s units', async () => {
    const codes = await t.db.db.selectFrom('redemptions').select(['id', 'status']).orderBy('id').execute();
    // The code past its new-api expiry is disabled rather than redeemable forever.
    expect(codes).toEqual([
      { id: 1, status: 1 },
      { id: 2, status: 3 },
      { id: 3, status: 2 },
      { id: 4, status: 1 },
      { id: 5, status: 1 },
    ]);
    const topUps = await t.db.db.selectFrom('top_ups').selectAll().orderBy('id').execute();
    expect(topUps.map((r) => [r.trade_no, r.status, r.money])).toEqual([
      ['USR2NOa1b2c3d4', 'success', 73],
      ['ref_stripe_998877', 'pending', 5],
    ]);
    const drawings = await t.db.db.selectFrom('midjourneys').selectAll().orderBy('id').execute();
    expect(drawings.map((d) => [d.submit_time, d.start_time, d.token_id, d.upstream_task_id])).toEqual([
      [T * 1000, T * 1000 + 2000, 2, ''],
      // Written in seconds by an older new-api: milliseconds now.
      [T * 1000, (T + 5) * 1000, 0, ''],
    ]);
    const tasks = await t.db.db.selectFrom('tasks').selectAll().orderBy('id').execute();
    expect(tasks.map((k) => [k.upstream_task_id, k.token_id])).toEqual([
      ['', 0],
      ['kling-778899', 2],
    ]);
    expect(JSON.parse(tasks[0]?.data ?? '')).toEqual([
      { id: 'clip-1', audio_url: 'https://cdn.example.com/clip-1.mp3' },
    ]);
    expect(JSON.parse(tasks[1]?.properties ?? '')).toMatchObject({ upstream_model_name: 'kling-v1' });
  });

  it('reports the columns Sluice has no place for, once per table', () => {
    expect(tableOf(first, 'users').dropped).toEqual([
      'discord_id',
      'last_login_at',
      'oidc_id',
      'remark',
      'stripe_customer',
    ]);
    expect(tableOf(first, 'channels').dropped).toEqual([
      'channel_info',
      'header_override',
      'param_override',
      'remark',
      'settings',
    ]);
    expect(tableOf(first, 'tokens').dropped).toEqual(['cross_group_retry']);
    expect(tableOf(first, 'users').notes).toContainEqual({
      text: 'without a password (they sign in through OAuth, or reset it)',
      count: 1,
    });
    expect(tableOf(first, 'logs').state).toBe('not-requested');
    // Read a page at a time, with progress after each page.
    expect(first.progress.filter(([table]) => table === 'users').map(([, rows]) => rows)).toEqual([2, 4, 6]);
  });

  it('hands out fresh ids after the imported ones', async () => {
    const alice = await t.login('alice', facts.passwords.alice);
    const res = await t.call({
      method: 'POST',
      url: '/api/token/',
      as: alice,
      payload: { name: 'after the move' },
    });
    expect(res.json().success).toBe(true);
    const made = await t.db.db
      .selectFrom('tokens')
      .selectAll()
      .where('name', '=', 'after the move')
      .executeTakeFirstOrThrow();
    expect(made.id).toBeGreaterThan(6);
    // The calls above logged with ids past the source's logs, which a later --with-logs run brings.
    const logIds = (await t.db.db.selectFrom('logs').select('id').execute()).map((l) => l.id);
    expect(Math.min(...logIds)).toBeGreaterThan(12);
  });

  it('brings the logs with --with-logs, and a second run with --force duplicates nothing', async () => {
    const own = await t.db.db.selectFrom('logs').selectAll().orderBy('id').execute();
    const refused = importInto(t, src.location, { withLogs: true });
    await expect(refused).rejects.toThrow(/not empty .*--force/);

    const second = await importInto(t, src.location, { withLogs: true, force: true });
    expect(tableOf(second, 'logs')).toMatchObject({ state: 'imported', read: 12, written: 12 });
    expect(second.progress.filter(([table]) => table === 'logs').map(([, rows]) => rows)).toEqual([
      2, 4, 6, 8, 10, 12,
    ]);
    const logs = await t.db.db.selectFrom('logs').selectAll().orderBy('id').execute();
    expect(logs).toHaveLength(12 + own.length);
    // Sluice's own rows are untouched.
    expect(logs.slice(12)).toEqual(own);
    expect(logs[0]).toMatchObject({
      id: 1,
      username: 'alice',
      model_name: 'gpt-4o-mini',
      is_stream: 1,
      ip: '203.0.113.7',
    });
    // The renamed user's hour is one bucket.
    const buckets = await t.db.db.selectFrom('quota_data').selectAll().orderBy('id').execute();
    expect(buckets.map((b) => [b.user_id, b.model_name, b.token_used, b.count, b.quota])).toEqual([
      [2, 'gpt-4o-mini', 1050, 11, 5250],
      [2, 'gpt-4o', 200, 2, 3000],
      [3, 'gpt-4o-mini', 70, 3, 90],
    ]);

    const totals = async () => ({
      users: await count('users'),
      tokens: await count('tokens'),
      channels: await count('channels'),
      abilities: await count('abilities'),
      logs: await count('logs'),
      quotaData: await t.db.db.selectFrom('quota_data').selectAll().orderBy('id').execute(),
    });
    const afterSecond = await totals();
    expect(afterSecond).toMatchObject({ users: 6, tokens: 6, channels: 4, abilities: 8 });
    await importInto(t, src.location, { withLogs: true, force: true });
    expect(await totals()).toEqual(afterSecond);
    // A run replaces the imported rows with the source's: the balances are new-api's again.
    const alice = await t.db.db.selectFrom('users').selectAll().where('id', '=', 2).executeTakeFirstOrThrow();
    expect(alice.quota).toBe(25_000_000);
    expect((await t.login('alice', facts.passwords.alice)).id).toBe(2);
  });
});

describe.each(testDialects())('a target that is not empty, on %s', (dialect) => {
  let src: SourceDb;
  let t: TestApp;

  beforeAll(async () => {
    src = await createSourceDb(dialect);
    await src.fill(NEW_API_TABLES, (await newApiRows('http://127.0.0.1:9')).rows);
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t?.close();
    await src?.dispose();
  });

  it('is refused without --force and left as it was', async () => {
    const someone = await t.createUser({ username: 'sluice_user' });
    await expect(importInto(t, src.location)).rejects.toThrow(
      'the target database is not empty (it has 2 users). Run again with --force to import over it: ' +
        'rows with the same ids as the source rows are replaced, the others are kept',
    );
    expect(await t.db.db.selectFrom('users').select('username').orderBy('id').execute()).toEqual([
      { username: 'root' },
      { username: 'sluice_user' },
    ]);
    expect(await t.db.db.selectFrom('options').selectAll().execute()).toEqual([]);
    expect((await t.call({ method: 'GET', url: '/api/user/self', as: someone })).statusCode).toBe(200);
  });

  it('is imported over with --force: rows with the source’s ids or names are replaced, the others kept', async () => {
    const someone = await t.login('sluice_user', 'password123');
    expect(someone.id).toBe(2);
    // Accounts made in Sluice under ids the source does not use: one holds alice's invitation code,
    // one is called bob.
    for (const [id, username, aff_code] of [
      [50, 'keeper', 'Ab3x'],
      [51, 'bob', 'zzzz'],
    ] as const) {
      await t.db.db
        .insertInto('users')
        .values({ id, username, password: '', aff_code, access_token: null })
        .execute();
    }
    const run = await importInto(t, src.location, { force: true });
    const users = run.report.tables.find((r) => r.table === 'users');
    expect(users).toMatchObject({ written: 6, replaced: 1 });
    expect(users?.notes).toContainEqual({
      text: 'whose aff_code another row already had (given a new one)',
      count: 1,
    });
    // Id 2 is alice's now: the session of the account that had it must not open hers.
    expect((await t.call({ method: 'GET', url: '/api/user/self', as: someone })).statusCode).toBe(401);
    const rows = await t.db.db
      .selectFrom('users')
      .select(['id', 'username', 'aff_code'])
      .orderBy('id')
      .execute();
    expect(rows.map((r) => `${r.id} ${r.username}`)).toEqual([
      '1 root',
      '2 alice',
      '3 bob',
      '4 carol',
      '5 dave',
      '7 github_9911',
      '50 keeper',
    ]);
    expect(rows.find((r) => r.id === 50)?.aff_code).toBe('Ab3x');
    expect(rows.find((r) => r.id === 2)?.aff_code).toMatch(/^[A-Za-z0-9]{8}$/);
  });
});
