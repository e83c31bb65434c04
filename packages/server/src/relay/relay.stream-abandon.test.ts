// A Claude stream the client abandons half-way is billed for what it was sent, not for the usage
// Anthropic's message_start reports (output_tokens: 1).
import type Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withMock } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { testDialects } from '../test-support/databases.js';
import type { Caller, TestApp } from '../test-support/test-app.js';
import { lastConsumeLog } from '../test-support/relay-kit.js';
import { anthropicSdk, startRelaySuite, stopAppAndMock } from '../test-support/relay-suite.js';

describe.each(testDialects())('an abandoned Claude stream on %s', (dialect) => {
  let t: TestApp;
  let mock: MockUpstream;
  let user: Caller;
  let claude: Anthropic;
  beforeAll(async () => {
    const suite = await startRelaySuite(dialect, {
      options: { ModelRatio: { 'claude-cut': 1 }, CompletionRatio: { 'claude-cut': 1 } },
      channels: async (add) => {
        await add({ type: 14, models: 'claude-cut' });
      },
    });
    ({ t, mock, user } = suite);
    claude = anthropicSdk(suite.base, suite.token.key);
  });
  afterAll(() => stopAppAndMock(t, mock));

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
    // The call settles once the relay has seen the client go, which may be after the upstream has.
    const log = await expect
      .poll(() => lastConsumeLog(t, user.id).catch(() => undefined))
      .toBeDefined()
      .then(() => lastConsumeLog(t, user.id));
    expect(Number(log.completion_tokens)).toBeGreaterThanOrEqual(100);
    expect(JSON.parse(log.other ?? '{}')).toMatchObject({ stream_interrupted: 'client' });
  });
});
