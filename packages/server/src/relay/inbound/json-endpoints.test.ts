import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectedEmbeddingUsage, expectedRerankUsage, startMockUpstream } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { LOG_TYPE, callQuota, tokenQuota } from '@sluice/shared';
import { countTokens } from '../../billing/token-counter.js';
import { testDialects } from '../../test-support/databases.js';
import { createTestApp } from '../../test-support/test-app.js';
import type { Caller, TestApp } from '../../test-support/test-app.js';
import {
  addChannel,
  addToken,
  balances,
  billingWritten,
  listen,
  setOptions,
} from '../../test-support/relay-kit.js';
import type { TestToken } from '../../test-support/relay-kit.js';

const EMBED = 'text-embedding-3-small';
const MODERATE = 'omni-moderation-latest';
const RERANK = 'bge-reranker-v2-m3';
const IMAGE = 'dall-e-3';
const GPT_IMAGE = 'gpt-image-1';
const tokens = (modelRatio: number) => ({
  billing: 'tokens' as const,
  modelRatio,
  completionRatio: 1,
  groupRatio: 1.5,
  cacheRatio: 1,
  cacheWriteRatio: 1.25,
});

describe.each(testDialects())('OpenAI JSON endpoints through the relay on %s', (dialect) => {
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
      ModelRatio: { [EMBED]: 0.01, [MODERATE]: 0.5, [RERANK]: 0.3, [GPT_IMAGE]: 2.5 },
      ModelPrice: { [IMAGE]: 0.04 },
      GroupRatio: { default: 1.5 },
    });
    user = await t.createUser({ quota: 100_000_000 });
    token = await addToken(t, user.id);
    channelId = await addChannel(t, {
      base_url: mock.url,
      models: [EMBED, MODERATE, RERANK, IMAGE, GPT_IMAGE, 'unpriced-embedding'].join(','),
    });
    base = await listen(t);
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  const post = (path: string, body: unknown, key = token.key) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const ids = () => ({ userId: user.id, tokenId: token.id, channelIds: [channelId] });
  const lastLog = async () => {
    await billingWritten(t);
    return t.db.db.selectFrom('logs').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
  };

  /** Runs a call and checks that user, token, channel and the new log row all moved by `quota`. */
  async function expectCharged(call: () => Promise<Response>, quota: (res: unknown) => number) {
    const before = await balances(t, ids());
    const res = await call();
    expect(res.status).toBe(200);
    const body: unknown = await res.json();
    const expected = quota(body);
    const after = await balances(t, ids());
    expect(before.userQuota - after.userQuota).toBe(expected);
    expect(before.tokenRemain - after.tokenRemain).toBe(expected);
    expect(after.channelUsed - before.channelUsed).toBe(expected);
    expect(after.logQuota - before.logQuota).toBe(expected);
    const log = await lastLog();
    expect(log).toMatchObject({ type: LOG_TYPE.consume, quota: expected, is_stream: 0, token_id: token.id });
    return { body, log };
  }

  it('relays embeddings unchanged and bills the upstream prompt tokens', async () => {
    const request = { model: EMBED, input: ['the quick brown fox', 'jumps over'] };
    const usage = expectedEmbeddingUsage(request);
    const { body, log } = await expectCharged(
      () => post('/v1/embeddings', request),
      () => tokenQuota({ promptTokens: usage.prompt_tokens, completionTokens: 0 }, tokens(0.01)),
    );
    expect(body).toMatchObject({ object: 'list', usage });
    expect((body as { data: unknown[] }).data).toHaveLength(2);
    expect(log).toMatchObject({ model_name: EMBED, prompt_tokens: 6, completion_tokens: 0 });
    expect(mock.lastRequest('/v1/embeddings')?.body).toEqual(request);
  });

  it('counts embedding input tokens itself when the upstream reports none', async () => {
    const input = 'count me with the tokenizer [[mock:{"no_usage":true}]]';
    const counted = await countTokens(input, EMBED);
    const { log } = await expectCharged(
      () => post('/v1/embeddings', { model: EMBED, input }),
      () => tokenQuota({ promptTokens: counted, completionTokens: 0 }, tokens(0.01)),
    );
    expect(log.prompt_tokens).toBe(counted);
  });

  it('bills moderations by the counted input tokens (the upstream reports no usage)', async () => {
    const input = ['a calm sentence', 'a violent one'];
    const counted = await countTokens(input.join('\n'), MODERATE);
    const { body } = await expectCharged(
      () => post('/v1/moderations', { input }),
      () => tokenQuota({ promptTokens: counted, completionTokens: 0 }, tokens(0.5)),
    );
    const results = (body as { results: { flagged: boolean }[] }).results;
    expect(results.map((r) => r.flagged)).toEqual([false, true]);
    expect((await lastLog()).model_name).toBe(MODERATE);
  });

  it('bills rerank by usage.total_tokens and keeps the ranking', async () => {
    const request = {
      model: RERANK,
      query: 'red apple',
      documents: ['a green pear', 'a red apple', 'red wine'],
      top_n: 2,
    };
    const { body } = await expectCharged(
      () => post('/v1/rerank', request),
      () =>
        tokenQuota(
          { promptTokens: expectedRerankUsage(request).total_tokens, completionTokens: 0 },
          tokens(0.3),
        ),
    );
    const results = (body as { results: { index: number }[] }).results;
    expect(results.map((r) => r.index)).toEqual([1, 2]);
  });

  it('charges a per-call image price per image, with the dall-e-3 size and quality steps', async () => {
    const pricing = { billing: 'call' as const, modelPrice: 0.04, groupRatio: 1.5, quotaPerUnit: 500_000 };
    // 2 images, 1792 wide (×2), hd (×1.5): 6 standard images.
    const { body, log } = await expectCharged(
      () =>
        post('/v1/images/generations', {
          model: IMAGE,
          prompt: 'a lighthouse at dusk',
          n: 2,
          size: '1792x1024',
          quality: 'hd',
        }),
      () => callQuota({ ...pricing, modelPrice: 0.24 }),
    );
    expect(log.quota).toBe(180_000); // 0.04 × 6 × 500000 × 1.5
    expect((body as { data: { url: string }[] }).data).toHaveLength(2);

    const { log: single } = await expectCharged(
      () => post('/v1/images/generations', { model: IMAGE, prompt: 'one standard image' }),
      () => callQuota(pricing),
    );
    expect(single.quota).toBe(30_000);
  });

  it('bills a token-priced image model from the usage it reports', async () => {
    const { body } = await expectCharged(
      () => post('/v1/images/generations', { model: GPT_IMAGE, prompt: 'three word prompt' }),
      (res) => {
        const usage = (res as { usage: { input_tokens: number; output_tokens: number } }).usage;
        return tokenQuota(
          { promptTokens: usage.input_tokens, completionTokens: usage.output_tokens },
          tokens(2.5),
        );
      },
    );
    expect((body as { usage: { output_tokens: number } }).usage.output_tokens).toBe(272);
  });

  it('refuses an unknown key with 401 and a model outside the token limits with 403', async () => {
    const unknown = await post('/v1/embeddings', { model: EMBED, input: 'x' }, `sk-${'x'.repeat(48)}`);
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toMatchObject({ error: { code: 'invalid_api_key' } });

    const limited = await addToken(t, user.id, { model_limits_enabled: 1, model_limits: EMBED });
    const refused = await post('/v1/rerank', { model: RERANK, query: 'q', documents: ['d'] }, limited.key);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: 'model_not_allowed' } });
    expect(mock.requests).toHaveLength(0);
  });

  it('refuses an unpriced model with 400 before calling upstream', async () => {
    const res = await post('/v1/embeddings', { model: 'unpriced-embedding', input: 'x' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'model_price_not_set' } });
    expect(mock.requests).toHaveLength(0);
  });

  it('answers a bad request in the OpenAI error format', async () => {
    const res = await post('/v1/images/generations', { model: IMAGE, prompt: 'x', n: 0 });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: { message: 'n must be between 1 and 10', type: 'invalid_request_error' },
    });
  });

  it('refunds the whole hold when the upstream fails with 500 and answers an OpenAI error', async () => {
    const before = await balances(t, ids());
    const res = await post('/v1/images/generations', {
      model: IMAGE,
      prompt: 'fail please [[mock:{"status":500}]]',
      n: 3,
    });
    expect(res.status).toBe(500);
    const body = (await res.json()) as { error: { message: string; type: string } };
    expect(body.error.message).toMatch(/request id/);
    expect(typeof body.error.type).toBe('string');
    const after = await balances(t, ids());
    expect(after.userQuota).toBe(before.userQuota);
    expect(after.tokenRemain).toBe(before.tokenRemain);
    expect(after.logQuota).toBe(before.logQuota);
    expect((await lastLog()).type).toBe(LOG_TYPE.error);
  });
});
