// A Claude stream the client abandons half-way is billed for what it was sent, not for the usage
// Anthropic's message_start reports (output_tokens: 1).
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockUpstream, withMock } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { LOG_TYPE } from '@sluice/shared';
import { testDialects } from '../test-support/databases.js';
import { createTestApp } from '../test-support/test-app.js';
import type { TestApp } from '../test-support/test-app.js';
import { addChannel, addToken, billingWritten, listen, setOptions } from '../test-support/relay-kit.js';

describe.each(testDialects())('an abandoned Claude stream on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let claude: Anthropic;
  beforeAll(async () => {
    mock = await startMockUpstream();
    t = await createTestApp({ dialect });
    await setOptions(t, { ModelRatio: { 'claude-cut': 1 }, CompletionRatio: { 'claude-cut': 1 } });
    const user = await t.createUser({ quota: 50_000_000 });
    const token = await addToken(t, user.id, { remain_quota: 50_000_000 });
    await addChannel(t, { type: 14, base_url: mock.url, models: 'claude-cut' });
    claude = new Anthropic({ apiKey: token.key, baseURL: await listen(t), maxRetries: 0 });
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  it('is billed for the text the client received', async () => {
    const stream = claude.messages.stream({
      model: 'claude-cut',
      max_tokens: 1000,
      messages: [{ role: 'user', content: withMock('go', { reply_tokens: 300, chunk_delay_ms: 2 }) }],
    });
    let deltas = 0;
    stream.on('text', () => {
      deltas += 1;
      if (deltas === 100) stream.abort();
    });
    await stream.done().catch(() => undefined);
    await expect.poll(() => mock.lastRequest()?.outcome).toBe('client-closed');
    await billingWritten(t);
    const log = await t.db.db
      .selectFrom('logs')
      .selectAll()
      .where('type', '=', LOG_TYPE.consume)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(Number(log.completion_tokens)).toBeGreaterThanOrEqual(100);
    expect(JSON.parse(log.other ?? '{}')).toMatchObject({ stream_interrupted: 'client' });
  });
});
