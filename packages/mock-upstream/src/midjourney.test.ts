import { describe, expect, it } from 'vitest';
import { withMock, type MockDirective } from './directive.js';
import { MOCK_PNG } from './routes/images.js';
import { MOCK_MIDJOURNEY_SECRET } from './routes/midjourney.js';
import { startMockUpstream, type MockUpstream } from './server.js';
import { json, useMockUpstream } from './test-support/test-kit.js';

let mock: MockUpstream;
const SECRET = { 'mj-api-secret': MOCK_MIDJOURNEY_SECRET };
const { call, post } = useMockUpstream((started) => {
  mock = started;
}, SECRET);

interface SubmitAnswer {
  code: number;
  description: string;
  result: unknown;
  properties: Record<string, unknown>;
}

interface Button {
  customId: string;
  label: string;
  emoji: string;
  type: number;
  style: number;
}

interface MjTask {
  id: string;
  action: string;
  customId: string | null;
  prompt: string | null;
  promptEn: string | null;
  description: string;
  state: string | null;
  submitTime: number;
  startTime: number | null;
  finishTime: number | null;
  imageUrl: string | null;
  status: string;
  progress: string;
  failReason: string | null;
  buttons: Button[];
  properties: Record<string, unknown>;
}

const PNG_DATA_URL = `data:image/png;base64,${MOCK_PNG.toString('base64')}`;
const OTHER_DATA_URL = `data:image/jpeg;base64,${Buffer.from('another image').toString('base64')}`;

async function submit(path: string, body: unknown, headers: Record<string, string> = SECRET) {
  const res = await post(path, body, headers);
  expect(res.status).toBe(200);
  return json(res.text) as unknown as SubmitAnswer;
}

async function imagine(prompt: string, directive?: MockDirective, prefix = '') {
  const answer = await submit(`${prefix}/mj/submit/imagine`, {
    prompt: directive ? withMock(prompt, directive) : prompt,
  });
  expect(answer.code).toBe(1);
  return String(answer.result);
}

async function fetchTask(id: string, prefix = ''): Promise<MjTask> {
  const res = await call('GET', `${prefix}/mj/task/${id}/fetch`);
  expect(res.status).toBe(200);
  return JSON.parse(res.text) as MjTask;
}

/** Fetches until the task ends (at most 10 reads). */
async function finish(id: string): Promise<MjTask> {
  for (let i = 0; i < 10; i++) {
    const task = await fetchTask(id);
    if (task.status === 'SUCCESS' || task.status === 'FAILURE') return task;
  }
  throw new Error(`task ${id} did not finish`);
}

describe('the mj-api-secret', () => {
  it('refuses a missing or wrong secret with an empty 401, as the proxy does', async () => {
    const attempts: Record<string, string>[] = [{}, { 'mj-api-secret': 'not-the-secret' }];
    for (const headers of attempts) {
      const res = await post('/mj/task/list-by-condition', { ids: [] }, headers);
      expect(res.status).toBe(401);
      expect(res.text).toBe('');
    }
    expect(mock.requests.map((r) => r.status)).toEqual([401, 401]);
  });

  it('answers the free key check, an empty list-by-condition, with the right secret', async () => {
    const res = await post('/mj/task/list-by-condition', { ids: [] });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual([]);
  });

  it('accepts the secrets the mock was started with, or anyone when it has none', async () => {
    const strict = await startMockUpstream({ midjourneySecrets: ['one', 'two'] });
    const open = await startMockUpstream({ midjourneySecrets: [] });
    try {
      const list = (url: string, secret?: string) =>
        fetch(`${url}/mj/task/list-by-condition`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(secret ? { 'mj-api-secret': secret } : {}) },
          body: '{"ids":[]}',
        }).then((res) => res.status);
      expect(await list(strict.url, 'two')).toBe(200);
      expect(await list(strict.url, MOCK_MIDJOURNEY_SECRET)).toBe(401);
      expect(await list(open.url)).toBe(200);
    } finally {
      await strict.close();
      await open.close();
    }
  });
});

describe('a task from submit to SUCCESS', () => {
  it('answers the submit with a numeric task id and advances one step per fetch', async () => {
    const answer = await submit('/mj/submit/imagine', {
      prompt: withMock('a red fox in the snow', { task_steps: 2 }),
      state: 'order-7',
      notifyHook: 'https://client.example/hook',
      botType: 'NIJI_JOURNEY',
    });
    expect(answer).toEqual({
      code: 1,
      description: 'Submit success',
      result: expect.any(String),
      properties: {},
    });
    const id = String(answer.result);
    expect(id).toMatch(/^\d{16}$/);
    expect(mock.tasks.get(id)).toMatchObject({
      platform: 'midjourney',
      action: 'IMAGINE',
      status: 'SUBMITTED',
    });

    const running = await fetchTask(id);
    expect(running).toMatchObject({
      id,
      action: 'IMAGINE',
      prompt: 'a red fox in the snow',
      description: '/imagine a red fox in the snow',
      state: 'order-7',
      status: 'IN_PROGRESS',
      progress: '50%',
      imageUrl: null,
      failReason: null,
      finishTime: null,
      buttons: [],
    });
    expect(running.startTime).toBeGreaterThanOrEqual(running.submitTime);

    const done = await fetchTask(id);
    expect(done).toMatchObject({ status: 'SUCCESS', progress: '100%', startTime: running.startTime });
    expect(done.finishTime).toBeGreaterThanOrEqual(done.startTime ?? 0);
    expect(done.properties).toEqual({
      finalPrompt: 'a red fox in the snow',
      notifyHook: 'https://client.example/hook',
    });
    expect(done.buttons.map((b) => b.label)).toEqual(['U1', 'U2', 'U3', 'U4', '', 'V1', 'V2', 'V3', 'V4']);
    expect(done.buttons[0]).toMatchObject({
      customId: expect.stringMatching(/^MJ::JOB::upsample::1::/),
      type: 2,
    });

    // A finished task stays as it is.
    expect(await fetchTask(id)).toEqual(done);
    expect(mock.tasks.get(id)?.reads).toBe(2);
  });

  it('serves the finished image as PNG bytes without a secret', async () => {
    const done = await finish(await imagine('a lighthouse'));
    const image = await fetch(done.imageUrl ?? '');
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer())).toEqual(MOCK_PNG);
    expect((await fetch(`${mock.url}/mj/attachments/1234567890123456.png`)).status).toBe(404);
  });

  it('takes as many reads as task_steps says, or none', async () => {
    const id = await imagine('three steps', { task_steps: 3 });
    const seen = [];
    for (let i = 0; i < 3; i++) seen.push((await fetchTask(id)).progress);
    expect(seen).toEqual(['33%', '66%', '100%']);
    const instant = await imagine('no steps', { task_steps: 0 });
    expect(mock.tasks.get(instant)?.status).toBe('SUCCESS');
    expect((await fetchTask(instant)).status).toBe('SUCCESS');
  });

  it('ends in FAILURE with the reason given', async () => {
    const id = await imagine('a forbidden drawing', {
      task_outcome: 'failure',
      task_fail_reason: 'Banned by the moderator',
    });
    const failed = await finish(id);
    expect(failed).toMatchObject({
      status: 'FAILURE',
      failReason: 'Banned by the moderator',
      imageUrl: null,
      buttons: [],
    });
    expect(failed.finishTime).toEqual(expect.any(Number));
  });

  it('keeps a stuck task IN_PROGRESS until a test changes its outcome', async () => {
    const id = await imagine('never ends', { task_outcome: 'stuck' });
    for (let i = 0; i < 5; i++)
      expect(await fetchTask(id)).toMatchObject({ status: 'IN_PROGRESS', progress: '50%' });
    mock.setTaskOutcome(id, { outcome: 'failure', failReason: 'timed out upstream' });
    expect(await fetchTask(id)).toMatchObject({ status: 'FAILURE', failReason: 'timed out upstream' });
    expect(() => mock.setTaskOutcome(id, { outcome: 'success' })).toThrow(/already finished/);
    expect(() => mock.setTaskOutcome('nope', { outcome: 'success' })).toThrow(/no task/);
  });

  it('takes its life from a queued directive when the body has no marker', async () => {
    mock.enqueue({ task_outcome: 'failure' }, { path: '/mj/submit/imagine' });
    const id = await imagine('plain prompt');
    expect((await finish(id)).status).toBe('FAILURE');
  });
});

describe('batch and mode routes', () => {
  it('lists the known tasks among the ids, each advanced one step', async () => {
    const a = await imagine('first');
    const b = await imagine('second', { task_steps: 1 });
    const res = await post('/mj/task/list-by-condition', { ids: [b, 'unknown-id', a] });
    const tasks = JSON.parse(res.text) as MjTask[];
    expect(tasks.map((t) => [t.id, t.status])).toEqual([
      [b, 'SUCCESS'],
      [a, 'IN_PROGRESS'],
    ]);
    expect(mock.tasks.get(a)?.reads).toBe(1);
  });

  it('answers an unknown task id with an empty 200, as the proxy answers a null task', async () => {
    const res = await call('GET', '/mj/task/9999999999999999/fetch');
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
  });

  it('serves every route under the mode prefixes and remembers the mode of a submit', async () => {
    const id = await imagine('fast fox', undefined, '/mj-fast');
    expect(mock.lastRequest()?.path).toBe('/mj-fast/mj/submit/imagine');
    expect(mock.tasks.get(id)?.mode).toBe('fast');
    expect((await fetchTask(id, '/mj-relax')).status).toBe('IN_PROGRESS');
    const turbo = await post('/mj-turbo/mj/task/list-by-condition', { ids: [id] });
    expect((JSON.parse(turbo.text) as MjTask[])[0]?.status).toBe('SUCCESS');
    expect(mock.tasks.get(await imagine('plain'))?.mode).toBeUndefined();
  });

  it('answers an unknown path under /mj with the framework 404', async () => {
    const res = await post('/mj/submit/nothing', {});
    expect(res.status).toBe(404);
    expect(json(res.text)).toMatchObject({ status: 404, error: 'Not Found', path: '/mj/submit/nothing' });
  });
});

describe('submit refusals', () => {
  it('refuses a banned prompt with code 24 and creates no task', async () => {
    const answer = await submit('/mj/submit/imagine', {
      prompt: withMock('nude body', { submit_code: 24 }),
    });
    expect(answer).toEqual({
      code: 24,
      description: 'May contain sensitive words',
      result: null,
      properties: { promptEn: 'nude body', bannedWord: 'nude' },
    });
    expect(mock.tasks.size).toBe(0);
  });

  it('answers other scripted codes with their description, or the one given', async () => {
    const full = await submit('/mj/submit/imagine', { prompt: withMock('x', { submit_code: 23 }) });
    expect(full).toMatchObject({
      code: 23,
      description: 'The queue is full, please try again later',
      result: null,
    });
    const custom = await submit('/mj/submit/imagine', {
      prompt: withMock('x', { submit_code: 9, error: { message: 'discord is down' } }),
    });
    expect(custom).toMatchObject({ code: 9, description: 'discord is down', result: null });
    expect(mock.tasks.size).toBe(0);
  });

  it('still creates the task for code 21 (exists) and 22 (queued)', async () => {
    const existed = await submit('/mj/submit/imagine', { prompt: withMock('x', { submit_code: 21 }) });
    expect(existed).toMatchObject({ code: 21, properties: { status: 'SUBMITTED', imageUrl: null } });
    const queued = await submit('/mj/submit/imagine', { prompt: withMock('y', { submit_code: 22 }) });
    expect(queued).toMatchObject({ code: 22, properties: { numberOfQueues: 1 } });
    expect([...mock.tasks.keys()].sort()).toEqual([String(existed.result), String(queued.result)].sort());
  });

  it('answers validation errors with code 4', async () => {
    expect(await submit('/mj/submit/imagine', { prompt: '  ' })).toMatchObject({ code: 4, result: null });
    expect(
      await submit('/mj/submit/imagine', { prompt: 'x', base64Array: ['not a data url'] }),
    ).toMatchObject({
      code: 4,
    });
    expect(mock.tasks.size).toBe(0);
  });
});

describe('changes, actions and modals', () => {
  it('upscales a finished drawing by change and by simple-change', async () => {
    const parent = await imagine('a castle', { task_steps: 0 });
    const change = await submit('/mj/submit/change', { taskId: parent, action: 'UPSCALE', index: 2 });
    expect(change.code).toBe(1);
    const upscaled = await finish(String(change.result));
    expect(upscaled).toMatchObject({
      action: 'UPSCALE',
      prompt: 'a castle',
      description: `/up ${parent} U2`,
    });
    expect(upscaled.buttons.map((b) => b.label)).toContain('Vary (Region)');
    const simple = await submit('/mj/submit/simple-change', { content: `${parent} V3` });
    expect(mock.tasks.get(String(simple.result))?.action).toBe('VARIATION');
    const reroll = await submit('/mj/submit/simple-change', { content: `${parent} R` });
    expect(mock.tasks.get(String(reroll.result))?.action).toBe('REROLL');
  });

  it('refuses changes of unknown or unfinished tasks and bad parameters', async () => {
    expect(await submit('/mj/submit/change', { taskId: '404', action: 'UPSCALE', index: 1 })).toMatchObject({
      code: 3,
    });
    const running = await imagine('not yet');
    expect(await submit('/mj/submit/change', { taskId: running, action: 'UPSCALE', index: 1 })).toMatchObject(
      {
        code: 4,
      },
    );
    const done = await imagine('done', { task_steps: 0 });
    expect(await submit('/mj/submit/change', { taskId: done, action: 'ZOOM', index: 1 })).toMatchObject({
      code: 4,
    });
    expect(await submit('/mj/submit/change', { taskId: done, action: 'UPSCALE', index: 5 })).toMatchObject({
      code: 4,
    });
    expect(await submit('/mj/submit/simple-change', { content: `${done} X9` })).toMatchObject({ code: 4 });
  });

  it('presses a button of a finished task through /action', async () => {
    const parent = await finish(await imagine('a bridge'));
    const v1 = parent.buttons.find((b) => b.label === 'V1');
    const answer = await submit('/mj/submit/action', { taskId: parent.id, customId: v1?.customId });
    expect(answer.code).toBe(1);
    const task = await finish(String(answer.result));
    expect(task).toMatchObject({ action: 'VARIATION', customId: v1?.customId, status: 'SUCCESS' });
    expect(
      await submit('/mj/submit/action', { taskId: parent.id, customId: 'MJ::Unknown::1' }),
    ).toMatchObject({
      code: 4,
    });
  });

  it('holds an inpaint in MODAL (code 21) until /modal confirms it', async () => {
    const grid = await imagine('a garden', { task_steps: 0 });
    const up = await submit('/mj/submit/change', { taskId: grid, action: 'UPSCALE', index: 1 });
    const upscaled = await finish(String(up.result));
    const region = upscaled.buttons.find((b) => b.customId.startsWith('MJ::Inpaint::'));
    const answer = await submit('/mj/submit/action', { taskId: upscaled.id, customId: region?.customId });
    expect(answer).toMatchObject({
      code: 21,
      description: 'Waiting for window confirm',
      properties: { remix: true },
    });
    const id = String(answer.result);
    expect(await fetchTask(id)).toMatchObject({ action: 'INPAINT', status: 'MODAL', progress: '0%' });
    expect(await fetchTask(id)).toMatchObject({ status: 'MODAL' });

    const confirmed = await submit('/mj/submit/modal', {
      taskId: id,
      prompt: withMock('a garden with a pond', { task_steps: 1 }),
      maskBase64: PNG_DATA_URL,
    });
    expect(confirmed).toMatchObject({ code: 1, result: id });
    expect(await fetchTask(id)).toMatchObject({ status: 'SUCCESS', prompt: 'a garden with a pond' });
    expect(await submit('/mj/submit/modal', { taskId: id })).toMatchObject({ code: 4 });
  });
});

describe('describe, blend, shorten, uploads and face swaps', () => {
  it('describes an image into four prompts, and draws one of them', async () => {
    const answer = await submit('/mj/submit/describe', { base64: PNG_DATA_URL });
    const described = await finish(String(answer.result));
    expect(described.action).toBe('DESCRIBE');
    expect(described.prompt?.split('\n\n')).toHaveLength(4);
    expect(described.properties.finalPrompt).toBe(described.prompt);
    expect((await fetch(described.imageUrl ?? '')).status).toBe(200);
    const second = described.buttons.find((b) => b.customId === 'MJ::Job::PicReader::2');
    const drawn = await submit('/mj/submit/action', { taskId: described.id, customId: second?.customId });
    const task = await finish(String(drawn.result));
    expect(task.action).toBe('IMAGINE');
    expect(described.prompt).toContain(task.prompt ?? 'missing');
    expect(await submit('/mj/submit/describe', { base64: 'plain text' })).toMatchObject({ code: 4 });
  });

  it('blends 2 to 5 images', async () => {
    expect(await submit('/mj/submit/blend', { base64Array: [PNG_DATA_URL] })).toMatchObject({ code: 4 });
    expect(
      await submit('/mj/submit/blend', { base64Array: [PNG_DATA_URL, OTHER_DATA_URL], dimensions: 'WIDE' }),
    ).toMatchObject({ code: 4 });
    const answer = await submit('/mj/submit/blend', {
      base64Array: [PNG_DATA_URL, OTHER_DATA_URL],
      dimensions: 'PORTRAIT',
    });
    expect(await finish(String(answer.result))).toMatchObject({ action: 'BLEND', status: 'SUCCESS' });
  });

  it('shortens a prompt into shorter ones, without an image', async () => {
    const answer = await submit('/mj/submit/shorten', { prompt: 'a very long and winding prompt' });
    const task = await finish(String(answer.result));
    expect(task).toMatchObject({
      action: 'SHORTEN',
      imageUrl: null,
      prompt: 'a very long and winding prompt',
    });
    expect(String(task.properties.finalPrompt)).toContain('1️⃣ a very');
  });

  it('uploads images and answers their URLs, which serve the image', async () => {
    const answer = await submit('/mj/submit/upload-discord-images', {
      base64Array: [PNG_DATA_URL, OTHER_DATA_URL],
    });
    expect(answer.code).toBe(1);
    const urls = answer.result as string[];
    expect(urls).toHaveLength(2);
    const image = await fetch(urls[0] ?? '');
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(mock.tasks.size).toBe(0);
    expect(await submit('/mj/submit/upload-discord-images', { base64Array: [] })).toMatchObject({ code: 4 });
  });

  it('swaps faces as a SWAP_FACE task', async () => {
    const answer = await submit('/mj/insight-face/swap', {
      sourceBase64: PNG_DATA_URL,
      targetBase64: OTHER_DATA_URL,
    });
    expect(await finish(String(answer.result))).toMatchObject({ action: 'SWAP_FACE', status: 'SUCCESS' });
    expect(
      await submit('/mj/insight-face/swap', { sourceBase64: PNG_DATA_URL, targetBase64: PNG_DATA_URL }),
    ).toMatchObject({ code: 4 });
  });
});

describe('image seeds', () => {
  it('answers the seed of a finished drawing, 400 before and 404 for an unknown one', async () => {
    const id = await imagine('seeded', { task_steps: 1 });
    const early = await call('GET', `/mj/task/${id}/image-seed`);
    expect(early.status).toBe(400);
    expect(json(early.text)).toMatchObject({ code: 4 });
    await fetchTask(id);
    const seed = json((await call('GET', `/mj/task/${id}/image-seed`)).text);
    expect(seed).toMatchObject({ code: 1, result: expect.stringMatching(/^\d+$/) });
    const again = json((await call('GET', `/mj/task/${id}/image-seed`)).text);
    expect(again.result).toBe(seed.result);
    const unknown = await call('GET', '/mj/task/123/image-seed');
    expect(unknown.status).toBe(404);
    expect(json(unknown.text)).toMatchObject({ code: 3, result: null });
  });
});

describe('fault injection', () => {
  it('answers a status fault in the framework error shape, and creates no task', async () => {
    const res = await post('/mj/submit/imagine', { prompt: withMock('x', { status: 500 }) });
    expect(res.status).toBe(500);
    expect(json(res.text)).toMatchObject({
      status: 500,
      error: 'Internal Server Error',
      path: '/mj/submit/imagine',
    });
    expect(mock.tasks.size).toBe(0);
  });

  it('applies standing and queued behaviours to the fetch routes too', async () => {
    const id = await imagine('x');
    mock.setBehaviour(
      { status: 502, error_body: '<html>Bad Gateway</html>' },
      { path: '/mj/task/list-by-condition' },
    );
    const res = await post('/mj/task/list-by-condition', { ids: [id] });
    expect(res.status).toBe(502);
    expect(res.text).toBe('<html>Bad Gateway</html>');
    expect(mock.tasks.get(id)?.reads).toBe(0);
    mock.setBehaviour(null, { path: '/mj/task/list-by-condition' });

    mock.enqueue({ status: 401 }, { key: MOCK_MIDJOURNEY_SECRET });
    const refused = await call('GET', `/mj/task/${id}/fetch`);
    expect(refused.status).toBe(401);
    expect(refused.text).toBe('');
  });

  it('resets the connection or delays the answer when told', async () => {
    mock.enqueue({ reset: true });
    await expect(post('/mj/submit/imagine', { prompt: 'x' })).rejects.toThrow();
    expect(mock.lastRequest()?.outcome).toBe('reset');
    expect(mock.tasks.size).toBe(0);
    const started = Date.now();
    await imagine('slow', { delay_ms: 50 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('refuses a bad directive or body with 400 in the framework shape', async () => {
    const bad = await post('/mj/submit/imagine', { prompt: withMock('x', { task_steps: -1 }) });
    expect(bad.status).toBe(400);
    expect(json(bad.text)).toMatchObject({ status: 400, message: expect.stringContaining('task_steps') });
    const outcome = await post('/mj/submit/imagine', { prompt: 'x [[mock:{"task_outcome":"maybe"}]]' });
    expect(outcome.status).toBe(400);
    const broken = await fetch(`${mock.url}/mj/submit/imagine`, {
      method: 'POST',
      headers: { ...SECRET, 'content-type': 'application/json' },
      body: '{"prompt":',
    });
    expect(broken.status).toBe(400);
  });

  it('forgets its tasks on reset()', async () => {
    await imagine('x');
    expect(mock.tasks.size).toBe(1);
    mock.reset();
    expect(mock.tasks.size).toBe(0);
  });
});
