import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockUpstream } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { CHANNEL_STATUS } from '@sluice/shared';
import { testDialects } from '../test-support/databases.js';
import { createTestApp } from '../test-support/test-app.js';
import type { TestApp } from '../test-support/test-app.js';
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

  beforeAll(async () => {
    mock = await startMockUpstream();
    t = await createTestApp({ dialect });
    const user = await t.createUser({ quota: 100_000_000 });
    token = await addToken(t, user.id, { unlimited_quota: 1 });
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

    const claude = await addChannel(t, { base_url: mock.url, models: model, type: 14 });
    expect((await probeChannel(t.app.ctx, await channelRow(claude))).ok).toBe(false);
  });
});
