// Price lookup, and self-use mode seen from a client: a model nobody priced is relayed at no charge.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockUpstream } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { LOG_TYPE, OPTION_DEFS, quotaFor } from '@sluice/shared';
import { testDialects } from '../test-support/databases.js';
import { createTestApp } from '../test-support/test-app.js';
import type { Caller, TestApp } from '../test-support/test-app.js';
import {
  addChannel,
  addToken,
  balances,
  billingWritten,
  listen,
  setOptions,
} from '../test-support/relay-kit.js';
import type { TestToken } from '../test-support/relay-kit.js';
import { RelayError } from '../relay/ir/errors.js';
import { resolvePricing } from './pricing.js';

const PRICED = 'priced-model';
const UNPRICED = 'nobody-priced-this';

describe.each(testDialects())('pricing and self-use mode on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let base: string;
  let user: Caller;
  let token: TestToken;
  let channelId: number;

  beforeAll(async () => {
    mock = await startMockUpstream();
    t = await createTestApp({ dialect });
    await setOptions(t, { ModelRatio: { [PRICED]: 2 }, GroupRatio: { default: 1, vip: 0.5 } });
    user = await t.createUser({ quota: 1_000_000 });
    token = await addToken(t, user.id);
    channelId = await addChannel(t, { base_url: mock.url, models: `${PRICED},${UNPRICED}` });
    base = await listen(t);
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });
  beforeEach(async () => {
    mock.reset();
    await setOptions(t, { SelfUseModeEnabled: false });
  });

  const chat = (model: string) =>
    fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hello there' }] }),
    });

  describe('resolvePricing', () => {
    it('refuses a model with neither a price nor a ratio, telling the operator what to set', () => {
      const refusal = (() => {
        try {
          resolvePricing(t.app.ctx.options, UNPRICED, 'default');
        } catch (error) {
          return error;
        }
        return undefined;
      })();
      expect(refusal).toBeInstanceOf(RelayError);
      expect(refusal).toMatchObject({ status: 400, code: 'model_price_not_set' });
    });

    it('prices an unpriced model at nothing in self-use mode, and leaves priced models alone', async () => {
      await setOptions(t, { SelfUseModeEnabled: true });
      expect(resolvePricing(t.app.ctx.options, UNPRICED, 'vip')).toEqual({
        billing: 'tokens',
        modelRatio: 0,
        completionRatio: 1,
        cacheRatio: 1,
        cacheWriteRatio: 1.25,
        groupRatio: 0.5,
      });
      expect(resolvePricing(t.app.ctx.options, PRICED, 'default')).toMatchObject({ modelRatio: 2 });
    });

    it('prices cache writes by CreateCacheRatio, and a model missing from it at 1.25', async () => {
      const sonnet = 'claude-sonnet-4-5';
      await setOptions(t, {
        ModelRatio: { [PRICED]: 2, [sonnet]: 1.5 },
        CompletionRatio: { [sonnet]: 5 },
        CacheRatio: { [sonnet]: 0.1 },
        CreateCacheRatio: { [sonnet]: 2 },
      });
      try {
        const pricing = resolvePricing(t.app.ctx.options, sonnet, 'default');
        expect(pricing).toMatchObject({ cacheRatio: 0.1, cacheWriteRatio: 2 });
        // 10000 prompt = 2000 plain + 6000 read + 2000 written (1-hour cache, 2×), 500 completion:
        // (2000 + 600 + 4000 + 2500) × 1.5 = 13650.
        const usage = {
          promptTokens: 10000,
          completionTokens: 500,
          cachedTokens: 6000,
          cacheWriteTokens: 2000,
        };
        expect(quotaFor(usage, pricing)).toBe(13650);
        // Not in the table: Anthropic's 5-minute cache-write price. Names of the object prototype's
        // members are not entries either.
        expect(resolvePricing(t.app.ctx.options, PRICED, 'default')).toMatchObject({ cacheWriteRatio: 1.25 });
        await setOptions(t, { ModelRatio: { constructor: 1 }, CreateCacheRatio: {} });
        expect(resolvePricing(t.app.ctx.options, 'constructor', 'default')).toMatchObject({
          cacheWriteRatio: 1.25,
        });
      } finally {
        await setOptions(t, {
          ModelRatio: { [PRICED]: 2 },
          CompletionRatio: OPTION_DEFS.CompletionRatio.default,
          CacheRatio: OPTION_DEFS.CacheRatio.default,
          CreateCacheRatio: OPTION_DEFS.CreateCacheRatio.default,
        });
      }
    });
  });

  it('refuses to relay an unpriced model while self-use mode is off, and nothing reaches upstream', async () => {
    const res = await chat(UNPRICED);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('model_price_not_set');
    expect(mock.lastRequest('/v1/chat/completions')).toBeUndefined();
  });

  it('relays an unpriced model in self-use mode, charges nothing and logs the call with quota 0', async () => {
    await setOptions(t, { SelfUseModeEnabled: true });
    const before = await balances(t, { userId: user.id, tokenId: token.id, channelIds: [channelId] });
    const res = await chat(UNPRICED);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { choices: { message: { content: string } }[] };
    expect(body.choices[0]?.message.content).toBe('You said: hello there');

    const after = await balances(t, { userId: user.id, tokenId: token.id, channelIds: [channelId] });
    expect(after).toMatchObject({
      userQuota: before.userQuota,
      userUsed: before.userUsed,
      tokenRemain: before.tokenRemain,
      channelUsed: before.channelUsed,
      requestCount: before.requestCount + 1,
    });
    await billingWritten(t);
    const log = await t.db.db.selectFrom('logs').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(log).toMatchObject({ type: LOG_TYPE.consume, model_name: UNPRICED, quota: 0, user_id: user.id });
    expect(log.prompt_tokens).toBeGreaterThan(0);

    // A priced model is still billed as usual.
    const priced = await chat(PRICED);
    expect(priced.status).toBe(200);
    const afterPriced = await balances(t, { userId: user.id, tokenId: token.id, channelIds: [channelId] });
    expect(after.userQuota - afterPriced.userQuota).toBeGreaterThan(0);
  });
});
