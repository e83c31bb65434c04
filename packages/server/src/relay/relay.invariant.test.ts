import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockUpstream, withMock } from '@sluice/mock-upstream';
import type { MockDirective, MockUpstream } from '@sluice/mock-upstream';
import { LOG_TYPE, tokenQuota } from '@sluice/shared';
import { testDialects } from '../test-support/databases.js';
import { createTestApp } from '../test-support/test-app.js';
import type { TestApp } from '../test-support/test-app.js';
import {
  addChannel,
  addToken,
  balances,
  billingWritten,
  listen,
  setOptions,
} from '../test-support/relay-kit.js';
import { relayRuntime } from './pipeline/relay-runtime.js';
import { reconcile } from '../billing/reconcile.js';

const MODEL = 'invariant-model';
// Ratios whose products are not exact in binary floating point.
const pricing = {
  billing: 'tokens' as const,
  modelRatio: 0.145,
  completionRatio: 3.3,
  groupRatio: 1.1,
  cacheRatio: 0.25,
  cacheWriteRatio: 1.25,
};
const CALLS = 200;
const START_QUOTA = 500_000_000;

interface Plan {
  directive: MockDirective;
  stream: boolean;
  /** The client hangs up after the first event. */
  hangUp?: boolean;
}

const PLANS: Plan[] = [
  { directive: {}, stream: false },
  { directive: { cached_tokens: 3 }, stream: true },
  { directive: { status: 500 }, stream: false },
  { directive: { reply_tokens: 30, cut_after: 4 }, stream: true },
  { directive: { reply_tokens: 400, chunk_delay_ms: 5 }, stream: true, hangUp: true },
  { directive: { no_usage: true }, stream: false },
  { directive: { no_usage: true, reply_tokens: 12 }, stream: true },
  { directive: { reset: true }, stream: true },
];

describe.each(testDialects())('billing invariant under concurrency on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let base: string;

  beforeAll(async () => {
    mock = await startMockUpstream({ record: false });
    t = await createTestApp({ dialect });
    await setOptions(t, {
      ModelRatio: { [MODEL]: pricing.modelRatio },
      CompletionRatio: { [MODEL]: pricing.completionRatio },
      CacheRatio: { [MODEL]: pricing.cacheRatio },
      GroupRatio: { default: 1, vip: pricing.groupRatio },
      RetryTimes: 1,
    });
    base = await listen(t);
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  it(`keeps logs, user, token and channels equal across ${CALLS} mixed concurrent calls`, async () => {
    const user = await t.createUser({ quota: START_QUOTA, group: 'vip' });
    const token = await addToken(t, user.id, { remain_quota: START_QUOTA });
    const channels = [
      await addChannel(t, { base_url: mock.url, models: MODEL, group: 'vip' }),
      await addChannel(t, { base_url: mock.url, models: MODEL, group: 'vip' }),
    ];

    const one = async (i: number) => {
      const plan = PLANS[i % PLANS.length] as Plan;
      const controller = new AbortController();
      try {
        const res = await fetch(`${base}/v1/chat/completions`, {
          method: 'POST',
          signal: controller.signal,
          headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            model: MODEL,
            stream: plan.stream,
            messages: [
              { role: 'system', content: 'be brief' },
              { role: 'user', content: withMock(`call number ${i} with some words`, plan.directive) },
            ],
          }),
        });
        if (plan.hangUp && res.body) {
          await res.body.getReader().read();
          controller.abort();
          return;
        }
        await res.text();
      } catch {
        // The hang-ups end in an abort error on purpose.
      }
    };
    await Promise.all(Array.from({ length: CALLS }, (_, i) => one(i)));

    // Every call writes exactly one log row (consumption or error) when it settles; answers do not wait
    // for the write, and a hung-up call settles once the server sees the socket close.
    for (let i = 0; i < 400; i++) {
      await billingWritten(t);
      const rows = await t.db.db.selectFrom('logs').select('id').where('user_id', '=', user.id).execute();
      if (rows.length >= CALLS) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const logs = await t.db.db.selectFrom('logs').selectAll().where('user_id', '=', user.id).execute();
    expect(logs).toHaveLength(CALLS);
    const consumed = logs.filter((l) => l.type === LOG_TYPE.consume);
    const failed = logs.filter((l) => l.type === LOG_TYPE.error);
    // The 500 and reset plans fail on both channels; every other plan reaches the client.
    expect(failed.length).toBe((CALLS / PLANS.length) * 2);
    expect(consumed.length + failed.length).toBe(CALLS);
    expect(consumed.some((l) => l.content.includes('client disconnected'))).toBe(true);
    expect(consumed.some((l) => l.content.includes('broke off'))).toBe(true);

    for (const log of consumed) {
      const other = JSON.parse(log.other) as { cache_tokens?: number; group_ratio: number };
      expect(other.group_ratio).toBe(pricing.groupRatio);
      const expected = tokenQuota(
        {
          promptTokens: log.prompt_tokens,
          completionTokens: log.completion_tokens,
          cachedTokens: other.cache_tokens ?? 0,
        },
        pricing,
      );
      expect(log.quota).toBe(expected);
    }
    const logged = consumed.reduce((sum, l) => sum + l.quota, 0);
    expect(logged).toBeGreaterThan(0);

    const after = await balances(t, { userId: user.id, tokenId: token.id, channelIds: channels });
    expect(START_QUOTA - after.userQuota).toBe(logged);
    expect(after.userUsed).toBe(logged);
    expect(START_QUOTA - after.tokenRemain).toBe(logged);
    expect(after.tokenUsed).toBe(logged);
    expect(after.channelUsed).toBe(logged);
    expect(after.requestCount).toBe(consumed.length);
    // Every hold was released: what the node can still spend is exactly what the database holds.
    expect(relayRuntime(t.app.ctx).ledger.tokenAvailable(token.id)).toBe(after.tokenRemain);

    // Reconciliation agrees: the one difference is the starting quota this test gave the user
    // directly in the database, without the log row every path of the product writes.
    const report = await reconcile(t.db.db, t.db.dialect, { start: 0, now: Math.floor(Date.now() / 1000) });
    expect(report.differences).toEqual([
      expect.objectContaining({ kind: 'user', id: user.id, field: 'quota', difference: START_QUOTA }),
    ]);
    expect(report.totals.consumption).toEqual({ quota: -logged, used_quota: logged, aff_quota: 0 });
  });
});
