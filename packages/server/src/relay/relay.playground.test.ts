import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockUpstream } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { LOG_TYPE } from '@sluice/shared';
import { testDialects } from '../test-support/databases.js';
import { createTestApp } from '../test-support/test-app.js';
import type { Caller, TestApp } from '../test-support/test-app.js';
import { addChannel, billingWritten, setOptions } from '../test-support/relay-kit.js';

const MODEL = 'playground-model';

describe.each(testDialects())('console playground on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let user: Caller;

  beforeAll(async () => {
    mock = await startMockUpstream();
    t = await createTestApp({ dialect });
    await setOptions(t, { ModelRatio: { [MODEL]: 2 }, GroupRatio: { default: 1, vip: 2 } });
    user = await t.createUser({ quota: 1_000_000 });
    await addChannel(t, { base_url: mock.url, models: MODEL, group: 'default,vip' });
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  const play = (body: Record<string, unknown>, as: Caller | null = user) =>
    t.call({
      method: 'POST',
      url: '/pg/chat/completions',
      ...(as ? { as } : {}),
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        model: MODEL,
        messages: [{ role: 'user', content: 'play with me' }],
        stream: true,
        temperature: 0,
        max_tokens: 0,
        ...body,
      }),
    });

  it('streams for the signed-in user in the chosen group and bills the user without a token', async () => {
    const before = await t.db.db
      .selectFrom('users')
      .select('quota')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    const res = await play({ group: 'vip' });
    expect(res.statusCode).toBe(200);
    const chunks = res.body
      .split('\n\n')
      .filter((e) => e.startsWith('data: '))
      .map((e) => e.slice(6));
    expect(chunks.at(-1)).toBe('[DONE]');
    const text = chunks
      .slice(0, -1)
      .map(
        (c) =>
          (JSON.parse(c) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta.content ?? '',
      )
      .join('');
    expect(text).toBe('You said: play with me');
    const sent = mock.lastRequest()?.body as Record<string, unknown>;
    expect(sent.group).toBeUndefined();
    // max_tokens 0 is "no limit": the upstream gets the default hold's limit (DefaultMaxTokens "*"),
    // in the field OpenAI's reasoning models accept.
    expect(sent.max_tokens).toBeUndefined();
    expect(sent.max_completion_tokens).toBe(4096);

    await billingWritten(t);
    const log = await t.db.db.selectFrom('logs').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(log).toMatchObject({
      type: LOG_TYPE.consume,
      user_id: user.id,
      token_id: 0,
      token_name: '',
      group: 'vip',
    });
    // 4 prompt + 5 completion tokens at ratio 2 in group vip (ratio 2)
    expect(log.quota).toBe(36);
    const after = await t.db.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(before.quota - after.quota).toBe(36);
    expect(after.used_quota).toBe(36);
  });

  it('uses the user group when none is given and refuses a group the user may not use', async () => {
    expect((await play({})).statusCode).toBe(200);
    const refused = await play({ group: 'secret' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('group_not_allowed');
  });

  it('requires a signed-in session', async () => {
    const res = await play({}, null);
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toBeTruthy();
  });
});
