// No overspend: a call holds its worst case, the upstream's output limit is capped to what the
// caller's balance affords, and parallel calls on one balance cannot all pass.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockUpstream } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { testDialects } from '../test-support/databases.js';
import { createTestApp } from '../test-support/test-app.js';
import type { TestApp } from '../test-support/test-app.js';
import { LOG_TYPE } from '@sluice/shared';
import { countTokens } from '../billing/token-counter.js';
import {
  addChannel,
  addToken,
  balances,
  billingWritten,
  listen,
  setOptions,
} from '../test-support/relay-kit.js';

const MODEL = 'overspend-model';
const OTHER_MODEL = 'overspend-default-model';
/** Output tokens held for a call without max_tokens (the "*" entry of DefaultMaxTokens). */
const DEFAULT_HOLD = 100;
const RICH = 100_000_000;

describe.each(testDialects())('no overspend on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let base: string;
  let channelId: number;

  beforeAll(async () => {
    mock = await startMockUpstream();
    t = await createTestApp({ dialect });
    // Ratio 1 and completion ratio 1: one quota per token, so limits read as quota.
    await setOptions(t, {
      ModelRatio: { [MODEL]: 1, [OTHER_MODEL]: 1 },
      CompletionRatio: { [MODEL]: 1, [OTHER_MODEL]: 1 },
      DefaultMaxTokens: { '*': DEFAULT_HOLD, [OTHER_MODEL]: 250 },
    });
    channelId = await addChannel(t, { base_url: mock.url, models: `${MODEL},${OTHER_MODEL}` });
    base = await listen(t);
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });
  beforeEach(() => {
    mock.reset();
    mock.setBehaviour(null);
  });

  const chat = (key: string, extra: Record<string, unknown> = {}) =>
    fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }], ...extra }),
    });

  const sentLimit = (): unknown => {
    const body = mock.lastRequest('/v1/chat/completions')?.body as Record<string, unknown> | undefined;
    return body?.max_completion_tokens ?? body?.max_tokens;
  };

  it('charges 50 parallel calls without max_tokens no more than the token had', async () => {
    // Without a cap each call would produce 1000 tokens; the token covers five default holds.
    mock.setBehaviour({ reply_tokens: 1000, chunk_delay_ms: 5 });
    const user = await t.createUser({ quota: RICH });
    const quota = 5 * (DEFAULT_HOLD + 8);
    const token = await addToken(t, user.id, { remain_quota: quota });
    const answers = await Promise.all(
      Array.from({ length: 50 }, async () => {
        const res = await chat(token.key);
        return { status: res.status, body: (await res.json()) as { error?: { code: string } } };
      }),
    );
    const passed = answers.filter((a) => a.status === 200);
    expect(passed.length).toBeGreaterThanOrEqual(5);
    expect(passed.length).toBeLessThan(50);
    // Refused while others hold the rest (403), or once the token is spent and marked used up (401).
    for (const r of answers.filter((a) => a.status !== 200)) {
      expect(['insufficient_token_quota', 'token_quota_exhausted']).toContain(r.body.error?.code);
    }

    const after = await balances(t, { userId: user.id, tokenId: token.id, channelIds: [channelId] });
    expect(after.tokenUsed).toBeGreaterThan(0);
    expect(after.tokenUsed).toBeLessThanOrEqual(quota);
    expect(after.tokenRemain).toBeGreaterThanOrEqual(0);
    expect(after.logQuota).toBe(after.tokenUsed);
  });

  it('never takes a small balance below zero with one long stream', async () => {
    mock.setBehaviour({ reply_tokens: 5000, chunk_delay_ms: 1 });
    const user = await t.createUser({ quota: 300 });
    const token = await addToken(t, user.id, { remain_quota: RICH });
    const res = await chat(token.key, { stream: true, max_tokens: 5000 });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('[DONE]');
    const limit = sentLimit();
    expect(typeof limit).toBe('number');
    expect(limit as number).toBeLessThan(300);

    const after = await balances(t, { userId: user.id, tokenId: token.id, channelIds: [channelId] });
    expect(after.userUsed).toBeGreaterThan(200);
    expect(after.userQuota).toBeGreaterThanOrEqual(0);
  });

  /** The stream's content events: what the client was actually sent. */
  const contentOf = (sse: string): string =>
    sse
      .split('\n\n')
      .filter((e) => e.startsWith('data: {'))
      .map((e) => JSON.parse(e.slice(6)) as { choices?: { delta?: { content?: string } }[] })
      .map((c) => c.choices?.[0]?.delta?.content ?? '')
      .join('');

  const lastLog = async (userId: number) => {
    await billingWritten(t);
    const row = await t.db.db
      .selectFrom('logs')
      .select(['quota', 'prompt_tokens', 'completion_tokens', 'other'])
      .where('user_id', '=', userId)
      .where('type', '=', LOG_TYPE.consume)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    return { ...row, other: JSON.parse(row.other) as Record<string, unknown> };
  };

  it('stops a stream whose upstream ignores the limit when the balance is spent, billing what was sent', async () => {
    mock.setBehaviour({ reply_tokens: 5000, ignore_limit: true });
    const user = await t.createUser({ quota: 300 });
    const token = await addToken(t, user.id, { remain_quota: RICH });
    const res = await chat(token.key, { stream: true, max_tokens: 5000 });
    expect(res.status).toBe(200);
    const text = await res.text();
    // Ended cleanly with an error event the SDKs raise, and no end marker.
    expect(text).not.toContain('[DONE]');
    const last = text.trim().split('\n\n').at(-1) ?? '';
    expect(JSON.parse(last.slice('data: '.length))).toMatchObject({
      error: { code: 'insufficient_quota', type: 'insufficient_quota' },
    });
    const delivered = contentOf(text);
    const words = delivered.trim().split(/\s+/).length;
    expect(words).toBeGreaterThan(200);
    expect(words).toBeLessThan(300);

    const after = await balances(t, { userId: user.id, tokenId: token.id, channelIds: [channelId] });
    expect(after.userQuota).toBeGreaterThanOrEqual(0);
    expect(after.userUsed).toBeLessThanOrEqual(300);
    expect(after.logQuota).toBe(after.userUsed);
    const log = await lastLog(user.id);
    // Billed exactly what was sent: Sluice's own count of the delivered text, at one quota a token.
    expect(log.completion_tokens).toBe(await countTokens(delivered, MODEL));
    // At one quota a token; a prompt counted above the estimate the hold was sized with is not
    // charged past the hold, which was all the user had.
    expect(log.quota).toBe(Math.min(log.prompt_tokens + log.completion_tokens, 300));
    expect(log.other).toMatchObject({ stream_interrupted: 'quota', usage_source: 'local' });
  });

  it('lets parallel runaway streams on one balance spend it only once', async () => {
    mock.setBehaviour({ reply_tokens: 3000, ignore_limit: true, chunk_delay_ms: 1 });
    const user = await t.createUser({ quota: 1000 });
    const token = await addToken(t, user.id, { remain_quota: RICH });
    const texts = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const res = await chat(token.key, { stream: true, max_tokens: 100 });
        return res.status === 200 ? res.text() : '';
      }),
    );
    expect(texts.filter((x) => x.includes('insufficient_quota')).length).toBeGreaterThan(0);
    const after = await balances(t, { userId: user.id, tokenId: token.id, channelIds: [channelId] });
    expect(after.userQuota).toBeGreaterThanOrEqual(0);
    expect(after.userUsed).toBeGreaterThan(500);
    expect(after.logQuota).toBe(after.userUsed);
  });

  it('lets a runaway stream go on while the caller can pay, then bills the upstream usage', async () => {
    mock.setBehaviour({ reply_tokens: 1500, ignore_limit: true });
    const user = await t.createUser({ quota: RICH });
    const token = await addToken(t, user.id, { remain_quota: RICH });
    const res = await chat(token.key, { stream: true, max_tokens: 20 });
    const text = await res.text();
    expect(text).toContain('[DONE]');
    expect(contentOf(text).trim().split(/\s+/)).toHaveLength(1500);
    const log = await lastLog(user.id);
    expect(log.completion_tokens).toBe(1500);
    expect(log.other.stream_interrupted).toBeUndefined();
  });

  it('forwards an affordable max_tokens unchanged and holds the default when none is set', async () => {
    const user = await t.createUser({ quota: RICH });
    const token = await addToken(t, user.id, { remain_quota: RICH });
    const withLimit = await chat(token.key, { max_tokens: 7 });
    expect(withLimit.status).toBe(200);
    await withLimit.text();
    expect(sentLimit()).toBe(7);

    const withCompletionLimit = await chat(token.key, { max_completion_tokens: 9 });
    await withCompletionLimit.text();
    const body = mock.lastRequest('/v1/chat/completions')?.body as Record<string, unknown>;
    expect(body.max_completion_tokens).toBe(9);
    expect(body.max_tokens).toBeUndefined();

    const none = await chat(token.key);
    await none.text();
    expect(sentLimit()).toBe(DEFAULT_HOLD);

    const perModel = await chat(token.key, { model: OTHER_MODEL });
    await perModel.text();
    expect(sentLimit()).toBe(250);
  });

  it('caps a client limit the balance cannot cover, under the name the client used', async () => {
    mock.setBehaviour({ reply_tokens: 1000 });
    const user = await t.createUser({ quota: RICH });
    const token = await addToken(t, user.id, { remain_quota: 60 });
    const res = await chat(token.key, { max_completion_tokens: 1000 });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { usage: { completion_tokens: number } };
    const body = mock.lastRequest('/v1/chat/completions')?.body as Record<string, unknown>;
    expect(body.max_completion_tokens).toBeLessThan(60);
    expect(body.max_completion_tokens).toBeGreaterThanOrEqual(16);
    expect(answer.usage.completion_tokens).toBe(body.max_completion_tokens);
    const after = await balances(t, { userId: user.id, tokenId: token.id, channelIds: [channelId] });
    expect(after.tokenRemain).toBeGreaterThanOrEqual(0);

    // Both limits set: both are lowered, so neither lets the upstream go past the hold.
    const second = await addToken(t, user.id, { remain_quota: 60 });
    const both = await chat(second.key, { max_tokens: 1000, max_completion_tokens: 1000 });
    expect(both.status).toBe(200);
    await both.text();
    const sent = mock.lastRequest('/v1/chat/completions')?.body as Record<string, number>;
    expect(sent.max_tokens).toBeLessThan(60);
    expect(sent.max_completion_tokens).toBe(sent.max_tokens);
  });

  it('refuses with 403 when what is left buys less than a useful reply', async () => {
    const poorUser = await t.createUser({ quota: 10 });
    const richToken = await addToken(t, poorUser.id, { remain_quota: RICH });
    const userShort = await chat(richToken.key);
    expect(userShort.status).toBe(403);
    expect(((await userShort.json()) as { error: { code: string } }).error.code).toBe(
      'insufficient_user_quota',
    );

    const user = await t.createUser({ quota: RICH });
    const poorToken = await addToken(t, user.id, { remain_quota: 12 });
    const tokenShort = await chat(poorToken.key);
    expect(tokenShort.status).toBe(403);
    expect(((await tokenShort.json()) as { error: { code: string } }).error.code).toBe(
      'insufficient_token_quota',
    );
    // A client limit below the useful minimum is kept when affordable: nothing to cap.
    const small = await chat(poorToken.key, { max_tokens: 3 });
    expect(small.status).toBe(200);
    await small.text();
    expect(sentLimit()).toBe(3);
  });
});
