import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockUpstream } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { CHANNEL_STATUS, DEFAULT_AUTOMATIC_DISABLE_KEYWORDS, ROLE } from '@sluice/shared';
import { testDialects } from '../test-support/databases.js';
import { createTestApp } from '../test-support/test-app.js';
import type { Caller, TestApp } from '../test-support/test-app.js';
import { addChannel, addToken, setOptions } from '../test-support/relay-kit.js';
import type { TestToken } from '../test-support/relay-kit.js';
import { CHANNEL_REENABLE_JOB } from '../jobs/relay-jobs.js';
import { probeChannel } from './channel-probe.js';

describe.each(testDialects())('channel health on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let token: TestToken;
  let model = '';
  let n = 0;
  let root: Caller;

  beforeAll(async () => {
    mock = await startMockUpstream();
    t = await createTestApp({ dialect });
    const user = await t.createUser({ quota: 100_000_000 });
    token = await addToken(t, user.id, { unlimited_quota: 1 });
    root = await t.createUser({ role: ROLE.root });
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });
  beforeEach(async () => {
    model = `health-model-${++n}`;
    mock.reset();
    mock.setBehaviour(null);
    await setOptions(t, {
      ModelRatio: { [model]: 1 },
      RetryTimes: 1,
      AutomaticDisableChannelEnabled: true,
      AutomaticEnableChannelEnabled: false,
      ChannelDisableThreshold: 5,
      AutomaticDisableKeywords: DEFAULT_AUTOMATIC_DISABLE_KEYWORDS.join('\n'),
    });
  });

  const call = () =>
    t.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ model, messages: [{ role: 'user', content: 'are you there' }] }),
    });
  const channelRow = (id: number) =>
    t.db.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const abilityEnabled = async (id: number) =>
    (
      await t.db.db
        .selectFrom('abilities')
        .select('enabled')
        .where('channel_id', '=', id)
        .executeTakeFirstOrThrow()
    ).enabled;

  it('disables a channel whose key the upstream rejects, and serves the call from another', async () => {
    const bad = await addChannel(t, { base_url: mock.url, models: model, key: `bad-key-${n}`, priority: 5 });
    const good = await addChannel(t, { base_url: mock.url, models: model, priority: 0 });
    const res = await call();
    expect(res.statusCode).toBe(200);
    const row = await channelRow(bad);
    expect(row.status).toBe(CHANNEL_STATUS.autoDisabled);
    const info = JSON.parse(row.other_info) as { status_reason: string; status_time: number };
    expect(info.status_reason).toContain('401');
    expect(info.status_time).toBeGreaterThan(0);
    expect(await abilityEnabled(bad)).toBe(0);
    // The next call goes straight to the healthy channel.
    const seen = mock.requests.length;
    expect((await call()).statusCode).toBe(200);
    expect(mock.requests.slice(seen).map((r) => r.headers.authorization)).toEqual([
      `Bearer ${(await channelRow(good)).key}`,
    ]);
  });

  it('leaves the channel alone when auto_ban is off or automatic disabling is off', async () => {
    const noBan = await addChannel(t, { base_url: mock.url, models: model, key: `bad-a-${n}`, auto_ban: 0 });
    await call();
    expect((await channelRow(noBan)).status).toBe(CHANNEL_STATUS.enabled);
    await setOptions(t, { AutomaticDisableChannelEnabled: false });
    const off = await addChannel(t, { base_url: mock.url, models: model, key: `bad-b-${n}` });
    await call();
    await call();
    expect((await channelRow(off)).status).toBe(CHANNEL_STATUS.enabled);
  });

  it('disables a channel once most of its recent calls fail', async () => {
    await setOptions(t, { RetryTimes: 0 });
    const flaky = await addChannel(t, { base_url: mock.url, models: model, key: `flaky-${n}` });
    mock.setBehaviour({ status: 500 }, { key: `flaky-${n}` });
    for (let i = 0; i < 9; i++) expect((await call()).statusCode).toBe(500);
    expect((await channelRow(flaky)).status).toBe(CHANNEL_STATUS.enabled);
    expect((await call()).statusCode).toBe(500);
    const row = await channelRow(flaky);
    expect(row.status).toBe(CHANNEL_STATUS.autoDisabled);
    expect(JSON.parse(row.other_info).status_reason).toMatch(/10 of the last 10 calls failed/);
    expect((await call()).statusCode).toBe(503);
  });

  it('brings an auto-disabled channel back when its probe succeeds and automatic enabling is on', async () => {
    const id = await addChannel(t, {
      base_url: mock.url,
      models: model,
      key: `recovering-${n}`,
      status: CHANNEL_STATUS.autoDisabled,
    });
    expect((await call()).statusCode).toBe(503);
    await t.app.ctx.scheduler.runNow(CHANNEL_REENABLE_JOB);
    expect((await channelRow(id)).status).toBe(CHANNEL_STATUS.autoDisabled);

    await setOptions(t, { AutomaticEnableChannelEnabled: true });
    mock.setBehaviour({ status: 500 }, { key: `recovering-${n}` });
    await t.app.ctx.scheduler.runNow(CHANNEL_REENABLE_JOB);
    expect((await channelRow(id)).status).toBe(CHANNEL_STATUS.autoDisabled);

    mock.setBehaviour(null, { key: `recovering-${n}` });
    await t.app.ctx.scheduler.runNow(CHANNEL_REENABLE_JOB);
    expect((await channelRow(id)).status).toBe(CHANNEL_STATUS.enabled);
    expect((await call()).statusCode).toBe(200);
  });

  it('probes a channel with one real chat call through its adapter', async () => {
    const id = await addChannel(t, {
      base_url: mock.url,
      models: model,
      model_mapping: JSON.stringify({ [model]: 'mapped-name' }),
    });
    const ok = await probeChannel(t.app.ctx, await channelRow(id));
    expect(ok).toMatchObject({ ok: true, message: '' });
    expect(ok.timeMs).toBeGreaterThanOrEqual(0);
    expect((mock.lastRequest()?.body as { model: string }).model).toBe('mapped-name');

    const rejected = await addChannel(t, { base_url: mock.url, models: model, key: `bad-probe-${n}` });
    const failed = await probeChannel(t.app.ctx, await channelRow(rejected), model);
    expect(failed.ok).toBe(false);
    expect(failed.message).not.toBe('');

    // An Anthropic channel is probed in its own dialect (the OpenAI-shaped probe converted).
    const claude = await addChannel(t, { base_url: mock.url, models: model, type: 14 });
    expect((await probeChannel(t.app.ctx, await channelRow(claude))).ok).toBe(true);
    expect(mock.lastRequest()?.path).toBe('/v1/messages');
    // A type without an adapter is not probed at all.
    const baidu = await addChannel(t, { base_url: mock.url, models: model, type: 15, key: 'api|secret' });
    expect(await probeChannel(t.app.ctx, await channelRow(baidu))).toMatchObject({
      ok: false,
      untestable: true,
    });
  });

  describe('AutomaticDisableKeywords', () => {
    // Anthropic's answer when the prepaid balance is used up: a 400, which otherwise says nothing
    // about the channel (the caller's own mistakes are 400s too).
    const lowBalance = {
      status: 400,
      error: {
        message:
          'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
        type: 'invalid_request_error',
      },
    };

    it('disables a channel at once when its upstream error names a keyword of the default list', async () => {
      await setOptions(t, { RetryTimes: 0 });
      const broke = await addChannel(t, { base_url: mock.url, models: model, key: `broke-${n}` });
      mock.setBehaviour(lowBalance, { key: `broke-${n}` });
      expect((await call()).statusCode).toBe(400);
      const row = await channelRow(broke);
      expect(row.status).toBe(CHANNEL_STATUS.autoDisabled);
      const reason = (JSON.parse(row.other_info) as { status_reason: string }).status_reason;
      expect(reason).toContain('Your credit balance is too low');
      expect(await abilityEnabled(broke)).toBe(0);
      // Nothing else serves the model now: the next caller is told so instead of being sent there.
      expect((await call()).statusCode).toBe(503);
    });

    it('leaves the channel alone on other 400s, and when automatic disabling or auto_ban is off', async () => {
      await setOptions(t, { RetryTimes: 0 });
      const plain = await addChannel(t, { base_url: mock.url, models: model, key: `plain-${n}` });
      mock.setBehaviour(
        { status: 400, error: { message: 'max_tokens: 99999999 > 8192', type: 'invalid_request_error' } },
        { key: `plain-${n}` },
      );
      for (let i = 0; i < 3; i++) expect((await call()).statusCode).toBe(400);
      expect((await channelRow(plain)).status).toBe(CHANNEL_STATUS.enabled);

      mock.setBehaviour(lowBalance, { key: `plain-${n}` });
      await setOptions(t, { AutomaticDisableChannelEnabled: false });
      expect((await call()).statusCode).toBe(400);
      expect((await channelRow(plain)).status).toBe(CHANNEL_STATUS.enabled);

      await setOptions(t, { AutomaticDisableChannelEnabled: true });
      // Served first (higher priority), and marked by its operator as never to be disabled.
      const kept = await addChannel(t, {
        base_url: mock.url,
        models: model,
        key: `kept-${n}`,
        auto_ban: 0,
        priority: 10,
      });
      mock.setBehaviour(lowBalance, { key: `kept-${n}` });
      for (let i = 0; i < 2; i++) expect((await call()).statusCode).toBe(400);
      expect(mock.requests.at(-1)?.headers.authorization).toBe(`Bearer kept-${n}`);
      expect((await channelRow(kept)).status).toBe(CHANNEL_STATUS.enabled);
    });

    it('follows the list saved in the console: a phrase added disables, a phrase removed no longer does', async () => {
      await setOptions(t, { RetryTimes: 0 });
      const save = async (value: string) => {
        const res = await t.call({
          method: 'PUT',
          url: '/api/option/',
          as: root,
          payload: { key: 'AutomaticDisableKeywords', value },
        });
        expect(res.json()).toMatchObject({ success: true });
      };
      const capped = await addChannel(t, { base_url: mock.url, models: model, key: `capped-${n}` });
      mock.setBehaviour(
        { status: 429, error: { message: 'Monthly spend cap reached for project p-1', type: 'requests' } },
        { key: `capped-${n}` },
      );
      expect((await call()).statusCode).toBe(429);
      expect((await channelRow(capped)).status).toBe(CHANNEL_STATUS.enabled);
      // The classic console's monitoring card saves one phrase per line.
      await save('Your credit balance is too low\n\n  monthly SPEND CAP reached  \n');
      const listed = await t.call({ method: 'GET', url: '/api/option/', as: root });
      expect(listed.json<{ data: Array<{ key: string; value: string }> }>().data).toContainEqual({
        key: 'AutomaticDisableKeywords',
        value: 'Your credit balance is too low\n\n  monthly SPEND CAP reached  \n',
      });
      expect((await call()).statusCode).toBe(429);
      expect((await channelRow(capped)).status).toBe(CHANNEL_STATUS.autoDisabled);

      await save('Permission denied');
      const broke = await addChannel(t, { base_url: mock.url, models: model, key: `broke-${n}` });
      mock.setBehaviour(lowBalance, { key: `broke-${n}` });
      expect((await call()).statusCode).toBe(400);
      expect((await channelRow(broke)).status).toBe(CHANNEL_STATUS.enabled);
    });
  });
});
