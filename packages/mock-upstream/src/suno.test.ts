import { describe, expect, it } from 'vitest';
import { withMock, type MockDirective } from './directive.js';
import { MOCK_PNG } from './routes/images.js';
import { MOCK_SUNO_KEY, mockLyrics, SUNO_CLIP_SECONDS } from './routes/suno.js';
import type { MockUpstream } from './server.js';
import { json, useMockUpstream } from './test-support/test-kit.js';

let mock: MockUpstream;
const KEY = { authorization: `Bearer ${MOCK_SUNO_KEY}` };
const { call, post } = useMockUpstream((started) => {
  mock = started;
}, KEY);

interface Clip {
  id: string;
  status: string;
  title: string;
  audio_url: string;
  video_url: string;
  image_url: string | null;
  model_name: string;
  major_model_version: string;
  metadata: {
    tags: string;
    prompt: string;
    gpt_description_prompt: string | null;
    duration: number | null;
    error_type: string | null;
    error_message: string | null;
  };
}

interface SunoTask {
  id: number;
  task_id: string;
  action: string;
  status: string;
  fail_reason: string;
  submit_time: number;
  start_time: number;
  finish_time: number;
  progress: string;
  data: unknown;
}

interface Envelope<T> {
  code: string;
  message: string;
  data: T;
}

async function submit(action: string, body: Record<string, unknown>): Promise<string> {
  const res = await post(`/suno/submit/${action}`, body);
  expect(res.status).toBe(200);
  const answer = json(res.text) as unknown as Envelope<string>;
  expect(answer).toMatchObject({ code: 'success', message: '' });
  return answer.data;
}

const music = (prompt: string, directive?: MockDirective, extra: Record<string, unknown> = {}) =>
  submit('music', {
    prompt: directive ? withMock(prompt, directive) : prompt,
    title: 'Night Drive',
    tags: 'synthwave',
    mv: 'chirp-v3-5',
    make_instrumental: false,
    ...extra,
  });

async function fetchBatch(ids: string[]): Promise<SunoTask[]> {
  const res = await post('/suno/fetch', { ids, action: 'MUSIC' });
  expect(res.status).toBe(200);
  const answer = json(res.text) as unknown as Envelope<SunoTask[]>;
  expect(answer).toMatchObject({ code: 'success', message: '' });
  return answer.data;
}

async function fetchOne(id: string): Promise<SunoTask> {
  const [task] = await fetchBatch([id]);
  if (!task) throw new Error(`task ${id} not returned`);
  return task;
}

describe('the bearer key', () => {
  it('refuses a missing or wrong key with 401 in the server error shape', async () => {
    const attempts: Record<string, string>[] = [{}, { authorization: 'Bearer wrong-key' }];
    for (const headers of attempts) {
      const res = await post('/suno/fetch', { ids: [] }, headers);
      expect(res.status).toBe(401);
      expect(json(res.text)).toEqual({
        code: 'invalid_request',
        message: 'unauthorized secret token',
        data: null,
      });
    }
  });

  it('answers the free key check, a fetch of no ids, with an empty list', async () => {
    const res = await post('/suno/fetch', { ids: [] });
    expect(res.status).toBe(200);
    expect(json(res.text)).toEqual({ code: 'success', message: '', data: [] });
  });
});

describe('a song from submit to SUCCESS', () => {
  it('answers a 32-hex task id and plays the task through NOT_START, IN_PROGRESS and SUCCESS', async () => {
    const id = await music('driving through neon rain');
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(mock.tasks.get(id)).toMatchObject({ platform: 'suno', action: 'MUSIC', status: 'NOT_START' });
    expect(mock.lastRequest()?.headers.authorization).toBe(KEY.authorization);

    const running = await fetchOne(id);
    expect(running).toMatchObject({ task_id: id, action: 'MUSIC', status: 'IN_PROGRESS', progress: '50%' });
    expect(running.finish_time).toBe(0);
    expect(running.start_time).toBeGreaterThanOrEqual(running.submit_time);
    expect(running.submit_time).toBeLessThan(Date.now() / 1000 + 1);
    const streaming = running.data as Clip[];
    expect(streaming).toHaveLength(2);
    expect(streaming.map((c) => c.status)).toEqual(['streaming', 'streaming']);
    expect(streaming[0]?.video_url).toBe('');
    const audio = await fetch(streaming[0]?.audio_url ?? '');
    expect(audio.headers.get('content-type')).toBe('audio/mpeg');

    const done = await fetchOne(id);
    expect(done).toMatchObject({ status: 'SUCCESS', progress: '100%', fail_reason: '' });
    expect(done.finish_time).toBeGreaterThanOrEqual(done.start_time);
    const clips = done.data as Clip[];
    expect(clips[0]).toMatchObject({
      status: 'complete',
      title: 'Night Drive',
      model_name: 'chirp-v3-5',
      major_model_version: 'v3',
      metadata: { tags: 'synthwave', prompt: 'driving through neon rain', duration: SUNO_CLIP_SECONDS },
    });
    expect(clips[0]?.id).not.toBe(clips[1]?.id);
    const video = await fetch(clips[1]?.video_url ?? '');
    expect(video.headers.get('content-type')).toBe('video/mp4');
    const cover = await fetch(clips[1]?.image_url ?? '');
    expect(Buffer.from(await cover.arrayBuffer())).toEqual(MOCK_PNG);
    expect((await fetch(`${mock.url}/suno/files/unknown-clip.mp3`)).status).toBe(404);
  });

  it('answers GET /suno/fetch/{id} with the one task, and 400 for an unknown one', async () => {
    const id = await music('x', { task_steps: 1 });
    const res = await call('GET', `/suno/fetch/${id}`);
    expect(json(res.text)).toMatchObject({ code: 'success', data: { task_id: id, status: 'SUCCESS' } });
    const unknown = await call('GET', '/suno/fetch/nope');
    expect(unknown.status).toBe(400);
    expect(json(unknown.text)).toEqual({ code: 'invalid_request', message: 'task not exist', data: null });
  });

  it('batch-fetches several tasks in submit order, leaving unknown ids out', async () => {
    const a = await music('first');
    const b = await music('second', { task_steps: 1 });
    const tasks = await fetchBatch([b, 'missing', a]);
    expect(tasks.map((t) => [t.task_id, t.status])).toEqual([
      [a, 'IN_PROGRESS'],
      [b, 'SUCCESS'],
    ]);
    expect(tasks[0]?.id).toBeLessThan(tasks[1]?.id ?? 0);
  });

  it('describes a song from gpt_description_prompt, with the default model', async () => {
    const id = await submit('music', {
      gpt_description_prompt: withMock('an upbeat song about cats', { task_steps: 0 }),
    });
    const clip = ((await fetchOne(id)).data as Clip[])[0];
    expect(clip).toMatchObject({
      model_name: 'chirp-v3',
      title: 'An Upbeat Song About',
      metadata: { prompt: '', gpt_description_prompt: 'an upbeat song about cats' },
    });
  });

  it('ends in FAILURE with the reason on the task and in the clips', async () => {
    const id = await music('x', { task_outcome: 'failure', task_fail_reason: 'Flagged by moderation' });
    await fetchOne(id);
    const failed = await fetchOne(id);
    expect(failed).toMatchObject({ status: 'FAILURE', fail_reason: 'Flagged by moderation' });
    expect((failed.data as Clip[])[0]).toMatchObject({
      status: 'error',
      audio_url: '',
      metadata: { error_message: 'Flagged by moderation', error_type: 'internal_error' },
    });
  });

  it('keeps a stuck task IN_PROGRESS for ever', async () => {
    const id = await music('x', { task_outcome: 'stuck', task_steps: 4 });
    const progress = [];
    for (let i = 0; i < 6; i++) progress.push((await fetchOne(id)).progress);
    expect(progress).toEqual(['25%', '50%', '75%', '75%', '75%', '75%']);
    expect(mock.tasks.get(id)?.status).toBe('IN_PROGRESS');
  });
});

describe('lyrics', () => {
  it('writes lyrics for a prompt as a LYRICS task', async () => {
    const id = await submit('lyrics', { prompt: 'summer by the sea' });
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
    const running = await fetchOne(id);
    expect(running).toMatchObject({ action: 'LYRICS', status: 'IN_PROGRESS' });
    expect(running.data).toEqual({ id, status: 'running', title: '', text: '' });
    const done = await fetchOne(id);
    expect(done.data).toEqual({
      id,
      status: 'complete',
      title: 'Summer By The Sea',
      text: mockLyrics('summer by the sea'),
    });
  });

  it('refuses an empty prompt and an unknown action with 400', async () => {
    const empty = await post('/suno/submit/lyrics', { prompt: '' });
    expect(empty.status).toBe(400);
    expect(json(empty.text)).toEqual({ code: 'invalid_request', message: 'prompt is empty', data: null });
    const unknown = await post('/suno/submit/video', { prompt: 'x' });
    expect(json(unknown.text)).toMatchObject({ code: 'invalid_request', message: 'invalid action' });
    const extend = await post('/suno/submit/music', { prompt: 'x', continue_clip_id: 'clip-1' });
    expect(json(extend.text)).toMatchObject({ code: 'invalid_request', message: 'task_id is empty' });
    expect(mock.tasks.size).toBe(0);
  });
});

describe('refusals and faults', () => {
  it('refuses a submit with the status and error code the directive gives, creating no task', async () => {
    const res = await post('/suno/submit/music', {
      prompt: withMock('x', {
        status: 402,
        error: { code: 'insufficient_credits', message: 'no credits left' },
      }),
    });
    expect(res.status).toBe(402);
    expect(json(res.text)).toEqual({ code: 'insufficient_credits', message: 'no credits left', data: null });
    const server = await post('/suno/submit/music', { prompt: withMock('x', { status: 500 }) });
    expect(json(server.text)).toEqual({
      code: 'internal_error',
      message: '500 Internal Server Error',
      data: null,
    });
    expect(mock.tasks.size).toBe(0);
  });

  it('applies queued behaviours to the fetch route', async () => {
    const id = await music('x');
    mock.enqueue({ status: 429 }, { path: '/suno/fetch' });
    const limited = await post('/suno/fetch', { ids: [id] });
    expect(limited.status).toBe(429);
    expect(json(limited.text)).toMatchObject({ code: 'invalid_request', message: '429 Too Many Requests' });
    expect(mock.tasks.get(id)?.reads).toBe(0);
    mock.enqueue({ reset: true }, { path: '/suno/fetch' });
    await expect(post('/suno/fetch', { ids: [id] })).rejects.toThrow();
    mock.enqueue({ status: 503, error_body: 'upstream down' }, { key: MOCK_SUNO_KEY });
    const raw = await post('/suno/fetch', { ids: [id] });
    expect([raw.status, raw.text]).toEqual([503, 'upstream down']);
    expect((await fetchOne(id)).status).toBe('IN_PROGRESS');
  });

  it('refuses a body that is not JSON or a bad directive in the server error shape', async () => {
    const res = await fetch(`${mock.url}/suno/submit/music`, {
      method: 'POST',
      headers: { ...KEY, 'content-type': 'application/json' },
      body: '{"prompt":',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'invalid_request', data: null });
    const bad = await post('/suno/submit/music', {
      prompt: withMock('x', { submit_code: -1 } as MockDirective),
    });
    expect(json(bad.text)).toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('submit_code'),
    });
  });
});
