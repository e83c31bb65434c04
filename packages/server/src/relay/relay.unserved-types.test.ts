// A channel of a type the relay cannot serve yet (an operator may prepare one) never makes a call look
// like an outage: the caller gets a 501 naming the type, in its own SDK's error shape, and is charged
// nothing.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CHANNEL_STATUS, ROLE } from '@sluice/shared';
import { testDialects } from '../test-support/databases.js';
import { createTestApp } from '../test-support/test-app.js';
import type { Caller, TestApp } from '../test-support/test-app.js';
import { addChannel, addToken, listen, setOptions } from '../test-support/relay-kit.js';
import type { TestToken } from '../test-support/relay-kit.js';

// Nothing may be sent anywhere: a closed local port.
const NOWHERE = 'http://127.0.0.1:9';
const QUOTA = 50_000_000;

interface OpenAiError {
  error: { message: string; type: string; code: string | null };
}

describe.each(testDialects())('calls only unserved channel types could take, on %s', (dialect) => {
  let t: TestApp;
  let admin: Caller;
  let token: TestToken;
  let base: string;
  let n = 0;
  const model = () => `unserved-model-${n}`;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.createUser({ role: ROLE.admin, quota: QUOTA });
    token = await addToken(t, admin.id, { remain_quota: QUOTA });
    base = await listen(t);
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    n++;
    await setOptions(t, { ModelRatio: { [model()]: 1 } });
  });

  const post = (path: string, body: unknown, key = token.key) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const chat = (key?: string) =>
    post('/v1/chat/completions', { model: model(), messages: [{ role: 'user', content: 'hi' }] }, key);
  const quotaLeft = async () =>
    Number(
      (await t.db.db.selectFrom('users').select('quota').where('id', '=', admin.id).executeTakeFirstOrThrow())
        .quota,
    );

  it('answers 501 naming the type, holds nothing and tries no channel', async () => {
    await addChannel(t, { type: 15, base_url: NOWHERE, models: model(), key: 'api|secret' });
    const before = await quotaLeft();
    const res = await chat();
    expect(res.status).toBe(501);
    const body = (await res.json()) as OpenAiError;
    expect(body.error.code).toBe('channel_type_unsupported');
    expect(body.error.message).toBe(
      `model ${model()} in group default has no channel the relay can serve: ` +
        'channels of type Baidu Wenxin (15) cannot be served yet',
    );
    expect(await quotaLeft()).toBe(before);
  });

  it('tells an Anthropic client in its own error shape', async () => {
    await addChannel(t, { type: 23, base_url: NOWHERE, models: model(), key: 'app|id|secret' });
    const res = await post('/v1/messages', {
      model: model(),
      max_tokens: 16,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(res.status).toBe(501);
    const body = (await res.json()) as { type: string; error: { type: string; message: string } };
    expect(body.type).toBe('error');
    expect(body.error.message).toContain('channels of type Tencent Hunyuan (23) cannot be served yet');
  });

  it('names the endpoint a served type lacks', async () => {
    await addChannel(t, { type: 14, base_url: NOWHERE, models: model(), key: 'sk-ant-x' });
    const res = await post('/v1/embeddings', { model: model(), input: 'hello' });
    expect(res.status).toBe(501);
    expect(((await res.json()) as OpenAiError).error.message).toContain(
      'channels of type Anthropic Claude (14) cannot serve embeddings calls yet',
    );
  });

  it('still answers 503 when the servable channels are down, and 501 when only an unserved one is up', async () => {
    await addChannel(t, {
      base_url: NOWHERE,
      models: model(),
      status: CHANNEL_STATUS.manuallyDisabled,
    });
    const down = await chat();
    expect(down.status).toBe(503);
    expect(((await down.json()) as OpenAiError).error.code).toBe('model_not_available');

    await addChannel(t, { type: 17, base_url: NOWHERE, models: model() });
    const unserved = await chat();
    expect(unserved.status).toBe(501);
    expect(((await unserved.json()) as OpenAiError).error.message).toContain('Alibaba Qwen (17)');
  });

  it('never sends a chat call to a task channel that lists its model, and says it serves tasks only', async () => {
    await addChannel(t, { type: 2, base_url: NOWHERE, models: model(), key: 'mj-secret' });
    const before = await quotaLeft();
    const res = await chat();
    expect(res.status).toBe(501);
    expect(((await res.json()) as OpenAiError).error.message).toBe(
      `model ${model()} in group default has no channel the relay can serve: ` +
        'channels of type Midjourney Proxy (2) cannot serve chat calls yet',
    );
    expect(await quotaLeft()).toBe(before);
  });

  it('answers 501 naming the type for a key pinned to such a channel', async () => {
    const id = await addChannel(t, { type: 18, base_url: NOWHERE, models: model(), key: 'a|b|c' });
    const res = await chat(`${token.key}-${id}`);
    expect(res.status).toBe(501);
    expect(((await res.json()) as OpenAiError).error.message).toBe(
      `channel ${id} cannot take this call: channels of type iFlytek Spark (18) cannot be served yet`,
    );
  });
});
