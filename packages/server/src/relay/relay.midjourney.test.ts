// The Midjourney relay against the mock midjourney-proxy, over real HTTP, on each database: a drawing
// is charged once when the proxy takes it, followed to its end by the poller, refunded exactly once
// when it fails or times out (however many pollers race), never charged when refused; clients see
// Sluice's ids and their own tasks only, in the proxy's shape.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOG_TYPE, ROLE } from '@sluice/shared';
import { MOCK_MIDJOURNEY_SECRET, MOCK_PNG, startMockUpstream, withMock } from '@sluice/mock-upstream';
import type { MockDirective, MockUpstream } from '@sluice/mock-upstream';
import { testDialects } from '../test-support/databases.js';
import { addChannel, addToken, balances, listen, setOptions } from '../test-support/relay-kit.js';
import type { Balances, TestToken } from '../test-support/relay-kit.js';
import { createTestApp } from '../test-support/test-app.js';
import type { Caller, TestApp } from '../test-support/test-app.js';
import { relayRuntime } from './pipeline/relay-runtime.js';
import type { RelayRuntime } from './pipeline/relay-runtime.js';
import { IMAGE_LIMIT } from './tasks/midjourney/image-proxy.js';
import { pollTasks } from './tasks/task-poller.js';

const SERVER = 'https://sluice.example.com';
const GROUP_RATIO = 2;
/** $ per call; quota = price × 500,000 × group ratio. */
const PRICES = { mj_imagine: 0.1, mj_upscale: 0.05, mj_describe: 0.02, mj_uploads: 0.01 };
const quotaOf = (model: keyof typeof PRICES) => Math.round(PRICES[model] * 500_000 * GROUP_RATIO);
const PNG_DATA_URL = `data:image/png;base64,${MOCK_PNG.toString('base64')}`;

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
  prompt: string;
  promptEn: string;
  description: string;
  status: string;
  progress: string;
  imageUrl: string;
  failReason: string;
  submitTime: number;
  startTime: number;
  finishTime: number;
  buttons: Array<{ customId: string; label: string }>;
  properties: Record<string, unknown>;
}

describe.each(testDialects())('the Midjourney relay on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let rt: RelayRuntime;
  let base: string;
  let user: Caller;
  let token: TestToken;
  let channelId: number;

  beforeAll(async () => {
    mock = await startMockUpstream();
    t = await createTestApp({ dialect });
    rt = relayRuntime(t.app.ctx);
    await setOptions(t, { ModelPrice: PRICES, GroupRatio: { default: GROUP_RATIO }, ServerAddress: SERVER });
    user = await t.createUser({ quota: 10_000_000 });
    token = await addToken(t, user.id, { remain_quota: 10_000_000 });
    channelId = await addChannel(t, {
      type: 5,
      base_url: mock.url,
      key: MOCK_MIDJOURNEY_SECRET,
      models: Object.keys(PRICES).join(','),
    });
    base = await listen(t);
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  const send = async (
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { 'mj-api-secret': token.key, 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      text,
      json: text ? (JSON.parse(text) as unknown) : undefined,
    };
  };
  const submit = async (path: string, body: unknown, headers?: Record<string, string>) => {
    const res = await send('POST', path, body, headers);
    return { status: res.status, answer: res.json as Answer };
  };
  const imagine = (prompt: string, directive?: MockDirective) =>
    submit('/mj/submit/imagine', { prompt: directive ? withMock(prompt, directive) : prompt });
  const fetchTask = async (id: string, key = token.key) => {
    const res = await send('GET', `/mj/task/${id}/fetch`, undefined, { 'mj-api-secret': key });
    return { status: res.status, task: res.json as Task };
  };
  const ids = () => ({ userId: user.id, tokenId: token.id, channelIds: [channelId] });
  const row = (mjId: string) =>
    t.db.db.selectFrom('midjourneys').selectAll().where('mj_id', '=', mjId).executeTakeFirstOrThrow();
  const logsNaming = (mjId: string, type: number) =>
    t.db.db
      .selectFrom('logs')
      .selectAll()
      .where('type', '=', type)
      .where('content', 'like', `%${mjId}%`)
      .execute();
  const spent = (before: Balances, after: Balances) => ({
    user: before.userQuota - after.userQuota,
    userUsed: after.userUsed - before.userUsed,
    token: before.tokenRemain - after.tokenRemain,
    tokenUsed: after.tokenUsed - before.tokenUsed,
    channel: after.channelUsed - before.channelUsed,
  });
  const charged = (quota: number) => ({
    user: quota,
    userUsed: quota,
    token: quota,
    tokenUsed: quota,
    channel: quota,
  });

  it('charges a drawing once when the proxy takes it, and follows it to its image under Sluice’s id', async () => {
    const before = await balances(t, ids());
    const { status, answer } = await imagine('a lighthouse at dusk');
    expect(status).toBe(200);
    expect(answer.code).toBe(1);
    const id = answer.result as string;
    expect(id).toMatch(/^\d{19}$/);
    // The upstream's id stays with Sluice; the client never sees it.
    const upstreamId = (await row(id)).upstream_task_id;
    expect(mock.tasks.has(upstreamId)).toBe(true);
    expect(upstreamId).not.toBe(id);
    const sent = mock.requests.find((r) => r.path === '/mj/submit/imagine');
    expect(sent?.headers['mj-api-secret']).toBe(MOCK_MIDJOURNEY_SECRET);
    expect(sent?.body).toMatchObject({ prompt: 'a lighthouse at dusk' });

    const afterSubmit = await balances(t, ids());
    expect(spent(before, afterSubmit)).toEqual(charged(quotaOf('mj_imagine')));
    expect(afterSubmit.requestCount - before.requestCount).toBe(1);
    const [log] = await logsNaming(id, LOG_TYPE.consume);
    expect(log).toMatchObject({
      model_name: 'mj_imagine',
      quota: quotaOf('mj_imagine'),
      channel_id: channelId,
    });
    expect(JSON.parse(log?.other ?? '{}')).toMatchObject({ task_id: id, model_price: 0.1, group_ratio: 2 });

    expect((await fetchTask(id)).task).toMatchObject({
      id,
      action: 'IMAGINE',
      status: 'SUBMITTED',
      progress: '0%',
    });
    await pollTasks(rt);
    expect((await fetchTask(id)).task).toMatchObject({ status: 'IN_PROGRESS', progress: '50%' });
    await pollTasks(rt);
    const { task } = await fetchTask(id);
    expect(task).toMatchObject({
      id,
      status: 'SUCCESS',
      progress: '100%',
      imageUrl: `${SERVER}/mj/image/${id}`,
      prompt: 'a lighthouse at dusk',
      promptEn: 'a lighthouse at dusk',
      properties: { finalPrompt: 'a lighthouse at dusk' },
    });
    expect(task.buttons.map((b) => b.label)).toContain('U1');
    expect(task.finishTime).toBeGreaterThanOrEqual(task.submitTime);
    // Sluice's ids only, everywhere in the task.
    expect(JSON.stringify(task)).not.toContain(upstreamId);
    expect((await row(id)).image_url).toBe(`${mock.url}/mj/attachments/${upstreamId}.png`);

    // Charged once for all of it; success refunds nothing.
    expect(spent(before, await balances(t, ids()))).toEqual(charged(quotaOf('mj_imagine')));
    expect(await logsNaming(id, LOG_TYPE.system)).toEqual([]);

    // The image behind Sluice's address, without a key (pages embed it).
    const image = await fetch(`${base}/mj/image/${id}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer()).equals(MOCK_PNG)).toBe(true);
    expect((await fetch(`${base}/mj/image/1234567890123456789`)).status).toBe(404);
  });

  it('takes the token as a Bearer key too, and refuses a call without one in the proxy’s shape', async () => {
    const bearer = await submit(
      '/mj/submit/imagine',
      { prompt: 'a fox' },
      {
        'mj-api-secret': '',
        authorization: `Bearer ${token.key}`,
      },
    );
    expect(bearer.answer.code).toBe(1);
    const none = await submit('/mj/submit/imagine', { prompt: 'a fox' }, { 'mj-api-secret': '' });
    expect(none.status).toBe(401);
    expect(none.answer).toMatchObject({ code: 4, result: null, type: 'missing_api_key' });
    expect(none.answer.description).toContain('no API key');
  });

  it('refunds a failed drawing exactly once, with a system log, when pollers race', async () => {
    const before = await balances(t, ids());
    const { answer } = await imagine('a storm', {
      task_outcome: 'failure',
      task_steps: 1,
      task_fail_reason: 'banned',
    });
    const id = answer.result as string;
    expect(spent(before, await balances(t, ids()))).toEqual(charged(quotaOf('mj_imagine')));
    await Promise.all([pollTasks(rt), pollTasks(rt), pollTasks(rt)]);
    const { task } = await fetchTask(id);
    expect(task).toMatchObject({ status: 'FAILURE', failReason: 'banned', progress: '100%' });
    await pollTasks(rt);
    const after = await balances(t, ids());
    expect(spent(before, after)).toEqual(charged(0));
    const refunds = await logsNaming(id, LOG_TYPE.system);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]?.content).toContain(`${quotaOf('mj_imagine')} quota refunded`);
    expect(JSON.parse(refunds[0]?.other ?? '{}')).toMatchObject({
      task_id: id,
      refund_quota: quotaOf('mj_imagine'),
    });
  });

  it('passes a refused submit on as the proxy said it, and charges nothing', async () => {
    const before = await balances(t, ids());
    const rows = await t.db.db.selectFrom('midjourneys').select('id').execute();
    const { status, answer } = await imagine('nude', { submit_code: 24 });
    expect(status).toBe(200);
    expect(answer).toMatchObject({ code: 24, description: 'May contain sensitive words', result: null });
    expect(answer.properties).toMatchObject({ bannedWord: expect.any(String) });
    const queueFull = await imagine('a queue', { submit_code: 23 });
    expect(queueFull.answer.code).toBe(23);
    // An upstream in trouble: a proxy-shaped 5xx is not the caller's fault, and is never charged either.
    const down = await imagine('an outage', { status: 500 });
    expect(down.status).toBe(502);
    expect(down.answer).toMatchObject({ code: 9, type: 'upstream_error' });
    expect(spent(before, await balances(t, ids()))).toEqual(charged(0));
    expect(await t.db.db.selectFrom('midjourneys').select('id').execute()).toHaveLength(rows.length);
  });

  it('fails and refunds a drawing that never ends, once the timeout has passed', async () => {
    const before = await balances(t, ids());
    const { answer } = await imagine('a slow one', { task_outcome: 'stuck' });
    const id = answer.result as string;
    await pollTasks(rt);
    expect((await fetchTask(id)).task.status).toBe('IN_PROGRESS');
    const { timeoutMinutes } = t.app.ctx.config.tasks;
    await pollTasks(rt, Date.now() + (timeoutMinutes + 1) * 60_000);
    const { task } = await fetchTask(id);
    expect(task.status).toBe('FAILURE');
    expect(task.failReason).toContain(`${timeoutMinutes} minutes`);
    expect(spent(before, await balances(t, ids()))).toEqual(charged(0));
    expect(await logsNaming(id, LOG_TYPE.system)).toHaveLength(1);
  });

  it('shows each caller only their own tasks', async () => {
    const { answer } = await imagine('mine');
    const id = answer.result as string;
    const other = await t.createUser({ quota: 1_000_000 });
    const otherToken = await addToken(t, other.id);
    const theirs = await fetchTask(id, otherToken.key);
    expect(theirs.status).toBe(404);
    expect((theirs.task as unknown as Answer).code).toBe(3);
    const listed = await send(
      'POST',
      '/mj/task/list-by-condition',
      { ids: [id] },
      { 'mj-api-secret': otherToken.key },
    );
    expect(listed.json).toEqual([]);
    const mine = await send('POST', '/mj/task/list-by-condition', { ids: [id, '42'] });
    expect((mine.json as Task[]).map((task) => task.id)).toEqual([id]);
    // Nor act on them, nor read their seed.
    const change = await submit(
      '/mj/submit/change',
      { taskId: id, action: 'UPSCALE', index: 1 },
      { 'mj-api-secret': otherToken.key },
    );
    expect(change.status).toBe(404);
    const seed = await send('GET', `/mj/task/${id}/image-seed`, undefined, {
      'mj-api-secret': otherToken.key,
    });
    expect(seed.status).toBe(404);
  });

  it('charges an upload as mj_uploads and answers its URLs, with no task left to poll', async () => {
    const before = await balances(t, ids());
    const { answer } = await submit('/mj/submit/upload-discord-images', { base64Array: [PNG_DATA_URL] });
    expect(answer.code).toBe(1);
    expect(answer.result).toEqual([
      expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/mj\/attachments\/upload-/),
    ]);
    expect(spent(before, await balances(t, ids()))).toEqual(charged(quotaOf('mj_uploads')));
    const uploads = await t.db.db
      .selectFrom('midjourneys')
      .selectAll()
      .where('action', '=', 'UPLOAD')
      .execute();
    expect(uploads).toHaveLength(1);
    expect(uploads[0]).toMatchObject({ status: 'SUCCESS', progress: '100%' });
  });

  it('refuses bad input with a clear 400 in the proxy’s shape, before anything is held or sent', async () => {
    const before = await balances(t, ids());
    const sentBefore = mock.requests.length;
    const cases: Array<[string, unknown, string]> = [
      ['/mj/submit/imagine', {}, 'prompt'],
      ['/mj/submit/imagine', { prompt: '   ' }, 'prompt'],
      ['/mj/submit/change', { taskId: '1', action: 'ZOOM', index: 1 }, 'action'],
      ['/mj/submit/change', { taskId: '1', action: 'UPSCALE' }, 'index'],
      ['/mj/submit/simple-change', { content: '123 X9' }, 'content'],
      ['/mj/submit/action', { taskId: '1', customId: 'MJ::Unknown::1' }, 'customId'],
      ['/mj/submit/blend', { base64Array: [PNG_DATA_URL] }, 'base64Array'],
      ['/mj/submit/describe', {}, 'base64'],
      ['/mj/insight-face/swap', { sourceBase64: PNG_DATA_URL }, 'targetBase64'],
      ['/mj/submit/imagine', '{"prompt": ', 'JSON'],
      ['/mj/submit/imagine', [], 'object'],
      ['/mj/submit/imagine', { prompt: 'a \u0000 cat' }, 'prompt must not contain a NUL'],
      ['/mj/task/list-by-condition', { ids: ['1\u0000'] }, 'ids.0 must not contain a NUL'],
    ];
    for (const [path, body, mention] of cases) {
      const { status, answer } = await submit(path, body);
      expect({ path, status, code: answer.code }).toEqual({ path, status: 400, code: 4 });
      expect(answer.description).toContain(mention);
    }
    const unknownTask = await submit('/mj/submit/change', { taskId: '999', action: 'UPSCALE', index: 1 });
    expect(unknownTask.status).toBe(404);
    expect(unknownTask.answer).toMatchObject({ code: 3, description: 'task 999 not found' });
    expect((await fetchTask('12%00')).status).toBe(400);
    const notListed = await fetchTask('not-a-task');
    expect(notListed.status).toBe(404);
    expect(mock.requests.length).toBe(sentBefore);
    expect(spent(before, await balances(t, ids()))).toEqual(charged(0));
  });

  it('answers 404 model_not_found for an action no channel of the group lists', async () => {
    const { status, answer } = await submit('/mj/submit/shorten', { prompt: 'a very long prompt' });
    expect(status).toBe(404);
    expect(answer).toMatchObject({ code: 3, type: 'model_not_found' });
  });

  it('serves only raster images through /mj/image, within the size cap', async () => {
    // Where a drawing's stored image URL points: an image host that answers by path.
    const host = createServer((req, res) => {
      const kinds: Record<string, [string, string | Buffer, Record<string, string>?]> = {
        '/page.png': ['text/html', '<script>alert(1)</script>'],
        '/vector.svg': ['image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg"/>'],
        '/huge.png': ['image/png', MOCK_PNG, { 'content-length': String(IMAGE_LIMIT + 1) }],
        '/fine.webp': ['image/webp', MOCK_PNG],
      };
      const [type, body, headers] = kinds[req.url ?? ''] ?? ['text/plain', 'missing'];
      res.writeHead(kinds[req.url ?? ''] ? 200 : 404, { 'content-type': type, ...headers });
      // The huge one announces more than the cap and sends a first piece: refused on its announcement.
      if (headers) res.write(body);
      else res.end(body);
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    try {
      const at = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
      const { answer } = await imagine('a picture');
      const id = answer.result as string;
      const served = async (path: string) => {
        await t.db.db
          .updateTable('midjourneys')
          .set({ image_url: `${at}${path}` })
          .where('mj_id', '=', id)
          .execute();
        const res = await fetch(`${base}/mj/image/${id}`);
        return {
          status: res.status,
          type: res.headers.get('content-type'),
          body: Buffer.from(await res.arrayBuffer()),
        };
      };
      for (const path of ['/page.png', '/vector.svg', '/huge.png', '/gone.png']) {
        const res = await served(path);
        expect({ path, status: res.status }).toEqual({ path, status: 502 });
        expect(JSON.parse(res.body.toString())).toMatchObject({ code: 9 });
      }
      const fine = await served('/fine.webp');
      expect(fine).toMatchObject({ status: 200, type: 'image/webp' });
      expect(fine.body.equals(MOCK_PNG)).toBe(true);
    } finally {
      host.closeAllConnections();
      await new Promise<void>((resolve) => host.close(() => resolve()));
    }
  });

  it("tests the channel with a free query, and says so when the proxy refuses the channel's key", async () => {
    const admin = await t.createUser({ role: ROLE.admin });
    const good = await t.call({ method: 'GET', url: `/api/channel/test/${channelId}`, as: admin });
    expect(good.json()).toMatchObject({ success: true });
    const wrong = await addChannel(t, { type: 2, base_url: mock.url, key: 'mj-wrong', models: 'mj_blend' });
    const bad = await t.call({ method: 'GET', url: `/api/channel/test/${wrong}`, as: admin });
    const body = bad.json<{ success: boolean; message: string }>();
    expect(body.success).toBe(false);
    expect(body.message).toContain("refused the channel's key");
    expect(body.message).not.toContain('mj-wrong');

    // A drawing sent there is refused as the service's fault (never the caller's 401), and not charged.
    await setOptions(t, { ModelPrice: { ...PRICES, mj_blend: 0.1 } });
    const before = await balances(t, ids());
    const { status, answer } = await submit('/mj/submit/blend', {
      base64Array: [PNG_DATA_URL, PNG_DATA_URL],
    });
    expect(status).toBe(503);
    expect(answer).toMatchObject({ code: 9, type: 'upstream_unavailable' });
    expect(answer.description).not.toContain('mj-wrong');
    expect(spent(before, await balances(t, ids()))).toEqual(charged(0));
  });
});
