// The Suno task relay over real HTTP against the mock Suno API server: submits charged once under
// Sluice's own ids, polled to their end, failures and timeouts refunded exactly once (also when pollers
// race), refusals passed on and never charged, fetches limited to the caller's own tasks.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MOCK_SUNO_KEY, mockLyrics, startMockUpstream, withMock } from '@sluice/mock-upstream';
import type { MockDirective } from '@sluice/mock-upstream';
import { CHANNEL_STATUS, LOG_TYPE, ROLE } from '@sluice/shared';
import { buildApp } from '../app.js';
import { testDialects } from '../test-support/databases.js';
import { addChannel, addToken, balances, setOptions } from '../test-support/relay-kit.js';
import type { TestToken } from '../test-support/relay-kit.js';
import { startRelaySuite } from '../test-support/relay-suite.js';
import type { RelaySuite } from '../test-support/relay-suite.js';
import { testConfig } from '../test-support/test-app.js';
import { relayRuntime } from './pipeline/relay-runtime.js';
import type { RelayRuntime } from './pipeline/relay-runtime.js';
import { pollSuno, SUNO_TIMEOUT } from './tasks/suno/poll.js';
import { failTimedOut } from './tasks/task-poller.js';
import type { SunoTaskView } from './tasks/suno/task-view.js';

/** Per-call prices (dollars) and what they cost in quota (× 500000 QuotaPerUnit × group ratio 1). */
const SONG_PRICE = 0.2;
const LYRICS_PRICE = 0.02;
const SONG_QUOTA = 100_000;
const LYRICS_QUOTA = 10_000;
const FUNDS = 1_000_000;
const TIMEOUT_MS = (1440 + 1) * 60_000;

interface SunoAnswer {
  code: string;
  message: string;
  data: unknown;
}

type SunoTask = SunoTaskView;

describe.each(testDialects())('Suno task relay on %s', (dialect) => {
  let s: RelaySuite;
  let rt: RelayRuntime;
  let channelId: number;

  beforeAll(async () => {
    s = await startRelaySuite(dialect, {
      options: { ModelPrice: { suno_music: SONG_PRICE, suno_lyrics: LYRICS_PRICE } },
      channels: async (add) => {
        channelId = await add({ type: 36, key: MOCK_SUNO_KEY, models: 'suno_music,suno_lyrics' });
      },
    });
    rt = relayRuntime(s.t.app.ctx);
  });
  afterAll(async () => {
    await s?.t.close();
    await s?.mock.close();
  });
  beforeEach(() => s.mock.reset());

  const send = async (key: string, method: 'GET' | 'POST', path: string, body?: unknown) => {
    const res = await fetch(`${s.base}${path}`, {
      method,
      headers: {
        ...(key === '' ? {} : { authorization: `Bearer ${key}` }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as SunoAnswer };
  };
  const submit = (key: string, action: string, body: unknown) =>
    send(key, 'POST', `/suno/submit/${action}`, body);
  const song = (text: string, directive?: MockDirective) => ({
    prompt: directive ? withMock(text, directive) : text,
    title: 'Morning',
    tags: 'folk',
  });
  const fetchOne = async (key: string, id: string) => {
    const res = await send(key, 'GET', `/suno/fetch/${id}`);
    return { status: res.status, body: res.body, task: res.body.data as SunoTask };
  };
  const poll = () => pollSuno(rt, Date.now());

  /** A fresh user and token with funds of their own, so each test reads its own bill. */
  const customer = async (fields: Parameters<typeof addToken>[2] = {}) => {
    const user = await s.t.createUser({ quota: FUNDS });
    const token = await addToken(s.t, user.id, { remain_quota: FUNDS, ...fields });
    return { user, token, bill: () => balances(s.t, { userId: user.id, tokenId: token.id, channelIds: [] }) };
  };
  const taskRow = (taskId: string) =>
    s.t.db.db.selectFrom('tasks').selectAll().where('task_id', '=', taskId).executeTakeFirstOrThrow();
  const logsOf = (userId: number, type: number) =>
    s.t.db.db.selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', type).execute();
  const channelUsed = async () =>
    Number(
      (
        await s.t.db.db
          .selectFrom('channels')
          .select('used_quota')
          .where('id', '=', channelId)
          .executeTakeFirstOrThrow()
      ).used_quota,
    );
  const submitted = async (token: TestToken, action: string, body: unknown): Promise<string> => {
    const res = await submit(token.key, action, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.code).toBe('success');
    return res.body.data as string;
  };

  it('charges an accepted song once under its own id, and polls it to its clips', async () => {
    const { user, token, bill } = await customer();
    const usedBefore = await channelUsed();
    const before = Math.floor(Date.now() / 1000);
    const res = await submit(token.key, 'music', song('a song about the sea'));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 'success', message: '' });
    const id = res.body.data as string;
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    // The upstream got the channel's key (never the caller's), the prompt and the default model version.
    const [upstream] = [...s.mock.tasks.values()];
    expect(upstream?.key).toBe(MOCK_SUNO_KEY);
    expect(upstream?.id).not.toBe(id);
    const sent = s.mock.lastRequest('/suno/submit/music');
    expect(sent?.headers.authorization).toBe(`Bearer ${MOCK_SUNO_KEY}`);
    expect(sent?.body).toMatchObject({ prompt: 'a song about the sea', mv: 'chirp-v3-0', title: 'Morning' });

    const row = await taskRow(id);
    expect(row).toMatchObject({
      platform: 'suno',
      action: 'MUSIC',
      status: 'SUBMITTED',
      upstream_task_id: upstream?.id,
    });
    expect(Number(row.user_id)).toBe(user.id);
    expect(Number(row.token_id)).toBe(token.id);
    expect(Number(row.channel_id)).toBe(channelId);
    expect(Number(row.quota)).toBe(SONG_QUOTA);
    expect(Number(row.submit_time)).toBeGreaterThanOrEqual(before);
    expect(Number(row.submit_time)).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(JSON.parse(row.properties)).toMatchObject({ prompt: 'a song about the sea', tags: 'folk' });

    const charged = await bill();
    expect(charged).toMatchObject({
      userQuota: FUNDS - SONG_QUOTA,
      userUsed: SONG_QUOTA,
      requestCount: 1,
      tokenRemain: FUNDS - SONG_QUOTA,
      tokenUsed: SONG_QUOTA,
      logQuota: SONG_QUOTA,
    });
    expect(await channelUsed()).toBe(usedBefore + SONG_QUOTA);
    const [log] = await logsOf(user.id, LOG_TYPE.consume);
    expect(log?.model_name).toBe('suno_music');
    expect(JSON.parse(log?.other ?? '{}')).toMatchObject({ task_id: id });

    const waiting = await fetchOne(token.key, id);
    expect(waiting.status).toBe(200);
    expect(waiting.task).toMatchObject({ task_id: id, action: 'MUSIC', status: 'SUBMITTED', data: null });

    await poll();
    const running = await fetchOne(token.key, id);
    expect(running.task).toMatchObject({ status: 'IN_PROGRESS', progress: '50%' });
    expect(running.task.start_time).toBeGreaterThanOrEqual(before);

    await poll();
    const done = await fetchOne(token.key, id);
    expect(done.body.code).toBe('success');
    expect(done.task).toMatchObject({ task_id: id, status: 'SUCCESS', progress: '100%', fail_reason: '' });
    expect(done.task.finish_time).toBeGreaterThanOrEqual(done.task.start_time);
    const clips = done.task.data as Array<{ id: string; audio_url: string; status: string }>;
    expect(clips).toHaveLength(2);
    for (const clip of clips) {
      expect(clip.status).toBe('complete');
      expect(clip.audio_url).toMatch(/\.mp3$/);
    }

    // Polling a finished task changes nothing, and the bill stays the one charge.
    await poll();
    expect(s.mock.requests.filter((r) => r.path === '/suno/fetch')).toHaveLength(2);
    expect(await bill()).toEqual(charged);
    expect(await logsOf(user.id, LOG_TYPE.system)).toHaveLength(0);
  });

  it('writes lyrics, charged as suno_lyrics', async () => {
    const { user, token, bill } = await customer();
    const id = await submitted(token, 'lyrics', { prompt: 'rain on a tin roof' });
    expect(await bill()).toMatchObject({ userQuota: FUNDS - LYRICS_QUOTA, tokenUsed: LYRICS_QUOTA });
    const [log] = await logsOf(user.id, LOG_TYPE.consume);
    expect(log?.model_name).toBe('suno_lyrics');
    await poll();
    await poll();
    const { task } = await fetchOne(token.key, id);
    expect(task).toMatchObject({ action: 'LYRICS', status: 'SUCCESS', progress: '100%' });
    expect((task.data as { text: string }).text).toBe(mockLyrics('rain on a tin roof'));
  });

  it('refunds a failed task exactly once, with the reason shown', async () => {
    const { user, token, bill } = await customer();
    const usedBefore = await channelUsed();
    const id = await submitted(
      token,
      'music',
      song('a broken song', { task_outcome: 'failure', task_fail_reason: 'the melody fell apart' }),
    );
    await poll();
    await poll();
    const { task } = await fetchOne(token.key, id);
    expect(task).toMatchObject({ status: 'FAILURE', fail_reason: 'the melody fell apart', progress: '100%' });
    expect(task.finish_time).toBeGreaterThan(0);
    await poll();
    await failTimedOut(rt, SUNO_TIMEOUT, Date.now() + TIMEOUT_MS);

    expect(await bill()).toMatchObject({
      userQuota: FUNDS,
      userUsed: 0,
      tokenRemain: FUNDS,
      tokenUsed: 0,
    });
    expect(await channelUsed()).toBe(usedBefore);
    const refunds = await logsOf(user.id, LOG_TYPE.system);
    expect(refunds).toHaveLength(1);
    expect(JSON.parse(refunds[0]?.other ?? '{}')).toMatchObject({ task_id: id, refund_quota: SONG_QUOTA });
    expect(refunds[0]?.model_name).toBe('suno_music');
  });

  it('refunds once when two nodes poll the same failure and the timeout sweep races them', async () => {
    const { user, token, bill } = await customer();
    const id = await submitted(
      token,
      'music',
      song('a doomed song', { task_outcome: 'failure', task_steps: 1 }),
    );
    // A second app on the same database: another node with its own runtime.
    const other = await buildApp({ config: testConfig(), db: s.t.db });
    try {
      await other.ready();
      const now = Date.now();
      await Promise.all([
        pollSuno(rt, now),
        pollSuno(relayRuntime(other.ctx), now),
        pollSuno(rt, now),
        failTimedOut(relayRuntime(other.ctx), SUNO_TIMEOUT, now + TIMEOUT_MS),
      ]);
    } finally {
      await other.close();
    }
    expect((await taskRow(id)).status).toBe('FAILURE');
    expect(await bill()).toMatchObject({ userQuota: FUNDS, userUsed: 0, tokenRemain: FUNDS, tokenUsed: 0 });
    expect(await logsOf(user.id, LOG_TYPE.system)).toHaveLength(1);
  });

  it('fails and refunds a task that outlives TASK_TIMEOUT_MINUTES', async () => {
    const { user, token, bill } = await customer();
    const id = await submitted(token, 'music', song('an endless song', { task_outcome: 'stuck' }));
    await poll();
    await poll();
    expect((await fetchOne(token.key, id)).task.status).toBe('IN_PROGRESS');
    // Not yet: a minute short of the timeout.
    await failTimedOut(rt, SUNO_TIMEOUT, Date.now() + TIMEOUT_MS - 2 * 60_000);
    expect((await taskRow(id)).status).toBe('IN_PROGRESS');

    expect(await failTimedOut(rt, SUNO_TIMEOUT, Date.now() + TIMEOUT_MS)).toBeGreaterThanOrEqual(1);
    expect(await failTimedOut(rt, SUNO_TIMEOUT, Date.now() + TIMEOUT_MS)).toBe(0);
    const { task } = await fetchOne(token.key, id);
    expect(task.status).toBe('FAILURE');
    expect(task.progress).toBe('100%');
    expect(task.fail_reason).toMatch(/1440 minutes/);
    expect(await bill()).toMatchObject({ userQuota: FUNDS, tokenRemain: FUNDS, userUsed: 0 });
    expect(await logsOf(user.id, LOG_TYPE.system)).toHaveLength(1);
    // The upstream finishing late changes nothing: the task is final.
    s.mock.setTaskOutcome([...s.mock.tasks.keys()][0] ?? '', { outcome: 'success', steps: 0 });
    await poll();
    expect((await taskRow(id)).status).toBe('FAILURE');
  });

  it('passes a refused submit on in Suno shape and charges nothing', async () => {
    const { user, token, bill } = await customer();
    const start = await bill();
    // The server wants a prompt or a description for a song; Sluice leaves that to it.
    const empty = await submit(token.key, 'music', { title: 'Nothing' });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ code: 'invalid_request', message: 'prompt is empty', data: null });

    const broken = await submit(token.key, 'music', song('x', { status: 500 }));
    expect(broken.status).toBe(500);
    expect(broken.body).toEqual({ code: 'internal_error', message: '500 Internal Server Error', data: null });

    const limited = await submit(token.key, 'lyrics', {
      prompt: withMock('x', { status: 429, error: { code: 'too_many', message: 'slow down' } }),
    });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ code: 'too_many', message: 'slow down', data: null });

    // Each refusal reached the upstream once: nothing is retried.
    expect(s.mock.requests.filter((r) => r.path.startsWith('/suno/submit/'))).toHaveLength(3);
    expect(await bill()).toEqual(start);
    expect(await logsOf(user.id, LOG_TYPE.consume)).toHaveLength(0);
    expect(await s.t.db.db.selectFrom('tasks').select('id').where('user_id', '=', user.id).execute()).toEqual(
      [],
    );
  });

  it("never answers the channel's rejected key as the caller's, and charges nothing", async () => {
    const t = s.t;
    const model = 'suno_music';
    const user = await t.createUser({ quota: FUNDS, group: 'svip' });
    const token = await addToken(t, user.id, { remain_quota: FUNDS });
    const bad = await addChannel(t, {
      base_url: s.mock.url,
      type: 36,
      key: 'stolen-suno-key',
      group: 'svip',
      models: model,
    });
    const res = await submit(token.key, 'music', song('hi'));
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('upstream_unavailable');
    expect(res.body.message).toMatch(/refused this channel's key/);
    expect(res.body.message).not.toContain('stolen-suno-key');
    expect(res.body.data).toBeNull();
    expect(await balances(t, { userId: user.id, tokenId: token.id, channelIds: [bad] })).toMatchObject({
      userQuota: FUNDS,
      tokenRemain: FUNDS,
      channelUsed: 0,
      logQuota: 0,
    });
  });

  it('answers an unreachable upstream with a 502 and charges nothing', async () => {
    const t = s.t;
    const user = await t.createUser({ quota: FUNDS, group: 'vip' });
    const token = await addToken(t, user.id, { remain_quota: FUNDS });
    const gone = await startMockUpstream();
    const url = gone.url;
    await gone.close();
    await addChannel(t, { base_url: url, type: 36, key: MOCK_SUNO_KEY, group: 'vip', models: 'suno_lyrics' });
    const res = await submit(token.key, 'lyrics', { prompt: 'hello' });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ code: 'upstream_connection', data: null });
    expect(res.body.message).not.toContain('127.0.0.1');
    expect(await balances(t, { userId: user.id, tokenId: token.id, channelIds: [] })).toMatchObject({
      userQuota: FUNDS,
      tokenRemain: FUNDS,
      logQuota: 0,
    });
  });

  it("shows only the caller's own tasks", async () => {
    const alice = await customer();
    const bob = await customer();
    const aliceTask = await submitted(alice.token, 'lyrics', { prompt: 'alice' });
    const bobTask = await submitted(bob.token, 'lyrics', { prompt: 'bob' });

    const stranger = await fetchOne(bob.token.key, aliceTask);
    expect(stranger.status).toBe(404);
    expect(stranger.body).toMatchObject({ code: 'task_not_exist', data: null });
    expect((await fetchOne(alice.token.key, aliceTask)).task.task_id).toBe(aliceTask);

    const list = await send(bob.token.key, 'POST', '/suno/fetch', { ids: [aliceTask, bobTask, 'nope'] });
    expect(list.status).toBe(200);
    expect(list.body.code).toBe('success');
    expect((list.body.data as SunoTask[]).map((task) => task.task_id)).toEqual([bobTask]);
    expect((await send(bob.token.key, 'POST', '/suno/fetch', { ids: [] })).body).toEqual({
      code: 'success',
      message: '',
      data: [],
    });
    // The upstream's id is no key to a task either.
    const upstreamId = (await taskRow(aliceTask)).upstream_task_id;
    expect((await fetchOne(alice.token.key, upstreamId)).status).toBe(404);

    // Nor can someone else's task be continued.
    const theft = await submit(bob.token.key, 'music', {
      ...song('more'),
      task_id: aliceTask,
      continue_clip_id: 'c1',
    });
    expect(theft.status).toBe(400);
    expect(theft.body).toMatchObject({ code: 'task_not_exist', data: null });
    expect((await bob.bill()).userQuota).toBe(FUNDS - LYRICS_QUOTA);
  });

  it("continues a song on its own channel with the upstream's id", async () => {
    const first = await customer();
    const original = await submitted(first.token, 'music', song('verse one'));
    await poll();
    await poll();
    const clip = ((await fetchOne(first.token.key, original)).task.data as Array<{ id: string }>)[0]?.id;
    const upstreamId = (await taskRow(original)).upstream_task_id;

    // A new channel on another server, preferred for new songs.
    const elsewhere = await startMockUpstream();
    try {
      const preferred = await addChannel(s.t, {
        base_url: elsewhere.url,
        type: 36,
        key: MOCK_SUNO_KEY,
        models: 'suno_music',
        priority: 10,
      });
      const fresh = await submitted(first.token, 'music', song('a new song'));
      expect(Number((await taskRow(fresh)).channel_id)).toBe(preferred);

      const more = await submitted(first.token, 'music', {
        ...song('verse two'),
        task_id: original,
        continue_clip_id: clip,
        continue_at: 60,
      });
      const row = await taskRow(more);
      expect(Number(row.channel_id)).toBe(channelId);
      expect(s.mock.lastRequest('/suno/submit/music')?.body).toMatchObject({
        task_id: upstreamId,
        continue_clip_id: clip,
        continue_at: 60,
      });
      expect(JSON.parse(row.properties)).toMatchObject({ task_id: original, continue_clip_id: clip });
      await s.t.db.db.deleteFrom('abilities').where('channel_id', '=', preferred).execute();
      await s.t.db.db.deleteFrom('channels').where('id', '=', preferred).execute();
      s.t.app.ctx.bus.publish('channels');
    } finally {
      await elsewhere.close();
    }
  });

  it('asks each channel once per round, in batches of 100, by the upstream ids', async () => {
    // Earlier tests' unfinished tasks out of the way: this round holds only the rows made here.
    await s.t.db.db
      .updateTable('tasks')
      .set({ status: 'SUCCESS' })
      .where('status', '!=', 'FAILURE')
      .execute();
    const { user, token } = await customer();
    const id = await submitted(token, 'music', song('batched'));
    const upstreamId = (await taskRow(id)).upstream_task_id;
    const now = Math.floor(Date.now() / 1000);
    // Rows imported from new-api keep the upstream's id as their own task_id.
    const imported = Array.from({ length: 120 }, (_, i) => ({
      created_at: now,
      updated_at: now,
      task_id: `imported-${i}`,
      platform: 'suno',
      user_id: user.id,
      channel_id: channelId,
      quota: 0,
      action: 'MUSIC',
      status: 'IN_PROGRESS',
      fail_reason: '',
      submit_time: now,
      progress: '10%',
      properties: '{}',
      data: '',
    }));
    await s.t.db.db.insertInto('tasks').values(imported).execute();
    try {
      await poll();
      const fetches = s.mock.requests.filter((r) => r.path === '/suno/fetch');
      expect(fetches).toHaveLength(2);
      const asked = fetches.flatMap((r) => (r.body as { ids: string[] }).ids);
      expect(fetches.map((r) => (r.body as { ids: string[] }).ids.length).sort((a, b) => a - b)).toEqual([
        21, 100,
      ]);
      expect(asked).toContain(upstreamId);
      expect(asked).toContain('imported-7');
      expect(asked).not.toContain(id);
      expect((fetches[0]?.body as { action: string }).action).toBe('MUSIC');
      // Unknown to the upstream: left alone for the timeout.
      expect((await taskRow('imported-7')).status).toBe('IN_PROGRESS');
      expect((await taskRow(id)).status).toBe('IN_PROGRESS');
    } finally {
      await s.t.db.db.deleteFrom('tasks').where('task_id', 'like', 'imported-%').execute();
    }
  });

  it('refuses bad keys, forbidden models, short balances and unserved groups in Suno shape', async () => {
    const anonymous = await submit('', 'music', song('hi'));
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ code: 'missing_api_key', data: null });
    const wrong = await submit('sk-not-a-real-key', 'music', song('hi'));
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ code: 'invalid_api_key', data: null });
    expect((await send('sk-not-a-real-key', 'GET', '/suno/fetch/x')).status).toBe(401);

    const limited = await customer({ model_limits_enabled: 1, model_limits: 'suno_lyrics' });
    const forbidden = await submit(limited.token.key, 'music', song('hi'));
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toMatchObject({ code: 'model_not_allowed', data: null });

    const poor = await s.t.createUser({ quota: SONG_QUOTA - 1 });
    const poorToken = await addToken(s.t, poor.id, { remain_quota: FUNDS });
    const short = await submit(poorToken.key, 'music', song('hi'));
    expect(short.status).toBe(403);
    expect(short.body).toMatchObject({ code: 'insufficient_user_quota', data: null });

    // No channel lists suno_music for the group: 404; its only channel disabled: 503.
    const vip = await s.t.createUser({ quota: FUNDS, group: 'vip' });
    const vipToken = await addToken(s.t, vip.id, { remain_quota: FUNDS });
    const unknown = await submit(vipToken.key, 'music', song('hi'));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'model_not_found', data: null });

    const svip = await s.t.createUser({ quota: FUNDS, group: 'svip' });
    const svipToken = await addToken(s.t, svip.id, { remain_quota: FUNDS });
    await addChannel(s.t, {
      base_url: s.mock.url,
      type: 36,
      key: MOCK_SUNO_KEY,
      group: 'svip',
      models: 'suno_lyrics',
      status: CHANNEL_STATUS.manuallyDisabled,
    });
    const down = await submit(svipToken.key, 'lyrics', { prompt: 'hi' });
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ code: 'model_not_available', data: null });
    expect(s.mock.requests).toHaveLength(0);
  });

  it('refuses bad input with a clear 400 and charges nothing', async () => {
    const { token, bill } = await customer();
    const start = await bill();
    const cases: Array<[string, unknown, RegExp]> = [
      ['music', '{"prompt": ', /not valid JSON/],
      ['music', [1, 2], /must be a JSON object/],
      ['music', { prompt: 5 }, /prompt must be a string/],
      ['music', { prompt: 'x', make_instrumental: 'yes' }, /make_instrumental/],
      ['lyrics', { prompt: '  ' }, /prompt is required/],
      ['music', { prompt: 'x', continue_clip_id: 'clip' }, /task_id is required/],
      ['video', { prompt: 'x' }, /unknown action video/],
    ];
    for (const [action, body, message] of cases) {
      const res = await submit(token.key, action, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toMatch(message);
      expect(res.body.data).toBeNull();
      expect(typeof res.body.code).toBe('string');
    }
    const badFetch = await send(token.key, 'POST', '/suno/fetch', { ids: 'abc' });
    expect(badFetch.status).toBe(400);
    expect(badFetch.body).toMatchObject({ code: 'invalid_request', data: null });
    const unknownRoute = await send(token.key, 'GET', '/suno/account');
    expect(unknownRoute.status).toBe(404);
    expect(unknownRoute.body.data).toBeNull();
    expect(s.mock.requests).toHaveLength(0);
    expect(await bill()).toEqual(start);
  });

  it('tests a channel with a free fetch and says when the key is refused', async () => {
    const admin = await s.t.createUser({ role: ROLE.admin });
    const test = (id: number) => s.t.call({ method: 'GET', url: `/api/channel/test/${id}`, as: admin });
    const good = await test(channelId);
    expect(good.json()).toMatchObject({ success: true });
    expect(s.mock.lastRequest()?.path).toBe('/suno/fetch');
    expect(s.mock.lastRequest()?.body).toEqual({ ids: [] });
    expect(s.mock.tasks.size).toBe(0);

    await setOptions(s.t, { AutomaticDisableChannelEnabled: false });
    const wrongKey = await addChannel(s.t, {
      base_url: s.mock.url,
      type: 36,
      key: 'revoked-suno-key',
      group: 'nobody',
      models: 'suno_music',
    });
    const bad = await test(wrongKey);
    const body = bad.json<{ success: boolean; message: string }>();
    expect(body.success).toBe(false);
    expect(body.message).toMatch(/refused the channel's key/);
    expect(body.message).not.toContain('revoked-suno-key');
  });
});
