// Midjourney actions and options against the mock midjourney-proxy, on each database: an action on a
// drawing goes to the channel that drew it, naming it by the upstream's id, and is charged as its own
// model; the Mj* options do what they say (success check, account filter, mode flags, forwarded image
// URLs, notify hooks called by Sluice), and a path's speed mode reaches the proxy.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MOCK_MIDJOURNEY_SECRET, MOCK_PNG, startMockUpstream, withMock } from '@sluice/mock-upstream';
import type { MockDirective, MockUpstream } from '@sluice/mock-upstream';
import { testDialects } from '../test-support/databases.js';
import { addChannel, addToken, balances, listen, setOptions } from '../test-support/relay-kit.js';
import type { TestToken } from '../test-support/relay-kit.js';
import { createTestApp } from '../test-support/test-app.js';
import type { Caller, TestApp } from '../test-support/test-app.js';
import { relayRuntime } from './pipeline/relay-runtime.js';
import type { RelayRuntime } from './pipeline/relay-runtime.js';
import { pollTasks } from './tasks/task-poller.js';

const SECOND_SECRET = 'mj-second-secret';
const SERVER = 'https://sluice.example.com';
const MODELS = [
  'mj_imagine',
  'mj_upscale',
  'mj_variation',
  'mj_reroll',
  'mj_describe',
  'mj_blend',
  'mj_shorten',
  'mj_zoom',
  'mj_custom_zoom',
  'mj_pan',
  'mj_inpaint',
  'mj_modal',
  'mj_high_variation',
  'mj_low_variation',
  'swap_face',
];
/** Each model its own price, so a charge names the model it was priced as: 0.01, 0.02… dollars. */
const PRICES = Object.fromEntries(MODELS.map((m, i) => [m, (i + 1) / 100]));
const quotaOf = (model: string) => Math.round((PRICES[model] ?? 0) * 500_000);
const PNG_DATA_URL = `data:image/png;base64,${MOCK_PNG.toString('base64')}`;
const OTHER_DATA_URL = `data:image/jpeg;base64,${Buffer.from('another image').toString('base64')}`;

interface Answer {
  code: number;
  description: string;
  result: unknown;
  properties: Record<string, unknown>;
  type?: string;
}

interface Task {
  id: string;
  action: string;
  description: string;
  status: string;
  progress: string;
  imageUrl: string;
  buttons: Array<{ customId: string; label: string }>;
  properties: Record<string, unknown>;
}

/** A notify hook: records what Sluice posts to it. */
function hookServer() {
  const received: Task[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push(JSON.parse(Buffer.concat(chunks).toString()) as Task);
      res.writeHead(200).end('ok');
    });
  });
  return {
    received,
    start: () => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)),
    url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(testDialects())('Midjourney actions and options on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let rt: RelayRuntime;
  let base: string;
  let user: Caller;
  let token: TestToken;
  let first: number;
  const hook = hookServer();

  beforeAll(async () => {
    await hook.start();
    mock = await startMockUpstream({ midjourneySecrets: [MOCK_MIDJOURNEY_SECRET, SECOND_SECRET] });
    t = await createTestApp({ dialect });
    rt = relayRuntime(t.app.ctx);
    await setOptions(t, { ModelPrice: PRICES, ServerAddress: SERVER });
    user = await t.createUser({ quota: 100_000_000 });
    token = await addToken(t, user.id, { remain_quota: 100_000_000 });
    first = await addChannel(t, {
      type: 5,
      base_url: mock.url,
      key: MOCK_MIDJOURNEY_SECRET,
      models: MODELS.join(','),
    });
    base = await listen(t);
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
    await hook.close();
  });
  afterEach(async () => {
    await setOptions(t, {
      MjActionCheckSuccessEnabled: true,
      MjAccountFilterEnabled: false,
      MjModeClearEnabled: false,
      MjForwardUrlEnabled: true,
      MjNotifyEnabled: false,
    });
  });

  const send = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, json: (await res.json()) as unknown };
  };
  const submit = async (path: string, body: unknown) => {
    const res = await send('POST', path, body);
    return { status: res.status, answer: res.json as Answer };
  };
  /** Submits and returns Sluice's id of the task taken. */
  const taken = async (path: string, body: unknown, code = 1): Promise<string> => {
    const { status, answer } = await submit(path, body);
    expect({ status, code: answer.code, description: answer.description }).toMatchObject({
      status: 200,
      code,
    });
    return answer.result as string;
  };
  const imagine = (prompt: string, directive?: MockDirective, prefix = '') =>
    taken(`${prefix}/mj/submit/imagine`, { prompt: directive ? withMock(prompt, directive) : prompt });
  const fetchTask = async (id: string) => (await send('GET', `/mj/task/${id}/fetch`)).json as Task;
  const row = (mjId: string) =>
    t.db.db.selectFrom('midjourneys').selectAll().where('mj_id', '=', mjId).executeTakeFirstOrThrow();
  /** The mock's record of the task a row follows. */
  const upstreamTask = async (mjId: string) => {
    const task = mock.tasks.get((await row(mjId)).upstream_task_id);
    if (!task) throw new Error(`the mock has no task for ${mjId}`);
    return task;
  };
  const chargedModel = async (mjId: string) => {
    const log = await t.db.db
      .selectFrom('logs')
      .select(['model_name', 'quota', 'channel_id'])
      .where('content', 'like', `%task ${mjId}%`)
      .where('type', '=', 2)
      .executeTakeFirstOrThrow();
    return { model: log.model_name, quota: Number(log.quota), channel: Number(log.channel_id) };
  };
  /** Polls until the drawing is done (the mock's tasks take two reads by default). */
  const finished = async (id: string): Promise<Task> => {
    for (let i = 0; i < 4; i++) {
      const task = await fetchTask(id);
      if (task.status === 'SUCCESS' || task.status === 'FAILURE') return task;
      await pollTasks(rt);
    }
    return fetchTask(id);
  };

  it('sends actions to the channel that drew the task, by the upstream’s id, each charged as its model', async () => {
    const drawing = await imagine('a harbour');
    const grid = await finished(drawing);
    expect(grid.status).toBe('SUCCESS');
    const drawingUpstream = (await row(drawing)).upstream_task_id;
    // A second channel now comes first for new drawings…
    const second = await addChannel(t, {
      type: 5,
      base_url: mock.url,
      key: SECOND_SECRET,
      models: MODELS.join(','),
      priority: 10,
    });
    const fresh = await imagine('a second harbour');
    expect((await upstreamTask(fresh)).key).toBe(SECOND_SECRET);
    expect((await chargedModel(fresh)).channel).toBe(second);

    // …but an action on the first drawing goes where it was drawn.
    const upscale = await taken('/mj/submit/change', { taskId: drawing, action: 'UPSCALE', index: 1 });
    expect(upscale).toMatch(/^\d{19}$/);
    const upscaleTask = await upstreamTask(upscale);
    expect(upscaleTask).toMatchObject({ key: MOCK_MIDJOURNEY_SECRET, action: 'UPSCALE' });
    expect(upscaleTask.body).toMatchObject({ taskId: drawingUpstream, action: 'UPSCALE', index: 1 });
    expect(await chargedModel(upscale)).toEqual({
      model: 'mj_upscale',
      quota: quotaOf('mj_upscale'),
      channel: first,
    });
    expect((await row(upscale)).prompt).toBe('a harbour');

    const variation = await taken('/mj/submit/simple-change', { content: `${drawing} V2` });
    expect((await upstreamTask(variation)).body).toMatchObject({ content: `${drawingUpstream} V2` });
    expect((await chargedModel(variation)).model).toBe('mj_variation');

    const reroll = await taken('/mj/submit/action', {
      taskId: drawing,
      customId: grid.buttons.find((b) => b.customId.includes('reroll'))?.customId,
    });
    expect((await chargedModel(reroll)).model).toBe('mj_reroll');

    // The upscale's description names the drawing it came from by Sluice's id.
    const upscaled = await finished(upscale);
    expect(upscaled.description).toBe(`/up ${drawing} U1`);
    expect(JSON.stringify(upscaled)).not.toContain(drawingUpstream);

    // Its buttons, each priced as the action the customId stands for.
    const press = async (match: string) => {
      const button = upscaled.buttons.find((b) => b.customId.includes(match));
      if (!button) throw new Error(`no ${match} button`);
      return {
        status: (await submit('/mj/submit/action', { taskId: upscale, customId: button.customId })).answer,
      };
    };
    for (const [match, model] of [
      ['low_variation', 'mj_low_variation'],
      ['high_variation', 'mj_high_variation'],
      ['Outpaint::50', 'mj_zoom'],
      ['pan_left', 'mj_pan'],
    ] as const) {
      const { status: answer } = await press(match);
      expect({ match, code: answer.code }).toEqual({ match, code: 1 });
      expect((await chargedModel(answer.result as string)).model).toBe(model);
    }

    // Vary (Region) waits for its window (code 21), then /modal confirms it.
    const { status: inpaint } = await press('Inpaint');
    expect(inpaint.code).toBe(21);
    const inpaintId = inpaint.result as string;
    expect((await chargedModel(inpaintId)).model).toBe('mj_inpaint');
    expect((await fetchTask(inpaintId)).status).toBe('MODAL');
    const modal = await taken('/mj/submit/modal', {
      taskId: inpaintId,
      prompt: 'a boat',
      maskBase64: PNG_DATA_URL,
    });
    expect(await chargedModel(modal)).toMatchObject({ model: 'mj_modal', channel: first });
    expect((await upstreamTask(modal)).id).toBe((await row(inpaintId)).upstream_task_id);
    expect((await finished(modal)).status).toBe('SUCCESS');
    expect((await finished(inpaintId)).status).toBe('SUCCESS');

    // A disabled channel takes no more actions on its drawings.
    await t.db.db.updateTable('channels').set({ status: 2 }).where('id', '=', first).execute();
    t.app.ctx.bus.publish('channels');
    const refused = await submit('/mj/submit/change', { taskId: drawing, action: 'UPSCALE', index: 2 });
    expect(refused.status).toBe(503);
    expect(refused.answer.type).toBe('channel_disabled');
    await t.db.db.updateTable('channels').set({ status: 1 }).where('id', '=', first).execute();
    t.app.ctx.bus.publish('channels');
    await t.db.db.deleteFrom('abilities').where('channel_id', '=', second).execute();
    await t.db.db.deleteFrom('channels').where('id', '=', second).execute();
    t.app.ctx.bus.publish('channels');
  });

  it('acts only on a finished task when MjActionCheckSuccessEnabled is on, and lets the proxy judge when off', async () => {
    const drawing = await imagine('a kite', { task_outcome: 'stuck' });
    const ids = { userId: user.id, tokenId: token.id, channelIds: [first] };
    const before = await balances(t, ids);
    const sent = mock.requests.length;
    const checked = await submit('/mj/submit/change', { taskId: drawing, action: 'UPSCALE', index: 1 });
    expect(checked.status).toBe(400);
    expect(checked.answer).toMatchObject({ code: 4, type: 'task_not_succeeded' });
    expect(mock.requests.length).toBe(sent);

    await setOptions(t, { MjActionCheckSuccessEnabled: false });
    const judged = await submit('/mj/submit/change', { taskId: drawing, action: 'UPSCALE', index: 1 });
    expect(judged.status).toBe(200);
    expect(judged.answer).toMatchObject({
      code: 4,
      description: 'The associated task status is wrong',
      result: null,
    });
    expect(await balances(t, ids)).toEqual(before);
  });

  it('passes accountFilter upstream only with MjAccountFilterEnabled, and strips speed flags with MjModeClearEnabled', async () => {
    const filter = { instanceId: 'account-7' };
    const dropped = await taken('/mj/submit/imagine', { prompt: 'a cat --fast', accountFilter: filter });
    expect((await upstreamTask(dropped)).body).toEqual({ prompt: 'a cat --fast' });

    await setOptions(t, { MjAccountFilterEnabled: true, MjModeClearEnabled: true });
    const kept = await taken('/mj/submit/imagine', {
      prompt: 'a cat --fast --ar 16:9 --relax',
      accountFilter: filter,
    });
    const body = (await upstreamTask(kept)).body as { prompt: string; accountFilter: unknown };
    expect(body.accountFilter).toEqual(filter);
    expect(body.prompt).not.toMatch(/--(fast|relax|turbo)/);
    expect(body.prompt).toContain('--ar 16:9');
  });

  it('asks the proxy for the speed a path prefix names', async () => {
    for (const mode of ['fast', 'turbo', 'relax'] as const) {
      const id = await imagine(`a ${mode} drawing`, undefined, `/${mode}`);
      expect((await upstreamTask(id)).mode).toBe(mode);
      expect(mock.requests.at(-1)?.path).toBe(`/mj-${mode}/mj/submit/imagine`);
    }
    const plain = await imagine('a plain drawing');
    expect((await upstreamTask(plain)).mode).toBeUndefined();
    await finished(plain);
    const seed = await send('GET', `/fast/mj/task/${plain}/image-seed`);
    expect(seed.status).toBe(200);
    expect(seed.json).toMatchObject({ code: 1, result: expect.stringMatching(/^\d+$/) });
    expect(mock.requests.at(-1)?.path).toBe(
      `/mj-fast/mj/task/${(await row(plain)).upstream_task_id}/image-seed`,
    );
  });

  it('shows the upstream’s image URL when MjForwardUrlEnabled is off, and serves no image then', async () => {
    await setOptions(t, { MjForwardUrlEnabled: false });
    const id = await imagine('a bridge');
    const task = await finished(id);
    expect(task.imageUrl).toBe(`${mock.url}/mj/attachments/${(await row(id)).upstream_task_id}.png`);
    expect((await fetch(`${base}/mj/image/${id}`)).status).toBe(404);
    await setOptions(t, { MjForwardUrlEnabled: true });
    expect((await fetchTask(id)).imageUrl).toBe(`${SERVER}/mj/image/${id}`);
    expect((await fetch(`${base}/mj/image/${id}`)).status).toBe(200);
  });

  it('calls the notify hook itself with MjNotifyEnabled, and ignores the hook without it', async () => {
    const ignored = await taken('/mj/submit/imagine', { prompt: 'unheard', notifyHook: hook.url() });
    expect((await row(ignored)).notify_hook).toBeNull();
    expect((await upstreamTask(ignored)).body).not.toHaveProperty('notifyHook');
    await finished(ignored);

    await setOptions(t, { MjNotifyEnabled: true });
    const heard = await taken('/mj/submit/imagine', { prompt: 'heard', notifyHook: hook.url() });
    expect((await row(heard)).notify_hook).toBe(hook.url());
    expect((await upstreamTask(heard)).body).not.toHaveProperty('notifyHook');
    await finished(heard);
    await expect
      .poll(() => hook.received.map((task) => [task.status, task.progress]), { timeout: 5000 })
      .toEqual([
        ['IN_PROGRESS', '50%'],
        ['SUCCESS', '100%'],
      ]);
    expect(hook.received.every((task) => task.id === heard)).toBe(true);
    expect(hook.received.at(-1)?.imageUrl).toBe(`${SERVER}/mj/image/${heard}`);
    const bad = await submit('/mj/submit/imagine', { prompt: 'x', notifyHook: 'ftp://nowhere' });
    expect(bad.status).toBe(400);
  });

  it('charges describe, blend, shorten and face swap as their models', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['/mj/submit/describe', { base64: PNG_DATA_URL }, 'mj_describe'],
      ['/mj/submit/blend', { base64Array: [PNG_DATA_URL, OTHER_DATA_URL] }, 'mj_blend'],
      ['/mj/submit/shorten', { prompt: 'a very long and winding prompt' }, 'mj_shorten'],
      ['/mj/insight-face/swap', { sourceBase64: PNG_DATA_URL, targetBase64: OTHER_DATA_URL }, 'swap_face'],
    ];
    for (const [path, body, model] of cases) {
      const id = await taken(path, body);
      expect(await chargedModel(id)).toEqual({ model, quota: quotaOf(model), channel: first });
      expect((await finished(id)).status).toBe('SUCCESS');
    }
  });
});
