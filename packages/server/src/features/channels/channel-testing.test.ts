import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MSG, ROLE } from '@sluice/shared';
import type { ChannelView } from '@sluice/shared';
import type { ChannelRow } from '../../db/tables.js';
import type { ProbeResult } from '../../relay/channel-probe.js';
import { testDialects } from '../../test-support/databases.js';
import { createTestApp, expectRefusal } from '../../test-support/test-app.js';
import type { Caller, TestApp } from '../../test-support/test-app.js';
import { channelTestsSettled } from './channel-testing.js';

// The relay's probe is replaced so each test decides what "the upstream" answered; the probe's own
// wire behaviour is the relay's to test.
const probe = vi.hoisted(() => ({
  calls: [] as { id: number; model: string | undefined }[],
  answer: (_channel: ChannelRow): Promise<ProbeResult> =>
    Promise.resolve({ ok: true, timeMs: 1234, message: '' }),
}));
vi.mock('../../relay/channel-probe.js', () => ({
  probeChannel: (_ctx: unknown, channel: ChannelRow, model?: string) => {
    probe.calls.push({ id: channel.id, model });
    return probe.answer(channel);
  },
}));

interface Body<T = unknown> {
  success: boolean;
  message: string;
  data: T;
  /** new-api's clients read the test's seconds beside the envelope. */
  time?: number;
}

describe.each(testDialects())('channel tests on %s', (dialect) => {
  let t: TestApp;
  let admin: Caller;

  const call = async <T = unknown>(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const res = await t.call({ method, url, as: admin, ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: res.json<Body<T>>(), res };
  };
  const create = async (payload: object = {}): Promise<number> =>
    (
      await call<{ ids: number[] }>('POST', '/api/channel/', {
        name: 'c',
        key: 'sk-c',
        models: 'first-model,second-model',
        ...payload,
      })
    ).body.data.ids[0] as number;
  const view = async (id: number) => (await call<ChannelView>('GET', `/api/channel/${id}`)).body.data;
  const setOption = (key: string, value: string) => t.app.ctx.options.set(key, value);

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.createUser({ role: ROLE.admin });
  });
  afterAll(async () => t?.close());
  beforeEach(async () => {
    probe.calls.length = 0;
    probe.answer = () => Promise.resolve({ ok: true, timeMs: 1234, message: '' });
    await setOption('AutomaticDisableChannelEnabled', 'false');
    await setOption('AutomaticEnableChannelEnabled', 'false');
    await setOption('ChannelDisableThreshold', '5');
    await t.db.db.deleteFrom('abilities').execute();
    await t.db.db.deleteFrom('channels').execute();
  });

  it('records the response time and answers the time in seconds', async () => {
    const id = await create();
    const res = await call<{ time: number }>('GET', `/api/channel/test/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: '', data: { time: 1.234 }, time: 1.234 });
    const after = await view(id);
    expect(after.response_time).toBe(1234);
    expect(after.test_time).toBeGreaterThan(0);
  });

  it('tests the asked model, else the test model, else the first model', async () => {
    const plain = await create();
    const withTestModel = await create({ test_model: 'second-model' });
    await call('GET', `/api/channel/test/${plain}?model=picked`);
    await call('GET', `/api/channel/test/${withTestModel}`);
    await call('GET', `/api/channel/test/${plain}`);
    expect(probe.calls.map((c) => c.model)).toEqual(['picked', 'second-model', 'first-model']);
  });

  it('answers a failed test with the upstream message and leaves the channel alone by default', async () => {
    probe.answer = () =>
      Promise.resolve({ ok: false, timeMs: 80, message: 'upstream said: invalid api key' });
    const id = await create();
    const res = await call<{ time: number }>('GET', `/api/channel/test/${id}`);
    expectRefusal(res.res, 'upstream said: invalid api key');
    expect(res.body).toMatchObject({ data: { time: 0.08 }, time: 0.08 });
    expect(await view(id)).toMatchObject({ status: 1, response_time: 80 });
  });

  it('disables a failing channel when automatic disabling is on and the channel allows it', async () => {
    await setOption('AutomaticDisableChannelEnabled', 'true');
    probe.answer = () => Promise.resolve({ ok: false, timeMs: 10, message: 'quota exceeded' });
    const banned = await create();
    const exempt = await create({ auto_ban: 0 });
    await call('GET', `/api/channel/test/${banned}`);
    await call('GET', `/api/channel/test/${exempt}`);
    const after = await view(banned);
    expect(after.status).toBe(3);
    expect(JSON.parse(after.other_info)).toMatchObject({ status_reason: 'quota exceeded' });
    expect(JSON.parse(after.other_info).status_time).toBeGreaterThan(0);
    const abilities = await t.db.db
      .selectFrom('abilities')
      .select('enabled')
      .where('channel_id', '=', banned)
      .execute();
    expect(abilities.map((a) => a.enabled)).toEqual([0, 0]);
    expect((await view(exempt)).status).toBe(1);
  });

  it('never disables a channel whose type cannot be tested, and records no time for it', async () => {
    await setOption('AutomaticDisableChannelEnabled', 'true');
    const reason = MSG.channelTypeNotTestable('Azure OpenAI (3)');
    probe.answer = () => Promise.resolve({ ok: false, untestable: true, timeMs: 0, message: reason });
    const id = await create({ type: 3 });
    const res = await call<{ time: number }>('GET', `/api/channel/test/${id}`);
    expectRefusal(res.res, reason);
    expect(res.body.time).toBe(0);
    expect(await view(id)).toMatchObject({ status: 1, response_time: 0, test_time: 0, other_info: '{}' });

    // An auto-disabled one is not brought back either: nothing was learnt about its upstream.
    await setOption('AutomaticEnableChannelEnabled', 'true');
    await t.db.db.updateTable('channels').set({ status: 3 }).where('id', '=', id).execute();
    await call('GET', `/api/channel/test/${id}`);
    expect((await view(id)).status).toBe(3);
  });

  it('re-enables an auto-disabled channel that passes when automatic enabling is on', async () => {
    const id = await create();
    await t.db.db.updateTable('channels').set({ status: 3 }).where('id', '=', id).execute();
    await call('GET', `/api/channel/test/${id}`);
    expect((await view(id)).status).toBe(3);
    await setOption('AutomaticEnableChannelEnabled', 'true');
    await call('GET', `/api/channel/test/${id}`);
    expect((await view(id)).status).toBe(1);
  });

  it('tests all channels in the background, once at a time, skipping hand-disabled ones', async () => {
    await setOption('AutomaticDisableChannelEnabled', 'true');
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = await create({ name: 'slow' });
    const fast = await create({ name: 'fast' });
    const off = await create({ name: 'off' });
    await call('PUT', '/api/channel/', { id: off, status: 2 });
    probe.answer = async (channel) => {
      await gate;
      return { ok: true, timeMs: channel.id === slow ? 6000 : 200, message: '' };
    };

    const first = await call('GET', '/api/channel/test');
    expect(first.status).toBe(200);
    expect(first.body.message).toBe(MSG.channelTestsStarted);
    const second = await call('GET', '/api/channel/test');
    expect({ status: second.status, message: second.body.message }).toEqual({
      status: 200,
      message: MSG.channelTestsRunning,
    });
    release();
    await channelTestsSettled(t.app.ctx);

    expect(probe.calls.map((c) => c.id).sort((a, b) => a - b)).toEqual([slow, fast].sort((a, b) => a - b));
    expect(await view(fast)).toMatchObject({ status: 1, response_time: 200 });
    const slowAfter = await view(slow);
    expect(slowAfter.status).toBe(3);
    expect(JSON.parse(slowAfter.other_info).status_reason).toContain('exceeds the threshold');
    expect((await view(off)).test_time).toBe(0);
    expect((await call('GET', '/api/channel/test')).status).toBe(200);
    await channelTestsSettled(t.app.ctx);
  });
});
