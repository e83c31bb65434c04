import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockUpstream } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { ROLE } from '@sluice/shared';
import { testDialects } from '../test-support/databases.js';
import { createTestApp } from '../test-support/test-app.js';
import type { TestApp } from '../test-support/test-app.js';
import { addChannel, addToken, balances, listen, setOptions } from '../test-support/relay-kit.js';

const MODEL = 'balance-sync-model';

describe.each(testDialects())('relay balances kept in memory on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let base: string;
  let channelId: number;

  beforeAll(async () => {
    mock = await startMockUpstream({ record: false });
    t = await createTestApp({ dialect });
    await setOptions(t, { ModelRatio: { [MODEL]: 1 }, CompletionRatio: { [MODEL]: 1 } });
    channelId = await addChannel(t, { base_url: mock.url, models: MODEL });
    base = await listen(t);
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  const chat = (key: string) =>
    fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, max_tokens: 500, messages: [{ role: 'user', content: 'hi' }] }),
    });

  it('sees a redeemed code at once: the call refused before it goes through after', async () => {
    const admin = await t.createUser({ role: ROLE.admin });
    // 10 quota buys fewer output tokens than a useful reply: refused rather than capped.
    const user = await t.createUser({ quota: 10 });
    const token = await addToken(t, user.id, { remain_quota: 1_000_000 });
    const refused = await chat(token.key);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe(
      'insufficient_user_quota',
    );

    const created = await t.call({
      method: 'POST',
      url: '/api/redemption/',
      as: admin,
      payload: { name: 'top', quota: 10_000, count: 1 },
    });
    const [code] = created.json<{ data: string[] }>().data;
    const redeemed = await t.call({
      method: 'POST',
      url: '/api/user/topup',
      as: user,
      payload: { key: code },
    });
    expect(redeemed.statusCode, redeemed.body).toBe(200);

    const ok = await chat(token.key);
    expect(ok.status).toBe(200);
    await ok.text();
    const after = await balances(t, { userId: user.id, tokenId: token.id, channelIds: [channelId] });
    // The redemption's own log row carries its quota too, so compare with what was used.
    expect(after.userUsed).toBeGreaterThan(0);
    expect(after.userQuota).toBe(10 + 10_000 - after.userUsed);
    expect(after.tokenUsed).toBe(after.userUsed);
    expect(after.channelUsed).toBe(after.userUsed);
  });

  it('sees a quota lowered by another writer before the next call', async () => {
    const user = await t.createUser({ quota: 1_000_000 });
    const token = await addToken(t, user.id, { remain_quota: 1_000_000 });
    const first = await chat(token.key);
    expect(first.status).toBe(200);
    await first.text();
    // What the console's user edit does: write the row, then announce it.
    await t.db.db.updateTable('users').set({ quota: 10 }).where('id', '=', user.id).execute();
    t.app.ctx.bus.publish('users', String(user.id));
    const refused = await chat(token.key);
    expect(refused.status).toBe(403);
  });
});
