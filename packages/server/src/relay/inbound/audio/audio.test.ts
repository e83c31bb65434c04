import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mockSpeech, startMockUpstream } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { LOG_TYPE, tokenQuota } from '@sluice/shared';
import { countTokens } from '../../../billing/token-counter.js';
import { testDialects } from '../../../test-support/databases.js';
import { createTestApp } from '../../../test-support/test-app.js';
import type { Caller, TestApp } from '../../../test-support/test-app.js';
import {
  addChannel,
  addToken,
  balances,
  billingWritten,
  listen,
  setOptions,
} from '../../../test-support/relay-kit.js';
import type { TestToken } from '../../../test-support/relay-kit.js';

const TTS = 'tts-1';
const WHISPER = 'whisper-1';
const GPT_TRANSCRIBE = 'gpt-4o-transcribe';
const pricing = (modelRatio: number) => ({
  billing: 'tokens' as const,
  modelRatio,
  completionRatio: 2,
  groupRatio: 1,
  cacheRatio: 1,
  cacheWriteRatio: 1.25,
});

describe.each(testDialects())('audio endpoints through the relay on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let base: string;
  let user: Caller;
  let token: TestToken;
  let channelId: number;

  beforeAll(async () => {
    mock = await startMockUpstream();
    t = await createTestApp({ dialect });
    await setOptions(t, {
      ModelRatio: { [TTS]: 7.5, [WHISPER]: 15, [GPT_TRANSCRIBE]: 1.25, 'asr-alias': 15 },
      CompletionRatio: { [TTS]: 2, [WHISPER]: 2, [GPT_TRANSCRIBE]: 2, 'asr-alias': 2 },
    });
    user = await t.createUser({ quota: 100_000_000 });
    token = await addToken(t, user.id);
    channelId = await addChannel(t, {
      base_url: mock.url,
      models: [TTS, WHISPER, GPT_TRANSCRIBE, 'asr-alias'].join(','),
      model_mapping: JSON.stringify({ 'asr-alias': WHISPER }),
    });
    base = await listen(t);
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  const ids = () => ({ userId: user.id, tokenId: token.id, channelIds: [channelId] });
  const lastLog = async () => {
    await billingWritten(t);
    return t.db.db.selectFrom('logs').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
  };
  const audio = Buffer.alloc(40_000, 7);
  const upload = (fields: Record<string, string>) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', new Blob([audio], { type: 'audio/wav' }), 'hello.wav');
    return form;
  };
  const send = (path: string, form: FormData, key = token.key) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });

  it('answers speech with the upstream audio bytes and content type, billed per input character', async () => {
    const input = 'Grüße, world!';
    const before = await balances(t, ids());
    const res = await fetch(`${base}/v1/audio/speech`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: TTS, input, voice: 'alloy', response_format: 'opus' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/ogg');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(mockSpeech(input));

    const quota = tokenQuota({ promptTokens: 13, completionTokens: 0 }, pricing(7.5));
    const after = await balances(t, ids());
    expect(before.userQuota - after.userQuota).toBe(quota);
    expect(after.logQuota - before.logQuota).toBe(quota);
    expect(await lastLog()).toMatchObject({
      type: LOG_TYPE.consume,
      model_name: TTS,
      prompt_tokens: 13,
      completion_tokens: 0,
      is_stream: 0,
    });
  });

  it('forwards a transcription upload byte for byte and bills the transcript as completion tokens', async () => {
    const before = await balances(t, ids());
    const res = await send('/v1/audio/transcriptions', upload({ model: WHISPER, language: 'en' }));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { text: string; usage: { type: string } };
    expect(body.text).toBe('This is the mock transcript of hello.wav.');
    expect(body.usage.type).toBe('duration');

    const sent = mock.lastRequest('/v1/audio/transcriptions');
    expect(sent?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent?.body).toMatchObject({
      model: WHISPER,
      language: 'en',
      file: { filename: 'hello.wav', size: audio.length },
    });

    const completion = await countTokens(body.text, WHISPER);
    const quota = tokenQuota({ promptTokens: 0, completionTokens: completion }, pricing(15));
    const after = await balances(t, ids());
    expect(before.userQuota - after.userQuota).toBe(quota);
    expect(await lastLog()).toMatchObject({ prompt_tokens: 0, completion_tokens: completion, quota });
  });

  it('uses the token usage a gpt-4o transcription reports', async () => {
    const res = await send('/v1/audio/transcriptions', upload({ model: GPT_TRANSCRIBE }));
    const body = (await res.json()) as { usage: { input_tokens: number; output_tokens: number } };
    const quota = tokenQuota(
      { promptTokens: body.usage.input_tokens, completionTokens: body.usage.output_tokens },
      pricing(1.25),
    );
    expect(body.usage.input_tokens).toBe(30); // 3 s of audio × 10 tokens
    expect(await lastLog()).toMatchObject({ prompt_tokens: 30, quota });
  });

  it('passes a plain-text translation through as text and writes a mapped model into the form', async () => {
    const res = await send('/v1/audio/translations', upload({ model: 'asr-alias', response_format: 'text' }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toBe('This is the mock translation of hello.wav.\n');
    const sent = mock.lastRequest('/v1/audio/translations');
    expect(sent?.body).toMatchObject({ model: WHISPER, file: { size: audio.length } });
    const log = await lastLog();
    expect(log.model_name).toBe('asr-alias');
    expect(log.completion_tokens).toBe(await countTokens(text.trim(), 'asr-alias'));
  });

  it('refuses an upload without a file before calling upstream', async () => {
    const form = new FormData();
    form.append('model', WHISPER);
    const res = await send('/v1/audio/transcriptions', form);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { message: 'file is required' } });
    expect(mock.requests).toHaveLength(0);
  });
});
